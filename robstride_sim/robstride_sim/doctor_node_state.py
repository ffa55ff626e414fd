# SPDX-License-Identifier: Apache-2.0
"""
The running robstride_hardware_interface nodes, as `ros2 doctor`'s RobStride check sees them.

Per node: its parameters (``can_interface``, ``can_channel``, ``can_bitrate``, ``can_ids``,
``update_rate_hz``) and its ``~/robstride_state`` listened to for MEASURE_S: comm_state (bus
not open / send failing), faulted or disabled motors, and the state rate against
``update_rate_hz`` +- RATE_TOLERANCE. Each finding is one line with the fix.
"""

from typing import Any, Dict, List, Optional, Tuple

from ros2doctor.api.link import Finding
from ros2doctor.api.link import private_node
from ros2doctor.api.link import rate_finding
from ros2doctor.api.link import rate_from_stamps
from ros2doctor.api.link import spin_for

NODE_NAME = 'robstride_hardware_interface'
STATE_TYPE = 'robstride_interfaces/msg/RobstrideState'
MEASURE_S = 1.0
RATE_TOLERANCE = 0.05
PARAMS = ('can_interface', 'can_channel', 'can_bitrate', 'can_ids', 'update_rate_hz')
COMM_STATES = {-1: 'BUS_NOT_OPEN', -2: 'SEND_FAIL'}


class StateMeasurement:
    """MEASURE_S of one node's ~/robstride_state: stamps and the last sample."""

    def __init__(self, node: Any, topic: str, seconds: float = MEASURE_S) -> None:
        """Listen to ``topic`` on a node of ``node``'s context for ``seconds``."""
        from robstride_interfaces.msg import RobstrideState

        from .qos import STATE_QOS
        self.stamps: List[int] = []
        self.last: Any = None      # the last RobstrideState
        with private_node(node, 'robstride_doctor') as (listener, executor):
            listener.create_subscription(RobstrideState, topic, self._sample, STATE_QOS)
            spin_for(executor, seconds, step_s=0.05)

    def _sample(self, msg: Any) -> None:
        self.stamps.append(msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec)
        self.last = msg


def _fault_names(bits: int) -> str:
    """Return the names of the fault bits set in ``bits`` (protocol.FAULT_* constants)."""
    from . import protocol
    flags = sorted((value, name) for name, value in vars(protocol).items()
                   if name.startswith('FAULT_') and name != 'FAULT_DEFINED_BITS'
                   and isinstance(value, int) and value > 0 and value & (value - 1) == 0)
    names = [name[len('FAULT_'):].lower().replace('_', ' ') for value, name in flags
             if bits & value]
    return ', '.join(names) or f'0x{bits:X}'


def node_findings(fqn: str, params: Optional[Dict[str, Any]], measurement: StateMeasurement
                  ) -> Tuple[List[Finding], Dict[str, str]]:
    """Return (findings, report items) of one running hardware interface node."""
    out: List[Finding] = []
    topic = fqn + '/robstride_state'
    items: Dict[str, str] = {}
    if params is not None:
        items['bus'] = f"{params.get('can_interface')} {params.get('can_channel')}"
        items['motor ids'] = ', '.join(str(i) for i in params.get('can_ids') or [])
    msg = measurement.last
    nominal = float((params or {}).get('update_rate_hz') or 0.0)
    rate = rate_from_stamps(measurement.stamps)
    items['state rate'] = 'no samples' if rate is None else f'{rate:.1f} Hz' + (
        f' (update_rate_hz {nominal:g})' if nominal else '')
    if nominal:
        found = rate_finding(topic, rate, nominal, RATE_TOLERANCE, MEASURE_S,
                             'check update_rate_hz and the host load (`chrt -f 10` keeps the '
                             'cycle on time).')
        if found:
            out.append(found)
    elif rate is None:
        out.append(('error', f'{topic}: no samples in {MEASURE_S:g} s: the node is stalled '
                             '(or publishes with use_sim_time and no /clock).'))
    if msg is None:
        return out, items
    items['comm_state'] = f'{msg.comm_state} ({COMM_STATES.get(msg.comm_state, "OK")})'
    bus = items.get('bus', 'its CAN bus')
    if msg.comm_state == -1:
        out.append(('error', f'{fqn} reports comm_state -1 (bus not open) on {bus}: the adapter '
                             'is missing or down; see the CAN findings or `ip -details link '
                             'show`.'))
    elif msg.comm_state == -2:
        out.append(('error', f'{fqn} reports comm_state -2 (send failing) on {bus}: frames '
                             'are not acknowledged: check motor power, wiring, termination and '
                             'the bitrate.'))
    for cid, enabled, run_state, bits in zip(msg.id, msg.enabled, msg.run_state,
                                             msg.fault_bits):
        items[f'motor {cid}'] = (f"{'enabled' if enabled else 'disabled'}, run_state "
                                 f'{run_state}, fault_bits 0x{bits:X}')
        if bits:
            out.append(('error', f'{fqn}: motor {cid} reports faults ({_fault_names(bits)}): '
                                 f'fix the cause, then `robstride_cli reboot {cid}` clears '
                                 'them.'))
        elif not enabled and msg.comm_state == 0:
            out.append(('warning', f'{fqn}: motor {cid} is not enabled (run_state {run_state}): '
                                   'it is stale or torque is off (`robstride_cli torque on`, '
                                   '`robstride_cli reactivate`).'))
    return out, items
