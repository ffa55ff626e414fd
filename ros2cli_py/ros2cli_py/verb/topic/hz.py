# SPDX-License-Identifier: Apache-2.0
"""ros2 topic hz."""

import argparse
import threading
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.common import add_sim_time_argument
from ros2cli_py.api.topic import add_window_argument
from ros2cli_py.api.topic import make_filter
from ros2cli_py.api.topic import resolve_type
from ros2cli_py.api.topic_rate import RateWindow
from ros2cli_py.api.topic_rate import Stats
from ros2cli_py.graph import CliNode
from ros2cli_py.graph import expand_topic

HELP = 'Print the average receiving rate to screen'

#: Receive queue of `topic hz`: 0.2 s of a 500 Hz topic.
HZ_QUEUE_DEPTH = 100

#: Several topics: the first table waits this long for every topic to have a rate.
HZ_TABLE_GRACE_S = 3.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    parser.add_argument('topic_list', nargs='+', metavar='topic_name',
                        help="Names of the ROS topics to listen to (e.g. '/chatter')")
    add_window_argument(parser)
    parser.add_argument('--filter', dest='filter_expr', default=None, metavar='EXPR',
                        help='only measure messages matching the specified Python expression')
    parser.add_argument('--wall-time', dest='use_wtime', action='store_true',
                        help='calculates rate using wall time which can be helpful when clock '
                             'is not published during simulation')
    add_sim_time_argument(parser)


def _report(stats: Stats) -> str:
    mean, lo, hi, std, n = stats
    rate = 1e9 / mean if mean > 0 else 0.0
    return ('average rate: %.3f\n\tmin: %.3fs max: %.3fs std dev: %.5fs window: %s'
            % (rate, lo * 1e-9, hi * 1e-9, std * 1e-9, n))


def _table(rows: Sequence[Sequence[str]]) -> str:
    """ros2cli's table for several topics (columns left-aligned, headers centred)."""
    header = ('topic', 'rate', 'min_delta', 'max_delta', 'std_dev', 'window')
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    lines = ['   '.join(h.center(w) for h, w in zip(header, widths)),
             '=' * (sum(widths) + 3 * (len(header) - 1))]
    lines += ['   '.join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    return '\n'.join(lines) + '\n'


def main(args: argparse.Namespace) -> int:
    """Print the receive rate of one or more topics every second."""
    from rclpy.clock import Clock
    from rclpy.clock import ClockType
    from rclpy.qos import qos_profile_sensor_data
    from rclpy.qos import QoSProfile
    topics = [expand_topic(t) for t in args.topic_list]
    accept = make_filter(args.filter_expr)
    with CliNode(spin_time=args.spin_time, executor='events',
                 use_sim_time=args.use_sim_time) as cli:
        clock = Clock(clock_type=ClockType.SYSTEM_TIME) if args.use_wtime \
            else cli.node.get_clock()
        windows = {t: RateWindow(args.window_size) for t in topics}
        last: Dict[str, Optional[int]] = dict.fromkeys(topics)
        lock = threading.Lock()
        # ros2cli's profile (sensor data: best effort, volatile) with a deeper queue: depth 5
        # is 10 ms of a 500 Hz topic, and a Python process stalled longer than that (GC, a
        # loaded host) would lose samples and report a rate below the publisher's.
        qos = QoSProfile(depth=HZ_QUEUE_DEPTH, reliability=qos_profile_sensor_data.reliability,
                         durability=qos_profile_sensor_data.durability,
                         history=qos_profile_sensor_data.history)

        def on_message(topic: str, msg: Any) -> None:
            # raw (bytes, never deserialized) unless a filter needs the message
            if accept is not None and not accept(msg):
                return
            now: int = clock.now().nanoseconds
            with lock:
                window = windows[topic]
                if now == 0:
                    if window.samples:
                        print('time has reset, resetting counters')
                        window.samples.clear()
                    return
                previous = last[topic]
                if previous is None or previous > now:
                    window.samples.clear()
                else:
                    window.add(now - previous)
                last[topic] = now

        for topic in topics:
            msg_class = resolve_type(cli, topic, blocking=True)
            cli.node.create_subscription(
                msg_class, topic, lambda m, t=topic: on_message(t, m), qos,
                raw=accept is None)
            if len(topics) > 1:
                print(f'Subscribed to [{topic}]')
        if len(topics) == 1:
            window = windows[topics[0]]
            while True:
                cli.spin_once(0.1)
                with lock:
                    due = window.report_due(last[topics[0]])
                    stats = window.stats() if due else None
                if stats is not None:
                    print(_report(stats))
        _many(cli, topics, windows, lock)
    return 0


def _many(cli: CliNode, topics: List[str], windows: Dict[str, RateWindow],
          lock: threading.Lock) -> None:
    """
    Print ros2cli's table of several topics once a second (every topic with a rate).

    As ros2cli's print thread, a table a second from the subscriptions on; the first one
    waits until every topic has a rate, at most HZ_TABLE_GRACE_S after the first one has,
    so that it lists them all when they all publish.
    """
    next_print = time.monotonic() + 1.0
    first_rate: Optional[float] = None
    printed = False
    while True:
        cli.spin_once(0.1)
        now = time.monotonic()
        if now < next_print:
            continue
        while next_print <= now:
            next_print += 1.0
        with lock:
            ready = [t for t in topics if windows[t].samples]
            if ready and first_rate is None:
                first_rate = now
            if not ready or (not printed and len(ready) < len(topics)
                             and first_rate is not None
                             and now - first_rate < HZ_TABLE_GRACE_S):
                continue
            rows: List[Tuple[str, Stats]] = [(t, windows[t].stats()) for t in ready]
        printed = True
        print(_table([
            (t, '%.3f' % (1e9 / mean if mean > 0 else 0.0), '%.3f' % (lo * 1e-9),
             '%.3f' % (hi * 1e-9), '%.5f' % (std * 1e-9), str(n))
            for t, (mean, lo, hi, std, n) in rows]))
