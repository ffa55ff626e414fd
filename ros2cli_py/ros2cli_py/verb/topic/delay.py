# SPDX-License-Identifier: Apache-2.0
"""ros2 topic delay."""

import argparse
import threading
from typing import Any, List, Optional

from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.topic import add_window_argument
from ros2cli_py.api.topic import resolve_type
from ros2cli_py.api.topic_rate import RateWindow
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import CliNode
from ros2cli_py.graph import expand_topic

HELP = 'Display delay of topic from timestamp in header'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    parser.add_argument('topic_name',
                        help="Name of the ROS topic to listen to (e.g. '/chatter')")
    add_window_argument(parser)


def main(args: argparse.Namespace) -> int:
    """Print the delay between header.stamp and receipt every second."""
    from rclpy.qos import qos_profile_sensor_data
    topic = expand_topic(args.topic_name)
    with CliNode(spin_time=args.spin_time) as cli:
        msg_class = resolve_type(cli, topic, blocking=True)
        if 'header' not in msg_class.get_fields_and_field_types():
            raise CommandError('msg does not have header')
        clock = cli.node.get_clock()
        window = RateWindow(args.window_size)
        last: List[Optional[int]] = [None]
        lock = threading.Lock()

        def on_message(msg: Any) -> None:
            now: int = clock.now().nanoseconds
            stamp = msg.header.stamp.sec * 1000000000 + msg.header.stamp.nanosec
            with lock:
                window.add((now - stamp) * 1e-9)
                last[0] = now

        cli.node.create_subscription(msg_class, topic, on_message, qos_profile_sensor_data)
        while True:
            cli.spin_once(0.1)
            with lock:
                if not window.report_due(last[0]):
                    continue
                mean, lo, hi, std, n = window.stats()
            print('average delay: %.3f\n\tmin: %.3fs max: %.3fs std dev: %.5fs window: %s'
                  % (mean, lo, hi, std, n))
