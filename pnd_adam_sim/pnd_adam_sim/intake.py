# SPDX-License-Identifier: Apache-2.0
"""
Command intake of the simulator: untrusted samples in, whole valid commands out.

Every sample is checked in O(1) on its serialized size before Cyclone's Python binding
turns it into objects (a cost per sequence entry: a LowCmd with tens of thousands of
motor_cmd entries would hold the 500 Hz loop for many ticks). No valid command is larger than
twice the size of one with the expected entry count, so anything bigger is rejected
unread; the rest is deserialized and validated whole (validation.py).

Rejections are logged per kind (the field and check that failed, not the value), the
first one at once and then at most one line per kind and second with the number
suppressed, so hostile traffic cannot grow the log faster than a fixed bound. Log lines
hold only our own text and numbers, capped in length.
"""

import logging
import time
from typing import Any, Callable, Optional

# The binding's own take, which hands over the serialized bytes (DataReader.take() decodes
# every sample first). Not public API: cyclonedds is pinned (requirements/extra-pnd_adam_sim.txt)
# and test_intake/test_fuzz_commands exercise this path.
from cyclonedds._clayer import ddspy_take
from cyclonedds.core import InstanceState, Policy, Qos, SampleState, ViewState
from cyclonedds.sub import DataReader
from cyclonedds.topic import Topic
from node_runtime.bounded_text import clip, RateLimiter, suppressed_note

from .validation import CommandRejected

LOG = logging.getLogger('adam_sim')

# Reader QoS of the command topics. Reliable and KeepAll within ResourceLimits: every
# command of a reliable writer is seen (and checked) in arrival order, so a burst of invalid
# samples from anyone can neither displace a valid one nor overwrite it before the loop
# takes it; when MAX_WAITING samples wait, Cyclone refuses more and reliable writers
# resend later (back-pressure, nothing lost), best-effort ones lose them. The bound keeps
# memory bounded too: at most MAX_WAITING samples of any size wait in the reader, and the
# loop takes them all every tick.
MAX_WAITING = 16
COMMAND_QOS = Qos(Policy.Reliability.Reliable(max_blocking_time=0),
                  Policy.History.KeepAll,
                  Policy.ResourceLimits(max_samples=MAX_WAITING, max_instances=1,
                                        max_samples_per_instance=MAX_WAITING))

LOG_INTERVAL = 1.0       # s between two lines of the same rejection kind
MAX_REASON_CHARS = 200   # a log line never carries more of a reason than this
_ANY = SampleState.Any | ViewState.Any | InstanceState.Any


class RejectionLog:
    """Counts rejections and logs them, at most one line per kind every LOG_INTERVAL."""

    def __init__(self, what: str, clock: Callable[[], float] = time.monotonic,
                 interval: float = LOG_INTERVAL, log: logging.Logger = LOG) -> None:
        """Count and log the rejected samples of `what` (a topic's command name)."""
        self.what = what
        self.count = 0
        self.by_kind: dict[str, int] = {}
        self._log = log
        self._limiter = RateLimiter(interval, None, clock)   # kinds are a fixed set

    def __call__(self, reason: str, kind: str) -> None:
        """Count one rejection of this kind and log it unless its kind was just logged."""
        self.count += 1
        self.by_kind[kind] = self.by_kind.get(kind, 0) + 1
        allowed, suppressed = self._limiter.allow(kind)
        if not allowed:
            return
        self._log.warning('rejected %s (not applied): %s [%d rejected so far]%s', self.what,
                          cap(reason), self.count, suppressed_note(suppressed))


def cap(text: str, limit: int = MAX_REASON_CHARS) -> str:
    """Return text in at most limit characters (node_runtime's clip: the cut is marked)."""
    return clip(text, limit)


class CommandIntake:
    """Reader of one command topic: size check, deserialization, validation, apply."""

    def __init__(self, data_type: Any, example: Any, apply: Callable[[Any], None],
                 what: str) -> None:
        """Intake of data_type samples; example is a valid command of the expected size."""
        self.reader: 'Optional[DataReader[Any]]' = None
        self.data_type = data_type
        self.apply = apply
        self.rejections = RejectionLog(what)
        # Both encodings (XCDR1 and XCDR2) of a valid command fit in twice its XCDR1 size.
        self.max_bytes = 2 * len(example.serialize())

    def subscribe(self, participant: Any, topic_name: str) -> 'CommandIntake':
        """Create the reader of topic_name on participant; returns self."""
        self.reader = DataReader(participant, Topic(participant, topic_name, self.data_type),
                                 qos=COMMAND_QOS)
        return self

    def drain(self, limit: int = MAX_WAITING) -> None:
        """Take every waiting sample (up to limit) and apply the valid ones in order."""
        assert self.reader is not None, 'drain() before subscribe()'
        taken = ddspy_take(self.reader._ref, _ANY, limit)
        if isinstance(taken, int):  # a DDS error code: nothing was taken
            return
        for data, info in taken:
            if info.valid_data:
                self.handle(data)

    def handle(self, data: bytes) -> None:
        """Check, decode, validate and apply one serialized sample (bytes)."""
        if len(data) > self.max_bytes:
            self.rejections(f'{len(data)} bytes, larger than any valid command '
                            f'({self.max_bytes} bytes at most); not decoded', 'size')
            return
        try:
            sample = self.data_type.deserialize(data)
        except Exception as e:  # a peer with a mismatched type: never fatal
            self.rejections(f'undecodable sample ({type(e).__name__})', 'decode')
            return
        try:
            self.apply(sample)
        except CommandRejected as e:
            self.rejections(str(e), e.kind)
