"""Base class of the two 500 Hz nodes: runs `tick(now)` from a deadline thread or a timer."""

import threading
import time

from rclpy.node import Node

from .rt_loop import PeriodicThread


class LoopNode(Node):

    def __init__(self, name, **kwargs):
        super().__init__(name, **kwargs)
        self.lock = threading.Lock()    # guards the core between loop and callbacks
        self._thread = None
        self._timer = None
        self.loop_cfg = None
        self.period = None

    def setup_loop(self, loop_cfg):
        """Called by the subclass once its parameters are declared."""
        self.loop_cfg = loop_cfg
        self.period = 1.0 / loop_cfg.rate
        if loop_cfg.loop_mode not in ('thread', 'timer'):
            raise ValueError(f"loop_mode must be 'thread' or 'timer', not {loop_cfg.loop_mode!r}")

    def start(self):
        if self.loop_cfg.loop_mode == 'thread':
            self._thread = PeriodicThread(self.period, self.tick, self.loop_cfg.busy_wait,
                                          name=self.get_name(), alive=self.context.ok)
            self._thread.start()
        else:
            self._timer = self.create_timer(self.period, lambda: self.tick(time.monotonic()))

    def stop(self):
        if self._thread is not None:
            self._thread.stop()
        if self._timer is not None:
            self._timer.cancel()

    def tick(self, now):
        raise NotImplementedError
