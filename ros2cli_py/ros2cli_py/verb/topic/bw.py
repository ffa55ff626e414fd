# SPDX-License-Identifier: Apache-2.0
"""ros2 topic bw."""

import argparse
import threading
import time
from typing import List

from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.common import add_sim_time_argument
from ros2cli_py.api.topic import resolve_type
from ros2cli_py.argtypes import positive_int
from ros2cli_py.graph import CliNode
from ros2cli_py.graph import expand_topic

HELP = 'Display bandwidth used by topic'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    parser.add_argument('topic_name', help='Topic name to monitor for bandwidth utilization')
    parser.add_argument('--window', '-w', type=positive_int, default=100, metavar='WINDOW',
                        help='maximum window size, in # of messages, for calculating rate '
                             '(default: 100)')
    add_sim_time_argument(parser)


def _bw_text(value: float, unit_of: float) -> str:
    """ros2cli's sizes: whole bytes below 1000 B(/s), else KB or MB with two decimals."""
    if unit_of < 1000:
        return '%.0f B' % value
    if unit_of < 1000000:
        return '%.2f KB' % (value / 1000.0)
    return '%.2f MB' % (value / 1000000.0)


def main(args: argparse.Namespace) -> int:
    """Print the received bandwidth every second (raw messages)."""
    from rclpy.qos import qos_profile_sensor_data
    topic = expand_topic(args.topic_name)
    with CliNode(spin_time=args.spin_time, executor='events',
                 use_sim_time=args.use_sim_time) as cli:
        msg_class = resolve_type(cli, topic, blocking=True)
        times: List[float] = []
        sizes: List[int] = []
        lock = threading.Lock()

        def on_message(data: bytes) -> None:
            with lock:
                times.append(time.monotonic())
                sizes.append(len(data))
                if len(times) > args.window:
                    del times[0]
                    del sizes[0]

        cli.node.create_subscription(msg_class, topic, on_message, qos_profile_sensor_data,
                                     raw=True)
        print(f'Subscribed to [{topic}]')
        next_print = time.monotonic() + 1.0
        while True:
            cli.spin_once(max(0.0, min(0.1, next_print - time.monotonic())))
            if time.monotonic() < next_print:
                continue
            next_print += 1.0
            with lock:
                if len(times) < 2:
                    continue
                n = len(times)
                total = sum(sizes)
                per_s = total / (time.monotonic() - times[0])
                mean, lo, hi = total / n, min(sizes), max(sizes)
            print(f'{_bw_text(per_s, per_s)}/s from {n} messages\n'
                  f'\tMessage size mean: {_bw_text(mean, per_s)} min: {_bw_text(lo, per_s)} '
                  f'max: {_bw_text(hi, per_s)}')
