# SPDX-License-Identifier: Apache-2.0
"""
The hardware interface's bus on a real (or virtual) CAN bus, through python-can.

CanTransport has the interface RobstrideHardware expects of a bus (send, receive, state,
step, inject_state, close), like SimBus, so the code above the bus is the same in every mode.

- A receive thread reads the bus and queues every well-formed RobStride frame (29-bit
  extended data frame, 8 data bytes or fewer); remote, error, 11-bit and over-long frames
  are dropped and counted (`dropped`). The queue is bounded (`overflowed` counts losses).
- A bus that raises on receive (adapter unplugged, interface down, bus shut down) is closed:
  `state` becomes BUS_NOT_OPEN (comm_state -1) and the thread re-opens it every
  `reopen_s` until it works again; `state` is then BUS_OK.
- send() on a bus that is not open raises BusError(BUS_NOT_OPEN); a send the bus refuses
  (no ACK / bus-off / full queue) raises BusError(BUS_SEND_FAIL) (comm_state -2).
- Nothing here raises into the caller other than BusError; python-can errors are logged
  once per kind of failure until the bus recovers.
"""
from collections import deque
import threading
import time
from typing import Any, Callable, Deque, Dict, List, Optional

import can

from .bus import BUS_NOT_OPEN, BUS_OK, BUS_SEND_FAIL, BUS_STATES, BusError
from .protocol import CanFrame

RX_QUEUE_FRAMES = 4096
SEND_TIMEOUT_S = 0.005


def open_python_can(interface: str, channel: str, bitrate: int = 0) -> can.BusABC:
    """Open a python-can bus; bitrate 0 keeps the interface's configured bitrate."""
    # python-can's Bus takes the options of each interface as **kwargs: Any
    kwargs: Dict[str, Any] = {'interface': interface, 'channel': channel}
    if bitrate:
        kwargs['bitrate'] = int(bitrate)
    if interface == 'virtual':
        kwargs['receive_own_messages'] = False
    return can.Bus(**kwargs)


def to_message(frame: CanFrame) -> can.Message:
    """Convert a CanFrame to a python-can extended data frame."""
    return can.Message(arbitration_id=frame.arb_id, data=frame.data, is_extended_id=True)


def from_message(msg: Optional[can.Message]) -> Optional[CanFrame]:
    """Convert a python-can message to a CanFrame (None if it is no RobStride frame)."""
    if (msg is None or not msg.is_extended_id or msg.is_remote_frame or msg.is_error_frame
            or getattr(msg, 'is_fd', False) or msg.dlc > 8 or len(msg.data) > 8):
        return None
    return CanFrame(msg.arbitration_id & 0x1FFFFFFF, bytes(msg.data))


