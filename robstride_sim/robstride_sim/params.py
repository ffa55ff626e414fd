# SPDX-License-Identifier: Apache-2.0
"""
The RobStride parameter table (indices 0x70xx) and the parsing/validation of writes to it.

Used on both sides of the simulated CAN bus: the hardware interface validates a write before
sending it (so a bad Set returns result=false with a reason and sends nothing), and the
simulated motor stores and acts on the values.
"""
from dataclasses import dataclass
import math
import re
from typing import Callable, Tuple, Union

from .logbound import clip
from .models import MotorModel, P_MAX

# Run modes selectable through run_mode (0x7005).
RUN_MODE_MOTION = 0      # MIT-style motion control frames (type 1)
RUN_MODE_PP = 1          # profile position: loc_ref with limit_spd
RUN_MODE_VELOCITY = 2    # spd_ref
RUN_MODE_CURRENT = 3     # iq_ref
RUN_MODE_ZERO = 4        # set-zero mode (the simulated motor applies no torque)
RUN_MODE_CSP = 5         # cyclic synchronous position: loc_ref

Bound = Union[float, Callable[[MotorModel], float]]


class ParamError(ValueError):
    """A parameter index or value that cannot be written (the message says why)."""


@dataclass(frozen=True)
class ParamSpec:
    index: int
    name: str
    kind: str             # 'u8', 'u32' (integers) or 'f32'
    writable: bool
    low: Bound = 0.0
    high: Bound = 0.0
    default: Bound = 0.0

    def bounds(self, model: MotorModel) -> Tuple[float, float]:
        """(low, high) of the parameter on a motor of `model`."""
        def ev(b: Bound) -> float:
            return float(b(model) if callable(b) else b)
        return ev(self.low), ev(self.high)

    def default_for(self, model: MotorModel) -> float:
        """Value at power-up on a motor of `model`."""
        return float(self.default(model) if callable(self.default) else self.default)


PARAMS = {
    p.index: p for p in (
        ParamSpec(0x7005, 'run_mode', 'u8', True, 0, 5, RUN_MODE_MOTION),
        ParamSpec(0x7006, 'iq_ref', 'f32', True, lambda m: -m.i_max, lambda m: m.i_max, 0.0),
        ParamSpec(0x700A, 'spd_ref', 'f32', True, lambda m: -m.v_max, lambda m: m.v_max, 0.0),
        ParamSpec(0x700B, 'limit_torque', 'f32', True, 0.0, lambda m: m.t_max,
                  lambda m: m.t_max),
        ParamSpec(0x7016, 'loc_ref', 'f32', True, -P_MAX, P_MAX, 0.0),
        ParamSpec(0x7017, 'limit_spd', 'f32', True, 0.0, lambda m: m.v_max,
                  lambda m: min(10.0, m.v_max)),
        ParamSpec(0x7018, 'limit_cur', 'f32', True, 0.0, lambda m: m.i_max, lambda m: m.i_max),
        ParamSpec(0x7019, 'mechPos', 'f32', False),
        ParamSpec(0x701A, 'iqf', 'f32', False),
        ParamSpec(0x701B, 'mechVel', 'f32', False),
        ParamSpec(0x701C, 'VBUS', 'f32', False),
        ParamSpec(0x701E, 'loc_kp', 'f32', True, 0.0, 200.0, 30.0),
        ParamSpec(0x701F, 'spd_kp', 'f32', True, 0.0, 200.0, 5.0),
        ParamSpec(0x7020, 'spd_ki', 'f32', True, 0.0, 1000.0, 5.0),
        # canTimeout counts 20 kHz ticks (20000 = 1 s); 0 disables the timeout.
        ParamSpec(0x7028, 'canTimeout', 'u32', True, 0, 100000, 0),
    )
}
PARAMS_BY_NAME = {p.name: p for p in PARAMS.values()}

CAN_TIMEOUT_TICKS_PER_S = 20000.0


# Exactly "0x" (or "0X") and 1-4 hex digits, or 1-5 decimal digits: ASCII only, no sign,
# no spaces, no underscores, nothing after the last digit.
_INDEX_RE = re.compile(r'0[xX][0-9a-fA-F]{1,4}|[0-9]{1,5}')


def parse_index(text: object) -> int:
    """
    Parse a parameter index given as hex ("0x7016") or decimal ("28694"), strictly.

    Raises ParamError for anything else: surrounding spaces, signs, underscores, non-ASCII
    digits, trailing characters, values above 0xFFFF.
    """
    if not isinstance(text, str) or _INDEX_RE.fullmatch(text) is None:
        raise ParamError(f'item_name {clip(text)} is neither kp, kd nor a parameter index '
                         '(hex like 0x7016 or decimal like 28694)')
    value = int(text[2:], 16) if text[:2] in ('0x', '0X') else int(text, 10)
    if value > 0xFFFF:
        raise ParamError(f'parameter index {clip(text)} is outside 0..0xFFFF')
    return value


def validate_write(model: MotorModel, index: int, value: float) -> ParamSpec:
    """
    Check that `value` may be written to `index` on a motor of `model`.

    Returns the ParamSpec; raises ParamError (unknown index, read-only, not finite,
    not an integer for an integer parameter, or out of range).
    """
    spec = PARAMS.get(index)
    if spec is None:
        raise ParamError(f'unknown parameter index 0x{index:04X}')
    if not spec.writable:
        raise ParamError(f'parameter 0x{index:04X} ({spec.name}) is read-only')
    value = float(value)
    if not math.isfinite(value):
        raise ParamError(f'value {value} for 0x{index:04X} ({spec.name}) is not finite')
    if spec.kind != 'f32' and value != int(value):
        raise ParamError(f'parameter 0x{index:04X} ({spec.name}) takes an integer, got {value}')
    low, high = spec.bounds(model)
    # float32 round-trips (the service carries float32) must not fail at the edges.
    tol = 1e-6 * max(1.0, abs(low), abs(high))
    if not low - tol <= value <= high + tol:
        raise ParamError(f'value {value:g} for 0x{index:04X} ({spec.name}) is outside '
                         f'[{low:g}, {high:g}] for {model.name}')
    return spec
