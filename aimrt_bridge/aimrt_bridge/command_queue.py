# SPDX-License-Identifier: Apache-2.0
"""
Commands to AimRT subscribers: a bounded queue and a worker thread per target.

The ROS 2 executor only enqueues (never waits on the network). Each target's worker
POSTs what is queued, pipelined on its kept-alive connection once the target has kept
one alive (up to PIPELINE_DEPTH commands in flight; ChannelPublisher.post_many), one at a
time before that; when a target is slow, dead or hanging its queue fills and the
oldest commands are dropped (the newest command is the one that matters), counted in
``dropped``; failed POSTs are counted in ``failed``, non-200 answers in ``refused``,
commands still queued when the target is stopped in ``unsent``.
Other targets, and every other data path of the bridge, are not affected.
"""

import collections
import threading
import time
from typing import Callable, Deque, Iterable, Optional, Tuple, TypedDict, Union

from aimrt_protocols_py.http_client import ChannelPublisher
from node_runtime.bounded_text import bounded


#: Commands in flight at most on one target's connection.
PIPELINE_DEPTH = 64

#: One POST: (topic, msg_type, body, content_type), as ChannelPublisher.post_many takes it.
Post = Tuple[str, str, bytes, str]


class TargetStatus(TypedDict):
    """Counters of one target (CommandTarget.status)."""

    address: str
    sent: int
    failed: int
    refused: int
    dropped: int
    unsent: int
    queued: int
    busy: int
    last_error: str
    last_sent_at: Optional[float]     # wall-clock time (s) of the last POST answered 200
    last_outcome: str                 # 'sent', 'failed' or 'refused'; '' before the first


class CommandTarget:
    """
    One AimRT http-channel subscriber (a ChannelPublisher) fed through a bounded queue.

    ``on_event(target, reason, text)`` is called from the worker thread for each failed
    or refused POST and from ``submit`` for each drop; reasons: 'failed', 'refused',
    'dropped'. The caller rate-limits what it logs.
    """

    def __init__(self, publisher: ChannelPublisher, depth: int = 8,
                 on_event: Optional[Callable[['CommandTarget', str, str], object]] = None
                 ) -> None:
        if depth < 1:
            raise ValueError('command queue depth must be >= 1, got %d' % depth)
        self.publisher = publisher
        self.address = publisher.address
        self._queue: Deque[Post] = collections.deque()
        self._depth = depth
        self._cond = threading.Condition()
        self._stopped = False
        self._busy = 0         # commands in flight
        self._on_event = on_event or (lambda target, reason, text: None)
        self.sent = 0
        self.failed = 0
        self.refused = 0
        self.dropped = 0
        self.unsent = 0     # still queued when the target was stopped
        self.last_error = ''
        self.last_sent_at: Optional[float] = None    # wall clock (s) of the last 200 answer
        self.last_outcome = ''      # 'sent', 'failed' or 'refused'; '' before the first
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name='aimrt_cmd_%s' % self.address)
        self._thread.start()

    def submit(self, topic: str, msg_type: str, body: bytes, content_type: str) -> bool:
        """Queue one POST; never blocks. Returns False when an older command was dropped."""
        return self._enqueue([(topic, msg_type, body, content_type)]) == 0

    def submit_many(self, items: Iterable[Post]) -> int:
        """
        Queue (topic, msg_type, body, content_type) POSTs in order; never blocks.

        One lock and one wake-up of the worker for the lot. Returns how many older
        commands were dropped to make room (the newest `depth` are kept); 0 once stopped
        (nothing is queued then).
        """
        return self._enqueue(items) or 0

    def _enqueue(self, items: Iterable[Post]) -> Optional[int]:
        """Queue items; the number of commands dropped, None when stopped."""
        with self._cond:
            if self._stopped:
                return None
            queue = self._queue
            queue.extend(items)
            dropped = len(queue) - self._depth
            if dropped > 0:
                for _ in range(dropped):
                    queue.popleft()
                self.dropped += dropped
            self._cond.notify()
        if dropped > 0:
            self._on_event(self, 'dropped', 'queue of %d full, %d oldest command%s dropped'
                           % (self._depth, dropped, '' if dropped == 1 else 's'))
            return dropped
        return 0

    def status(self) -> TargetStatus:
        """Counters of this target (a snapshot)."""
        with self._cond:
            return {'address': self.address, 'sent': self.sent, 'failed': self.failed,
                    'refused': self.refused, 'dropped': self.dropped,
                    'unsent': self.unsent, 'queued': len(self._queue), 'busy': self._busy,
                    'last_error': self.last_error, 'last_sent_at': self.last_sent_at,
                    'last_outcome': self.last_outcome}

    def wait_idle(self, timeout: Optional[float]) -> bool:
        """Wait until the queue is empty and no POST is in flight (tests, shutdown)."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and not self._busy, timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._queue or self._stopped)
                if self._stopped:
                    return
                take = PIPELINE_DEPTH if self.publisher.pipelining else 1
                items = [self._queue.popleft() for _ in range(min(take, len(self._queue)))]
                self._busy = len(items)
            outcomes = [self._outcome(r) for r in self.publisher.post_many(items)]
            answered = time.time()
            with self._cond:
                self._busy = 0
                for reason, text in outcomes:
                    self.last_outcome = reason
                    if reason == 'sent':
                        self.sent += 1
                        self.last_sent_at = answered
                    elif reason == 'failed':
                        self.failed += 1
                        self.last_error = text
                    else:
                        self.refused += 1
                        self.last_error = text
                self._cond.notify_all()
            for reason, text in outcomes:
                if reason != 'sent':
                    self._on_event(self, reason, text)

    @staticmethod
    def _outcome(result: Union[int, Exception]) -> Tuple[str, str]:
        if isinstance(result, Exception):
            return 'failed', bounded('%s: %s' % (type(result).__name__, result))
        if result != 200:
            return 'refused', 'answered HTTP %d' % result
        return 'sent', ''

    def stop(self, timeout: Optional[float] = 1.0) -> None:
        """Stop the worker; a POST in flight is abandoned (its thread is a daemon)."""
        with self._cond:
            self._stopped = True
            self.unsent += len(self._queue)
            self._queue.clear()
            self._cond.notify_all()
        self._thread.join(timeout)
        if not self._thread.is_alive():
            self.publisher.close()
