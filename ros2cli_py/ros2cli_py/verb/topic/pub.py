# SPDX-License-Identifier: Apache-2.0
"""ros2 topic pub."""

import argparse
import time
from typing import Any, Optional

from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.common import add_sim_time_argument
from ros2cli_py.api.common import parse_yaml_mapping
from ros2cli_py.argtypes import positive_float
from ros2cli_py.argtypes import unsigned_int
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import CliNode
from ros2cli_py.graph import expand_topic
from ros2cli_py.qos import add_qos_arguments
from ros2cli_py.qos import profile_from_args
from ros2cli_py.typeclass import get_type_class

HELP = 'Publish a message to a topic'

#: pub --once / --times: the longest wait for reliable subscriptions to acknowledge.
ACK_WAIT_S = 1.0
#: After the publisher has matched the subscriptions it waits for, how long the subscriptions'
#: side gets to match it back: a volatile reader drops samples sent before it has (Fast DDS),
#: so without this the first of ``--times`` messages can miss an echo that is already running.
MATCH_SETTLE_S = 0.3


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    parser.add_argument('topic_name',
                        help="Name of the ROS topic to publish to (e.g. '/chatter')")
    parser.add_argument('message_type',
                        help="Type of the ROS message (e.g. 'std_msgs/msg/String')")
    parser.add_argument('values', nargs='?', default='{}',
                        help='Values to fill the message with in YAML format (e.g. "data: '
                             'Hello World"), otherwise the message will be published with '
                             'default values')
    parser.add_argument('-r', '--rate', metavar='N', type=positive_float, default=1.0,
                        help='Publishing rate in Hz (default: 1)')
    parser.add_argument('-p', '--print', metavar='N', type=unsigned_int, default=1,
                        help='Only print every N-th published message (default: 1, 0 '
                             'disables)')
    parser.add_argument('-1', '--once', action='store_true',
                        help='Publish one message and exit')
    parser.add_argument('-t', '--times', type=unsigned_int, default=0,
                        help='Publish this number of times and then exit')
    parser.add_argument('-w', '--wait-matching-subscriptions', type=unsigned_int, default=None,
                        help='Wait until finding the specified number of matching '
                             'subscriptions. Defaults to 1 when using "-1"/"--once"/"--times", '
                             'otherwise 0.')
    parser.add_argument('--keep-alive', metavar='N', type=float, default=0.1,
                        help='Keep publishing node alive for N seconds after the last msg '
                             '(default: 0.1)')
    parser.add_argument('--max-wait-time-secs', type=positive_float, default=None,
                        help='Maximum time to wait for the matching subscriptions (default: '
                             'forever)')
    parser.add_argument('-n', '--node-name', help='Name of the created publishing node')
    add_sim_time_argument(parser)
    add_qos_arguments(parser, 'publish', 'default')


def _wait_subscriptions(cli: CliNode, pub: Any, wanted: int,
                        max_wait: Optional[float]) -> None:
    """ros2cli's wait: a line each second, checks every 0.1 s, its timeout message."""
    started = time.monotonic()
    checks = 0
    while pub.get_subscription_count() < wanted:
        if checks % 10 == 0:
            print(f'Waiting for at least {wanted} matching subscription(s)...', flush=True)
        if max_wait is not None and time.monotonic() - started >= max_wait:
            raise CommandError(
                f'Timed out waiting for subscribers: Expected {wanted} subcribers but only '
                f'got {pub.get_subscription_count()} subscribers')
        checks += 1
        cli.spin_for(0.1)
    if wanted:
        cli.spin_for(MATCH_SETTLE_S)


def _wait_acked(pub: Any) -> None:
    """
    Wait until every matched subscription acknowledged what ``pub`` sent (reliable only).

    A subscription that has matched the publisher acknowledges what it got; the publisher must
    live until then (at most ACK_WAIT_S) or the last sample may still be in flight.
    """
    from rclpy.duration import Duration
    try:
        pub.wait_for_all_acked(Duration(seconds=ACK_WAIT_S))
    except Exception:       # noqa: B902 - an rmw without the call: the keep-alive alone
        pass


def main(args: argparse.Namespace) -> int:
    """Publish a message built from YAML at --rate, --once or --times."""
    from ros2cli_py import convert
    topic = expand_topic(args.topic_name)
    msg_class = get_type_class(args.message_type, 'msg')
    values = parse_yaml_mapping(args.values)
    stamper = convert.Stamper()
    msg = convert.new_message(msg_class)
    try:
        convert.set_message_fields(msg, values, stamper)
    except convert.FieldError as e:
        raise CommandError(f'Failed to populate field: {e}') from None
    qos = profile_from_args(args)
    times = 1 if args.once else args.times
    wait = args.wait_matching_subscriptions
    if wait is None:
        wait = 1 if times else 0
    if wait == 0 and args.max_wait_time_secs is not None:
        raise CommandError('--max-wait-time-secs option is only effective with '
                           '--wait-matching-subscriptions, --once or --times')
    pkg, _, name = args.message_type.partition('/')
    node_name = args.node_name or f'_ros2cli_py_pub_{pkg}_{name.split("/")[-1]}'.lower()
    with CliNode(node_name, spin_time=args.spin_time, use_sim_time=args.use_sim_time) as cli:
        pub = cli.node.create_publisher(msg_class, topic, qos)
        _wait_subscriptions(cli, pub, wait, args.max_wait_time_secs)
        print('publisher: beginning loop')
        period = 1.0 / args.rate
        count = 0
        next_time = time.monotonic()
        while True:
            stamper()
            pub.publish(msg)
            count += 1
            if args.print and count % args.print == 0:
                print('publishing #%d: %r\n' % (count, msg))
            if times and count >= times:
                cli.spin_for(max(0.0, args.keep_alive))
                _wait_acked(pub)
                return 0
            next_time += period
            cli.spin_for(max(0.0, next_time - time.monotonic()))
