# SPDX-License-Identifier: Apache-2.0
"""heartbeat_monitor: STALE on status when a node's heartbeat stops, OK when it returns."""

import time
from typing import Any, Dict, List, Optional

from hb50_commons.msg import Status
from rclpy.node import Node

from . import params, qos, topics
from .heartbeat import HeartbeatTracker
from .runtime import run, StatusReporter, steady_timer


class HeartbeatMonitor(Node):  # type: ignore[misc,unused-ignore]  # rclpy is Any to mypy here

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault('namespace', topics.DEFAULT_NAMESPACE)
        super().__init__('heartbeat_monitor', **kwargs)
        cfg = params.declare_monitor(self)
        self.cfg = cfg
        self.tracker = HeartbeatTracker(cfg.stale_timeout, cfg.expected_nodes, time.monotonic())
        self.reporter = StatusReporter(self, cfg.heartbeat_rate)
        self.create_subscription(Status, topics.HEARTBEAT, self.on_heartbeat,
                                 qos.RELIABLE)
        steady_timer(self, 1.0 / cfg.check_rate, self.check)
        # stale_timeout can change at run time (`ros2 param set`); the others are read-only.
        params.on_change(self, params.MONITOR, self.apply_parameters)

    def apply_parameters(self, changes: Dict[str, Any]) -> None:
        """Take run-time parameters just set (already checked)."""
        self.cfg = params.build(params.MonitorConfig, changes, self.cfg)
        self.tracker.timeout = self.cfg.stale_timeout

    def on_heartbeat(self, msg: Any) -> None:
        if msg.reporting_node == self.get_name():
            return
        for level, node, text in self.tracker.beat(msg.reporting_node, time.monotonic()):
            self.reporter.report(level, f'{node}: {text}', reporting_node=node)

    def check(self) -> None:
        for level, node, text in self.tracker.check(time.monotonic()):
            self.reporter.report(level, f'{node}: {text}', reporting_node=node)


def main(args: Optional[List[str]] = None) -> int:
    """Run heartbeat_monitor until SIGINT/SIGTERM."""
    return run([HeartbeatMonitor], args)


if __name__ == '__main__':
    main()
