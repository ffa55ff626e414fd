# SPDX-License-Identifier: Apache-2.0
"""
Simulated RobStride motors as a peer on a CAN bus (python-can): robstride_fake_motors.

    robstride_fake_motors --interface socketcan --channel vcan0 --motors 1:RS02,2:RS03
    robstride_fake_motors --interface virtual --channel rs --motors 1:RS02   (same process only)

The motors answer every frame addressed to them exactly as SimMotor does inside the node's
`sim` mode (feedback, parameter read replies with status, device-id replies, fault frames)
and run their physics on the peer's own thread. FakeMotorPeer is also what the node starts in
its own process with `fake_motors: true` (python-can's `virtual` bus only connects buses of
one process).
"""
import argparse
import sys
import threading
import time
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import can
from node_runtime import runner, stop

from .canbus import from_message, open_python_can, to_message
from .models import get_model, MotorModel
from .motor import SimMotor
from .protocol import CanFrame

STEP_S = 0.002


class FakeMotorPeer:
    """SimMotors answering on a python-can bus, stepped on their own thread."""

    def __init__(self, motors: Iterable[SimMotor], open_bus: Callable[[], can.BusABC],
                 step_s: float = STEP_S, reopen_s: float = 0.5) -> None:
        self.motors: Dict[int, SimMotor] = {m.can_id: m for m in motors}
        self.lock = threading.RLock()      # held while the motors are touched
        self.step_s = float(step_s)
        self.reopen_s = float(reopen_s)
        self._open_bus = open_bus
        self._bus: Optional[can.BusABC] = None
        self.answered = 0                  # frames handled by one of our motors
        self.errors = 0                    # bus errors (closed and re-opened)
        self._stop = threading.Event()
        self._bus = self._open()
        self._thread = threading.Thread(target=self._run, name='fake-motors', daemon=True)

    def _open(self) -> Optional[can.BusABC]:
        try:
            return self._open_bus()
        except Exception:                  # noqa: B902 - retried by the thread
            self.errors += 1
            return None

    def start(self) -> 'FakeMotorPeer':
        """Start answering (returns at once)."""
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop the thread and shut the bus down."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2.0)
        bus, self._bus = self._bus, None
        if bus is not None:
            try:
                bus.shutdown()
            except Exception:              # noqa: B902
                pass

    def _send(self, bus: can.BusABC, frames: Iterable[CanFrame]) -> None:
        for frame in frames:
            try:
                bus.send(to_message(frame), timeout=0.005)
            except Exception:              # noqa: B902 - a full/broken bus drops the reply
                self.errors += 1

    def _run(self) -> None:
        last = time.monotonic()
        next_step = last + self.step_s
        while not self._stop.is_set():
            bus = self._bus
            if bus is None:
                if self._stop.wait(self.reopen_s):
                    break
                self._bus = self._open()
                continue
            now = time.monotonic()
            try:
                msg = bus.recv(timeout=max(0.0, next_step - now))
            except Exception:              # noqa: B902 - bus gone: re-open it
                self.errors += 1
                self._bus = None
                try:
                    bus.shutdown()
                except Exception:          # noqa: B902
                    pass
                continue
            now = time.monotonic()
            frame = from_message(msg)
            if frame is not None:
                motor = self.motors.get(frame.dest)
                if motor is not None:
                    with self.lock:
                        replies = motor.handle(frame, now)
                    self.answered += 1
                    self._send(bus, replies)
            if now >= next_step:
                dt = min(now - last, 0.05)
                last = now
                next_step = max(next_step + self.step_s, now)
                out: List[CanFrame] = []
                with self.lock:
                    for m in self.motors.values():
                        out += m.step(dt, now)
                self._send(bus, out)


def parse_motors(text: str) -> List[Tuple[int, MotorModel]]:
    """'1:RS02,2:RS03' -> [(1, model RS02), (2, model RS03)]; ValueError with the reason."""
    motors: List[Tuple[int, MotorModel]] = []
    for item in text.split(','):
        cid, sep, model = item.partition(':')
        if not sep or not cid.isascii() or not cid.isdigit() or not 1 <= int(cid) <= 127:
            raise ValueError(f'bad motor {item[:40]!r}: expected ID:MODEL with ID 1..127, '
                             'e.g. 1:RS02')
        motors.append((int(cid), get_model(model)))
    ids = [cid for cid, _ in motors]
    if len(set(ids)) != len(ids):
        raise ValueError(f'duplicate motor ids in {text[:80]!r}')
    return motors


def build_parser() -> argparse.ArgumentParser:
    """Command line of robstride_fake_motors."""
    parser = argparse.ArgumentParser(
        prog='robstride_fake_motors',
        description='Simulated RobStride motors answering on a CAN bus through python-can.')
    parser.add_argument('--interface', default='socketcan',
                        help='python-can interface (socketcan, pcan, slcan, virtual, ...)')
    parser.add_argument('--channel', default='vcan0', help='python-can channel (vcan0, can0)')
    parser.add_argument('--bitrate', type=int, default=0,
                        help='bitrate in bit/s; 0 keeps the interface setting (socketcan)')
    parser.add_argument('--motors', default='1:RS02,2:RS03',
                        help='comma-separated ID:MODEL list (default 1:RS02,2:RS03)')
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Answer on the bus until SIGINT/SIGTERM (exit 0); 2 for bad arguments (runner rule)."""
    args = build_parser().parse_args(argv)
    return runner.run_program(lambda: serve(args), prog='robstride_fake_motors')


def serve(args: argparse.Namespace) -> None:
    """Run the motors of the parsed command line on their bus until the stop request."""
    spec = parse_motors(args.motors)        # ValueError: a configuration error (exit 2)
    motors = [SimMotor(cid, model) for cid, model in spec]
    peer = FakeMotorPeer(
        motors, lambda: open_python_can(args.interface, args.channel, args.bitrate))
    if peer._bus is None:
        print(f'robstride_fake_motors: cannot open {args.interface} {args.channel!r} '
              '(retrying until stopped)', file=sys.stderr, flush=True)
    peer.start()
    names = ', '.join(f'id {m.can_id} {m.model.name}' for m in motors)
    print(f'robstride_fake_motors: {names} on {args.interface} {args.channel}', flush=True)
    try:
        stop.event().wait()
    finally:
        peer.close()
