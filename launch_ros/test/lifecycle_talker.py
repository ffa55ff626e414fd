# SPDX-License-Identifier: Apache-2.0
"""
A small rclpy lifecycle node for the LifecycleNode tests: logs each transition callback.

``--fail-configure``: on_configure returns FAILURE (the node stays unconfigured).
Exits 0 on SIGINT.
"""

import sys

import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.lifecycle import LifecycleNode
from rclpy.lifecycle import LifecycleState
from rclpy.lifecycle import TransitionCallbackReturn


class LifecycleTalker(LifecycleNode):
    """Logs 'on_<transition>() called' for each transition it takes."""

    def __init__(self, fail_configure: bool) -> None:
        super().__init__('lifecycle_talker')
        self.fail_configure = fail_configure

    def on_configure(self, state: LifecycleState) -> TransitionCallbackReturn:
        self.get_logger().info('on_configure() called')
        if self.fail_configure:
            return TransitionCallbackReturn.FAILURE
        return TransitionCallbackReturn.SUCCESS

    def on_activate(self, state: LifecycleState) -> TransitionCallbackReturn:
        self.get_logger().info('on_activate() called')
        return super().on_activate(state)

    def on_deactivate(self, state: LifecycleState) -> TransitionCallbackReturn:
        self.get_logger().info('on_deactivate() called')
        return super().on_deactivate(state)

    def on_cleanup(self, state: LifecycleState) -> TransitionCallbackReturn:
        self.get_logger().info('on_cleanup() called')
        return TransitionCallbackReturn.SUCCESS

    def on_shutdown(self, state: LifecycleState) -> TransitionCallbackReturn:
        self.get_logger().info('on_shutdown() called')
        return TransitionCallbackReturn.SUCCESS


def main() -> int:
    args = rclpy.utilities.remove_ros_args(sys.argv)
    rclpy.init(args=sys.argv)
    node = LifecycleTalker(fail_configure='--fail-configure' in args)
    try:
        rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    return 0


if __name__ == '__main__':
    sys.exit(main())
