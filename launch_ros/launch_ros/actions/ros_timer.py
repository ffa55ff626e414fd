# SPDX-License-Identifier: Apache-2.0
"""ROSTimer (RosTimer): a TimerAction counting its period on the ROS clock."""

import asyncio
import itertools
import threading
from typing import Any, Callable, Optional

from launch.actions import TimerAction
from launch.frontend import expose_action

_COUNT = itertools.count(1)
_TRUE = ('true', '1', 'yes', 'on')


def _uses_sim_time(context: Any) -> bool:
    """Whether the last global ``use_sim_time`` (SetUseSimTime, SetParameter) is true."""
    value: Any = None
    for item in context.launch_configurations.get('global_params', []):
        if isinstance(item, tuple) and item[0] == 'use_sim_time':
            value = item[1]
    return str(value).strip().lower() in _TRUE if value is not None else False


class _SimTimeTimer:
    """A one-shot timer on the ROS clock of a node of its own (``/clock``), in a thread."""

    def __init__(self, period: float, on_elapsed: Callable[[], None]) -> None:
        import rclpy
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.node import Node
        from rclpy.parameter import Parameter
        from rclpy.signals import SignalHandlerOptions
        self._context = rclpy.Context()
        rclpy.init(args=[], context=self._context,
                   signal_handler_options=SignalHandlerOptions.NO)
        self._node = Node(f'launch_ros_timer_{next(_COUNT)}', context=self._context,
                          parameter_overrides=[Parameter('use_sim_time', value=True)],
                          start_parameter_services=False)
        self._on_elapsed = on_elapsed
        self._timer = self._node.create_timer(period, self._fire)
        self._executor = SingleThreadedExecutor(context=self._context)
        self._executor.add_node(self._node)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._spin, name='ros_timer', daemon=True)
        self._thread.start()

    def _fire(self) -> None:
        self._timer.cancel()
        if not self._stop.is_set():
            self._on_elapsed()

    def _spin(self) -> None:
        try:
            while not self._stop.is_set() and self._context.ok():
                self._executor.spin_once(timeout_sec=0.05)
        finally:
            self._executor.shutdown()
            self._node.destroy_node()
            self._context.try_shutdown()

    def close(self) -> None:
        """Stop the timer and its node (the thread ends within 0.05 s)."""
        self._stop.set()


@expose_action('ros_timer')
class ROSTimer(TimerAction):
    """
    Runs ``actions`` once ``period`` seconds of ROS time have passed (launch_ros' ROSTimer).

    ROS time is the system time, unless the global parameter ``use_sim_time``
    (``SetUseSimTime(True)``, anywhere before the timer starts waiting) is true: then the
    period is counted on ``/clock``, by a node of the timer's own. ``period``, ``actions``,
    ``cancel_on_shutdown`` and the frontend tag (``<ros_timer period="...">``) as TimerAction.
    """

    def _period_elapsed(self, context: Any, period: float) -> Optional['asyncio.Future[Any]']:
        if not _uses_sim_time(context):
            return None
        loop = context.asyncio_loop
        elapsed: 'asyncio.Future[None]' = loop.create_future()

        def done() -> None:
            if not elapsed.done():
                elapsed.set_result(None)

        timer = _SimTimeTimer(period, lambda: loop.call_soon_threadsafe(done))
        elapsed.add_done_callback(lambda _: timer.close())
        return elapsed

    def describe(self) -> str:
        """Return a description of the timer."""
        return f'ROSTimer(period={self.period}, actions=<{len(self.actions)} actions>)'


RosTimer = ROSTimer
