# SPDX-License-Identifier: Apache-2.0
"""
Subscriptions taken in batches: one wake-up takes everything waiting on every topic.

rclpy's executors wake once per message (issue 40: about 216 us of CPU a message with the
EventsExecutor against about 72 us in C on rcl). A process that subscribes to many busy
topics (a recorder, a live viewer's server) pays that for every sample. A ``BatchReader``
holds polled subscriptions (node_runtime.polled: ordinary subscriptions of their node, listed
by ``ros2 node info``, that no executor serves) and waits on all of them at once in one rcl
wait set. On a wake-up it takes every waiting sample of every ready subscription (at most
``limit`` a subscription, oldest first) and hands each subscription's samples to its handler
in one call. ``min_interval`` spaces the wake-ups: samples arriving meanwhile wait in their
reader's history (its QoS depth) and are taken by the next wake-up, so the depth must hold
what arrives in one interval (``max_rate``: the rate a depth holds).

Two ways to run it:

- ``start()``: a thread of its own waits and delivers until ``stop()``/``close()``; the
  process's executor keeps serving parameters, services, timers and the other subscriptions
  in its thread. A handler's exception stops the reader and is kept in ``error`` (the owner
  raises it, e.g. from its tick; ``check()``), never printed from the thread.
- ``spin_once(timeout_sec)`` in a loop of the owner's (e.g. between its executor's spins);
  a handler's exception propagates from it.

Subscriptions are added and removed at any time from any thread (``add``/``remove``); the
reader's guard condition wakes its wait so that a new one is waited on at once. A removed
subscription's handler is not called again once ``remove()`` returns (a call in progress in
the reader's thread finishes); the subscription itself is destroyed by the thread that
waits, between two waits, or by ``close()``.
"""

import threading
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .polled import DEFAULT_TAKE_LIMIT, PolledSubscription

# A sample as rclpy's take_message returns it: (message or CDR bytes, message info dict
# with 'source_timestamp' and 'received_timestamp' in ns since the epoch, among others).
Taken = Tuple[Any, Dict[str, Any]]
Handler = Callable[[List[Any]], None]


def max_rate(depth: int, interval_s: float) -> float:
    """Return the highest rate (Hz) at which a history of `depth` loses nothing between wakes."""
    return depth / interval_s if interval_s > 0 else float('inf')


class Batched:
    """One subscription of a BatchReader: its polled subscription, handler and counts."""

    def __init__(self, polled: 'PolledSubscription[Any]', handler: Handler,
                 with_info: bool) -> None:
        """Wrap `polled`; `handler` gets lists of messages, or of (message, info)."""
        self.polled = polled
        self.handler = handler
        self.with_info = with_info
        self.active = True
        self.taken = 0          # samples taken so far
        self.batches = 0        # handler calls so far
        handle = polled.subscription.handle
        self.handle = handle
        self.pointer = handle.pointer
        self._take = handle.take_message
        self._msg_type = polled.msg_type
        self._raw = polled.raw

    def destroy(self) -> None:
        """Destroy the subscription."""
        self.polled.destroy()

    @property
    def topic_name(self) -> str:
        """Return the fully qualified topic name."""
        return self.polled.topic_name

    def take(self, limit: int) -> List[Any]:
        """Take the waiting samples, oldest first, at most `limit`."""
        take, msg_type, raw = self._take, self._msg_type, self._raw
        samples: List[Any] = []
        append = samples.append
        while len(samples) < limit:
            taken = take(msg_type, raw)
            if taken is None:
                break
            append(taken)
        self.taken += len(samples)
        if self.with_info:
            return samples
        return [s[0] for s in samples]


