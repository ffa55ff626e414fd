# SPDX-License-Identifier: Apache-2.0
"""
Base class of the two 500 Hz nodes: `tick(now)` at a fixed rate.

loop_mode loop (default): spin_nodes' DeadlineLoop (node_runtime.loop) ticks the node in the
main thread and serves the executor between deadlines. thread: a deadline thread of its own
(the previous design); timer: an executor timer.
"""

import math
import threading
import time
from typing import Any, List, Optional

from node_runtime.polled import PolledSubscription
from rclpy.node import Node

from . import topics
from .params import LoopConfig
from .rt_loop import PeriodicThread
from .runtime import StampClock, steady_timer


class LoopNode(Node):  # type: ignore[misc,unused-ignore]  # rclpy is Any to mypy here

    def __init__(self, name: str, **kwargs: Any) -> None:
        # In /hb50 unless the command line sets a namespace (-r __ns:=/robot2 wins).
        kwargs.setdefault('namespace', topics.DEFAULT_NAMESPACE)
        super().__init__(name, **kwargs)
        self.stamps = StampClock(self)  # wall clock, or the node's clock with use_sim_time
        self.lock = threading.Lock()    # guards the core between loop and callbacks
        self._thread: Optional[PeriodicThread] = None
        self._timer: Any = None
        self.loop_cfg: Optional[LoopConfig] = None
        self.period = 0.0           # s between two ticks (setup_loop)
        self._slow_every = 1
        self._slow_period = 0.0
        self._next_slow: Optional[float] = None     # loop-clock s of the next slow sample
        self._published_ticks = 0
        self._polled: List[PolledSubscription[Any]] = []

    def poll_subscription(self, msg_type: Any, topic: str, qos_profile: Any, *,
                          raw: bool = False) -> PolledSubscription[Any]:
        """
        Subscribe to a high-rate input that the tick takes itself (node_runtime.polled).

        No executor wakes for its messages (a wake-up per message cost 3x the C floor,
        benchmarks/README.md, issue 40); the subscription is still this node's.
        """
        polled: PolledSubscription[Any] = PolledSubscription(
            self, msg_type, topic, qos_profile, raw=raw)
        self._polled.append(polled)
        return polled

    def destroy_node(self) -> None:
        for polled in self._polled:
            polled.destroy()
        super().destroy_node()

    def setup_loop(self, loop_cfg: LoopConfig) -> None:
        """Configure the loop; the subclass calls it once its parameters are declared."""
        self.loop_cfg = loop_cfg
        self.period = 1.0 / loop_cfg.rate
        # The 10 Hz topics repeat the 500 Hz sample due at each slow period: every
        # slow_every-th one while no tick is skipped.
        # rt_priority and loop_mode were checked against their descriptors (params.py).
        self._slow_every = max(1, round(loop_cfg.rate / loop_cfg.slow_rate))
        self._slow_period = self._slow_every * self.period

    @property
    def runs_in_loop(self) -> bool:
        """Tell whether spin_nodes' single-thread loop ticks this node (loop_mode loop)."""
        return self.loop_cfg is not None and self.loop_cfg.loop_mode == 'loop'

    def start(self) -> None:
        if self.runs_in_loop:
            return      # spin_nodes' DeadlineLoop ticks it
        cfg = self.loop_cfg
        if cfg is None:
            raise RuntimeError(f'{self.get_name()}: start() before setup_loop()')
        if cfg.loop_mode == 'thread':
            self._thread = PeriodicThread(self.period, self.tick, cfg.busy_wait,
                                          name=self.get_name(), alive=self.context.ok,
                                          rt_priority=cfg.rt_priority)
            self._thread.start()
            if self._thread.rt_error is not None:
                self.get_logger().warning(
                    f'rt_priority {cfg.rt_priority}: SCHED_FIFO not available '
                    f'({self._thread.rt_error}); the loop runs at normal priority')
        else:
            self.start_timer()

    def start_timer(self) -> None:
        """Tick from an executor timer (loop_mode timer, or a rate the shared loop lacks)."""
        if self._timer is None:
            self._timer = steady_timer(self, self.period, lambda: self.tick(time.monotonic()))

    def stop(self) -> None:
        if self._thread is not None:
            self._thread.stop()
            t = self._thread
            if t.missed_slots:
                # Once, at exit: a stall leaves periods without a tick (no sample exists for
                # them), which a subscriber sees as stamp gaps; this tells them apart from
                # messages lost on the way.
                self.get_logger().warning(
                    f'500 Hz loop: {t.missed_slots} ticks skipped ({t.stalls} stalls of more '
                    f'than a period, longest {t.max_late * 1e3:.1f} ms behind)')
        if self._timer is not None:
            self._timer.cancel()

    def slow_sample_due(self, now: float) -> bool:
        """
        Count one published fast sample; true when it is also due on the slow topic.

        `now` is the tick's time on the loop's clock (its deadline). The slow sample is the
        first fast one at or after each slow period, so the 10 Hz topics keep their rate
        when a stalled loop skips ticks (counting samples would lose one slow sample per
        slow_every skipped ticks); while none is skipped it is every slow_every-th sample.
        """
        self._published_ticks += 1
        half = 0.5 * self.period    # deadlines are whole periods apart: no rounding flips
        if self._next_slow is None:
            self._next_slow = now + self._slow_period - self.period
        if now < self._next_slow - half:
            return False
        self._next_slow += self._slow_period
        if self._next_slow < now + half:
            # A stall longer than a slow period: keep the phase, next due in the next slot.
            behind = math.floor((now + half - self._next_slow) / self._slow_period) + 1
            self._next_slow += behind * self._slow_period
        # Debug (e.g. --log-level hb50.bridge_node:=debug): every sample stamped before t_ns is
        # among the first n published, so a recorder's loss in a window can be counted.
        self.get_logger().debug(
            f'published n={self._published_ticks} t_ns={self.stamps.now_ns()}')
        return True

    def tick(self, now: float) -> None:
        raise NotImplementedError
