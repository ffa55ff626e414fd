# SPDX-License-Identifier: Apache-2.0
"""
The sim.* parameters of robstride_hardware_interface: fault injection into its motors and bus.

A change of a sim.* parameter (at start-up or by `ros2 param set`) is checked whole before
any of it is applied (SimInjection.refusal), then applied to the simulated motors (under the
bus peer's lock) or, for sim.bus_state, to the bus (SimInjection.apply).
"""
import time
from typing import Any, ContextManager, List, Mapping, Optional, Sequence

from .bus import Bus
from .hardware_joints import JointRuntime
from .motor import SimMotor
from .node_parameters import SIM_ARRAY_NAMES
from .protocol import FAULT_DEFINED_BITS


class SimInjection:
    """Checks and applies sim.* parameter changes to the simulated motors and the bus."""

    def __init__(self, joints: Sequence[JointRuntime], motors: Optional[List[SimMotor]],
                 bus: Bus, motor_lock: ContextManager[object]) -> None:
        """Act on ``motors`` (None: no simulated motors in this process) and ``bus``."""
        self.joints = joints
        self.motors = motors
        self.bus = bus
        self.motor_lock = motor_lock

    def refusal(self, changes: Mapping[str, Any], startup: bool = False) -> Optional[str]:
        """Reason to refuse sim.* changes (checked whole before any is applied), or None."""
        n = len(self.joints)
        for name, value in changes.items():
            if self.motors is None and name != 'sim.bus_state' and not startup:
                return (f'{name}: no simulated motors in this process '
                        '(can_interface is a real bus, fake_motors false)')
            if name in SIM_ARRAY_NAMES and len(value) != n:
                return f'{name} needs {n} entries'
            if name == 'sim.inject_fault_bits':
                # A reserved bit has no feedback summary flag: the next feedback would read
                # "no fault" while the motor stays latched and refuses Enable.
                reserved = [int(v) & ~FAULT_DEFINED_BITS for v in value]
                if any(reserved) or min(value) < 0:
                    return (f'{name}: only the defined fault bits '
                            f'(mask 0x{FAULT_DEFINED_BITS:X}) can be injected, got {value}')
        return None

    def apply(self, changes: Mapping[str, Any]) -> None:
        """Apply accepted sim.* changes to the bus and the simulated motors."""
        for name, value in changes.items():
            if name == 'sim.bus_state':
                self.bus.inject_state(value)
            elif self.motors is not None:
                with self.motor_lock:
                    self._apply_sim(self.motors, name, value)

    def _apply_sim(self, motors: List[SimMotor], name: str, value: Any) -> None:
        joints = self.joints
        if name == 'sim.calibrate':
            for m, v in zip(motors, value):
                if v:
                    m.calibrate(time.monotonic())
        elif name == 'sim.hung':
            for m, v in zip(motors, value):
                m.hung = bool(v)
        elif name == 'sim.load_torque':
            for m, j, v in zip(motors, joints, value):
                m.load_torque = j.cfg.direction * float(v)
        elif name == 'sim.inject_fault_bits':
            for m, v in zip(motors, value):
                if int(v):
                    m.latch(int(v))
        elif name == 'sim.bus_voltage':
            for m in motors:
                m.vbus = float(value)
        elif name == 'sim.heat_gain':
            for m in motors:
                m.heat_gain = float(value)
        elif name == 'sim.ambient_c':
            for m in motors:
                m.ambient = float(value)