class BatchReader:
    """
    Polled subscriptions waited on together; every waiting sample taken on one wake-up.

    context: the rclpy Context of the nodes (default rclpy's own). limit: samples taken per
    subscription and wake-up at most (the rest on the next one, so no topic starves the
    others). min_interval: seconds between two wake-ups at least (0: wake as soon as a
    sample waits); check each reader's depth against it with ``max_rate``.
    """

    def __init__(self, context: Any = None, *, limit: int = DEFAULT_TAKE_LIMIT,
                 min_interval: float = 0.0, name: str = 'batch_reader') -> None:
        """Create the reader's guard condition; no subscription yet."""
        from rclpy.guard_condition import GuardCondition
        from rclpy.utilities import get_default_context
        if limit < 1:
            raise ValueError('limit must be at least 1')
        if min_interval < 0:
            raise ValueError('min_interval must be >= 0')
        self.context = context if context is not None else get_default_context()
        self.limit = limit
        self.min_interval = min_interval
        self.name = name
        self.error: Optional[BaseException] = None
        self.wakeups = 0        # wake-ups that delivered at least one sample
        self._guard = GuardCondition(None, None, context=self.context)
        self._lock = threading.Lock()
        self._entries: List[Batched] = []           # the waiting thread's own list
        self._pending: List[Tuple[str, Batched]] = []   # adds and removes not yet applied
        self._wait_set: Any = None
        self._stop = threading.Event()
        self._woken = threading.Event()     # set by add, remove and stop
        self._thread: Optional[threading.Thread] = None
        self._spinning = threading.Lock()   # held by the thread inside spin_once
        self._next_wake = 0.0
        self._closed = False

    # --- subscriptions (any thread)

    def add(self, node: Any, msg_type: Any, topic: str, qos_profile: Any, handler: Handler,
            *, raw: bool = False, with_info: bool = False) -> Batched:
        """
        Subscribe `node` to `topic`; `handler(samples)` gets each batch, oldest first.

        samples: messages (CDR bytes with raw=True), or (message, info) tuples with
        with_info=True. The subscription is the node's (``ros2 node info`` lists it).
        """
        if self._closed:
            raise RuntimeError('the BatchReader is closed')
        polled: PolledSubscription[Any] = PolledSubscription(
            node, msg_type, topic, qos_profile, raw=raw)
        entry = Batched(polled, handler, with_info)
        with self._lock:
            self._pending.append(('add', entry))
        self._wake()
        return entry

    def remove(self, entry: Batched) -> None:
        """Stop delivering `entry`'s samples now; its subscription is destroyed soon after."""
        entry.active = False
        with self._lock:
            self._pending.append(('remove', entry))
        self._wake()
        # Nobody waits: apply it here (the waiting thread would do it between two waits).
        if self._spinning.acquire(blocking=False):
            try:
                self._apply_pending()
            finally:
                self._spinning.release()

    @property
    def subscriptions(self) -> List[Batched]:
        """Return the subscriptions added and not removed (a copy)."""
        with self._lock:
            entries = list(self._entries)
            for op, entry in self._pending:
                if op == 'add':
                    entries.append(entry)
                elif entry in entries:
                    entries.remove(entry)
        return [e for e in entries if e.active]

    # --- waiting and taking

    def spin_once(self, timeout_sec: Optional[float] = None) -> int:
        """
        Wait up to `timeout_sec` (None: until a sample or a wake) and deliver what waits.

        Returns the number of samples delivered. A handler's exception propagates.
        Call from one thread at a time.
        """
        with self._spinning:
            return self._spin_once(timeout_sec)

    def _spin_once(self, timeout_sec: Optional[float]) -> int:
        end = None if timeout_sec is None else time.monotonic() + max(0.0, timeout_sec)
        self._woken.clear()     # before the pending changes: a later add() sets it again
        self._apply_pending()
        if self.min_interval > 0:
            # Space the wake-ups: what arrives meanwhile waits in the readers' histories.
            now = time.monotonic()
            pause = self._next_wake - now
            if end is not None:
                pause = min(pause, end - now)
            if pause > 0:
                self._woken.wait(pause)     # an add, a remove or the stop ends it early
                self._apply_pending()
        wait_set = self._wait_set
        entries = self._entries
        if wait_set is None:
            # Nothing to wait on: until the timeout, an add or the stop.
            self._woken.wait(None if end is None else max(0.0, end - time.monotonic()))
            return 0
        wait_set.clear_entities()
        for entry in entries:
            wait_set.add_subscription(entry.handle)
        wait_set.add_guard_condition(self._guard.handle)
        if end is None:
            timeout_ns = -1
        else:
            timeout_ns = max(0, int((end - time.monotonic()) * 1e9))
        wait_set.wait(timeout_ns)
        ready = wait_set.get_ready_entities('subscription')
        if not ready:
            return 0
        self._next_wake = time.monotonic() + self.min_interval
        self.wakeups += 1
        ready_set = set(ready)
        delivered = 0
        limit = self.limit
        for entry in entries:
            if entry.pointer in ready_set and entry.active:
                samples = entry.take(limit)
                if samples and entry.active:
                    entry.batches += 1
                    delivered += len(samples)
                    entry.handler(samples)
        return delivered

    def _wake(self) -> None:
        self._woken.set()
        try:
            self._guard.trigger()
        except Exception:   # noqa: B902 - destroyed by close(): nothing waits any more
            pass

    def _apply_pending(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, []
        if not pending:
            return
        for op, entry in pending:
            if op == 'add':
                self._entries.append(entry)
            else:
                if entry in self._entries:
                    self._entries.remove(entry)
                entry.destroy()
        self._rebuild()

    def _rebuild(self) -> None:
        from rclpy.impl.implementation_singleton import rclpy_implementation as _rclpy
        if not self._entries:
            self._wait_set = None
            return
        self._wait_set = _rclpy.WaitSet(len(self._entries), 1, 0, 0, 0, 0,
                                        self.context.handle)

    # --- a thread of its own

    def start(self) -> None:
        """Wait and deliver in a thread of the reader's own until stop()."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            while not self._stop.is_set() and self.context.ok():
                self.spin_once(0.5)
        except BaseException as exc:    # noqa: B902 - kept for the owner, never printed here
            if not self._stop.is_set() and self.context.ok():
                self.error = exc

    @property
    def running(self) -> bool:
        """Return True while the reader's own thread runs."""
        return self._thread is not None and self._thread.is_alive()

    def check(self) -> None:
        """Raise the exception that stopped the reader's thread (a handler's), if any."""
        if self.error is not None:
            raise self.error

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the reader's thread (wakes its wait) and join it."""
        self._stop.set()
        self._wake()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def close(self) -> None:
        """Stop, then destroy every subscription and the guard condition (idempotent)."""
        if self._closed:
            return
        self.stop()
        self._closed = True
        with self._spinning:
            self._apply_pending()
            entries, self._entries = self._entries, []
            for entry in entries:
                entry.active = False
                entry.destroy()
            self._wait_set = None
            try:
                self._guard.destroy()
            except Exception:   # noqa: B902 - its context is gone already
                pass

    def __enter__(self) -> 'BatchReader':
        """Use as a context manager: closed on leaving."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close the reader."""
        self.close()


def total_taken(entries: Sequence[Batched]) -> int:
    """Return the samples taken by `entries` so far."""
    return sum(e.taken for e in entries)
