# SPDX-License-Identifier: Apache-2.0
"""
A simulated CAN bus carrying RobStride frames between the host and SimMotors.

Delivery is synchronous: send() hands the frame to the addressed motor at once and queues
its replies for the host's next receive(). The bus state can be forced to "not open" or
"send fail" to exercise comm_state handling.
"""
from collections import deque
from typing import Deque, Dict, Iterable, List, Optional, Protocol, Tuple, TYPE_CHECKING

from .protocol import CanFrame

if TYPE_CHECKING:
    from .motor import SimMotor

BUS_OK = 'ok'
BUS_NOT_OPEN = 'not_open'
BUS_SEND_FAIL = 'send_fail'
BUS_STATES = (BUS_OK, BUS_NOT_OPEN, BUS_SEND_FAIL)


class BusError(RuntimeError):
    """send() on a bus that is not open or fails to send."""

    def __init__(self, state: str) -> None:
        super().__init__(f'CAN bus {state}')
        self.state = state


class Bus(Protocol):
    """What RobstrideHardware needs of a bus: SimBus or canbus.CanTransport."""

    @property
    def state(self) -> str:
        """BUS_OK, BUS_NOT_OPEN or BUS_SEND_FAIL."""

    def send(self, frame: CanFrame, now: float) -> None:
        """Send one frame; BusError when the bus cannot."""

    def receive(self) -> List[CanFrame]:
        """Drain and return every frame received since the last call."""

    def step(self, dt: float, now: float) -> None:
        """Advance the simulated motors, if any."""

    def inject_state(self, state: str) -> None:
        """Force the bus state (fault injection)."""

    def close(self) -> None:
        """Release the bus."""


class SimBus:
    """In-process bus: the motors answer synchronously inside send()."""

    def __init__(self, motors: Iterable['SimMotor'], host_id: int = 0xFD,
                 log_tx: bool = False) -> None:
        self.motors: Dict[int, 'SimMotor'] = {m.can_id: m for m in motors}
        self.host_id = host_id
        self.state = BUS_OK
        self._rx: Deque[CanFrame] = deque()
        # Optional record of every frame sent, (time, frame): used by tests and demos.
        self.tx_log: Optional[List[Tuple[float, CanFrame]]] = [] if log_tx else None

    def send(self, frame: CanFrame, now: float) -> None:
        """Deliver a host frame to its motor; BusError when the bus is not OK."""
        if self.state != BUS_OK:
            raise BusError(self.state)
        if self.tx_log is not None:
            self.tx_log.append((now, frame))
        motor = self.motors.get(frame.dest)
        if motor is not None:
            self._rx.extend(motor.handle(frame, now))

    def inject_state(self, state: str) -> None:
        """Force the bus state (fault injection: sim.bus_state)."""
        self.state = state

    def close(self) -> None:
        """Nothing to release (same interface as the python-can transport)."""

    def receive(self) -> List[CanFrame]:
        """Drain and return every frame the motors sent since the last call."""
        frames = list(self._rx)
        self._rx.clear()
        return frames

    def step(self, dt: float, now: float) -> None:
        """Advance every motor's physics; unsolicited frames join the receive queue."""
        for motor in self.motors.values():
            frames = motor.step(dt, now)
            if self.state == BUS_OK:
                self._rx.extend(frames)