class CanTransport:
    """A python-can bus as the hardware interface's bus (see the module docstring)."""

    def __init__(self, open_bus: Callable[[], can.BusABC], host_id: int = 0xFD,
                 reopen_s: float = 0.5, log: Optional[Callable[[str, str], None]] = None,
                 name: str = 'can') -> None:
        self._open_bus = open_bus          # () -> python-can bus; raises if it cannot open
        self.host_id = host_id
        self.reopen_s = float(reopen_s)
        self._log = log or (lambda level, text: None)
        self._name = name
        self._lock = threading.Lock()
        self._rx: Deque[CanFrame] = deque(maxlen=RX_QUEUE_FRAMES)
        self._bus: Optional[can.BusABC] = None
        self._opened = False
        self._injected = BUS_OK            # sim.bus_state: forced state for fault injection
        self._last_error: Optional[str] = None
        self.dropped = 0                   # frames that are not RobStride frames
        self.overflowed = 0                # frames lost to a full receive queue
        self.send_failures = 0
        self.reopens = 0
        self._stop = threading.Event()
        self._try_open()
        self._thread = threading.Thread(target=self._run, name=f'{name}-rx', daemon=True)
        self._thread.start()

    # --- state -------------------------------------------------------------------------

    @property
    def state(self) -> str:
        """BUS_OK, BUS_NOT_OPEN (no bus, or injected) or BUS_SEND_FAIL (injected)."""
        if self._injected != BUS_OK:
            return self._injected
        return BUS_OK if self._opened else BUS_NOT_OPEN

    def inject_state(self, state: str) -> None:
        """Fault injection: pretend the bus is not open or every send fails."""
        if state not in BUS_STATES:
            raise ValueError(f'bus state must be one of {BUS_STATES}')
        self._injected = state

    def _report(self, level: str, kind: str, text: str) -> None:
        # One line per kind of failure until the bus works again (no log flood at 500 Hz).
        if self._last_error != kind:
            self._last_error = kind
            self._log(level, f'{self._name}: {text}')

    def _try_open(self) -> bool:
        try:
            bus = self._open_bus()
        except Exception as exc:     # noqa: B902 - any driver error means "not open"
            self._report('error', 'open', f'cannot open the CAN bus: {exc}')
            return False
        with self._lock:
            self._bus = bus
            self._opened = True
        if self._last_error is not None:
            self.reopens += 1
            self._log('info', f'{self._name}: CAN bus open again')
        self._last_error = None
        return True

    def _drop_bus(self, exc: BaseException) -> None:
        with self._lock:
            bus, self._bus = self._bus, None
            self._opened = False
        self._report('error', 'lost', f'CAN bus lost ({exc}); re-opening every '
                                      f'{self.reopen_s:g} s')
        if bus is not None:
            try:
                bus.shutdown()
            except Exception:        # noqa: B902 - a vanished adapter may fail to close
                pass

    # --- receive thread ----------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            bus = self._bus
            if bus is None:
                if self._stop.wait(self.reopen_s):
                    break
                self._try_open()
                continue
            try:
                msg = bus.recv(timeout=0.05)
            except Exception as exc:  # noqa: B902 - adapter gone / interface down / closed
                if self._stop.is_set():
                    break
                self._drop_bus(exc)
                continue
            if msg is None:
                continue
            frame = from_message(msg)
            if frame is None:
                self.dropped += 1
            elif self._injected != BUS_NOT_OPEN:
                if len(self._rx) == self._rx.maxlen:
                    self.overflowed += 1
                self._rx.append(frame)

    # --- bus interface of RobstrideHardware -------------------------------------------

    def send(self, frame: CanFrame, now: float) -> None:
        """Send one frame; BusError(BUS_NOT_OPEN / BUS_SEND_FAIL) when it cannot."""
        state = self.state
        if state != BUS_OK:
            raise BusError(state)
        bus = self._bus
        if bus is None:
            raise BusError(BUS_NOT_OPEN)
        try:
            bus.send(to_message(frame), timeout=SEND_TIMEOUT_S)
        except Exception as exc:      # noqa: B902 - python-can raises CanError or OSError
            self.send_failures += 1
            self._report('warning', 'send', f'CAN send failed: {exc}')
            raise BusError(BUS_SEND_FAIL) from None
        if self._last_error == 'send':
            self._last_error = None

    def receive(self) -> List[CanFrame]:
        """Drain and return every frame received since the last call."""
        frames: List[CanFrame] = []
        rx = self._rx
        while rx:
            frames.append(rx.popleft())
        return frames

    def step(self, dt: float, now: float) -> None:
        """Real motors need no stepping (same interface as SimBus)."""

    def close(self) -> None:
        """Stop the receive thread and shut the bus down."""
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        with self._lock:
            bus, self._bus = self._bus, None
            self._opened = False
        if bus is not None:
            try:
                bus.shutdown()
            except Exception:         # noqa: B902
                pass


def wait_until(predicate: Callable[[], bool], timeout_s: float, poll_s: float = 0.01) -> bool:
    """Poll predicate until true or timeout (small helper for tools and tests)."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(poll_s)
    return predicate()
