# SPDX-License-Identifier: Apache-2.0
"""
The RobStride motors on a CAN bus, probed with python-can for `ros2 doctor`'s check.

Every configured motor ID (without any, 1..127) is asked for its device ID; which answer
within ANSWER_S, and the age of their feedback frames. Each finding is one line with the fix.
"""

import time
from typing import Callable, Dict, List, Optional, Tuple, TYPE_CHECKING

from ros2doctor.api.link import Finding

from .doctor_can_config import CanConfig

if TYPE_CHECKING:     # python-can is imported by probe_motors only
    import can

ANSWER_S = 0.05
FEEDBACK_LISTEN_S = 0.1
HOST_ID = 0xFD


def probe_motors(config: CanConfig, open_bus: Optional[Callable[[], 'can.BusABC']] = None,
                 answer_s: float = ANSWER_S,
                 listen_s: float = FEEDBACK_LISTEN_S
                 ) -> Tuple[List[Finding], Dict[str, str]]:
    """
    Ask each configured motor ID for its device ID and listen for feedback frames.

    Without configured IDs every ID 1..127 is asked and nothing is missing. Returns
    (findings, report items: one per motor with its answer time and feedback age).
    """
    from . import protocol as proto
    from .canbus import from_message, open_python_can, to_message
    out: List[Finding] = []
    items: Dict[str, str] = {}
    try:
        bus = (open_bus or (lambda: open_python_can(config.interface, config.channel,
                                                    config.bitrate)))()
    except Exception as exc:     # noqa: B902 - any driver error: the bus cannot be opened
        text = ' '.join(str(exc).split()) or type(exc).__name__
        out.append(('error', f'cannot open CAN bus {config}: {text[:160]}: check the '
                             'python-can interface and channel names and the permissions.'))
        return out, items
    asked = config.motor_ids or list(range(1, 128))
    answers: Dict[int, float] = {}
    feedback: Dict[int, float] = {}
    try:
        start = time.monotonic()
        for motor_id in asked:
            try:
                bus.send(to_message(proto.encode_get_id(HOST_ID, motor_id)), timeout=0.01)
            except Exception as exc:     # noqa: B902 - a send the bus refuses
                out.append(('error', f'CAN send on {config} failed ({type(exc).__name__}): no '
                                     'ACK on the bus: check motor power, wiring, termination '
                                     'and the bitrate.'))
                return out, items
        end = start + answer_s + listen_s
        while True:
            left = end - time.monotonic()
            if left <= 0:
                break
            frame = from_message(bus.recv(timeout=left))
            now = time.monotonic()
            if frame is None:
                continue
            if frame.comm_type == proto.CommType.GET_ID:
                try:
                    motor_id, _ = proto.decode_device_id_reply(frame)
                except proto.ProtocolError:
                    continue
                if now - start <= answer_s:
                    answers.setdefault(motor_id, now - start)
            elif frame.comm_type == proto.CommType.FEEDBACK:
                feedback[proto.feedback_motor_id(frame)] = now
    finally:
        bus.shutdown()
    done = time.monotonic()
    for motor_id in sorted(set(asked) if config.motor_ids else set(answers)):
        age = f'{(done - feedback[motor_id]) * 1000:.0f} ms' if motor_id in feedback \
            else 'none (nothing commands it)'
        if motor_id in answers:
            items[f'motor {motor_id}'] = (f'answers in {answers[motor_id] * 1000:.1f} ms, '
                                          f'feedback age {age}')
        else:
            items[f'motor {motor_id}'] = f'no answer within {answer_s * 1000:.0f} ms'
            out.append(('error', f'motor {motor_id} does not answer a device-ID request within '
                                 f'{answer_s * 1000:.0f} ms on {config}: check its power and '
                                 f'CAN id (`robstride_cli scan --interface {config.interface} '
                                 f'--channel {config.channel}`), the wiring and the bitrate.'))
    if not config.motor_ids and not answers:
        out.append(('error', f'no motor answers a device-ID request on {config}: check motor '
                             'power, wiring, termination and the bitrate.'))
    return out, items
