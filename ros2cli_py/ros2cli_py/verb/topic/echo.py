# SPDX-License-Identifier: Apache-2.0
"""ros2 topic echo."""

import argparse
import collections
import time
from typing import Any, Deque, List, Optional, Tuple

from ros2cli_py.api.common import add_node_arguments
from ros2cli_py.api.topic import add_csv_argument
from ros2cli_py.api.topic import add_truncation_arguments
from ros2cli_py.api.topic import make_filter
from ros2cli_py.api.topic import print_echo
from ros2cli_py.api.topic import resolve_type
from ros2cli_py.argtypes import positive_float
from ros2cli_py.argtypes import positive_int
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import CliNode
from ros2cli_py.graph import expand_topic
from ros2cli_py.qos import add_qos_arguments
from ros2cli_py.qos import choose_subscription_qos
from ros2cli_py.typeclass import get_type_class

HELP = 'Output messages from a topic'

#: echo with the type given: how long the subscription may still adapt to publishers found.
ADAPT_S = 1.0

#: echo without a type: how long a running daemon is asked again for an unknown topic.
TYPE_GRACE_S = 0.6


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the verb's arguments."""
    add_node_arguments(parser)
    parser.add_argument('topic_name',
                        help="Name of the ROS topic to listen to (e.g. '/chatter')")
    parser.add_argument('message_type', nargs='?',
                        help="Type of the ROS message (e.g. 'std_msgs/msg/String')")
    add_qos_arguments(parser, 'subscribe', 'sensor_data')
    add_csv_argument(parser)
    parser.add_argument('--field', type=str, default=None,
                        help="Echo a selected field of a message. Use '.' to select sub-fields "
                             "(e.g. 'header.stamp')")
    add_truncation_arguments(
        parser, 'Output all elements for arrays, bytes, and string with a length > '
                "'--truncate-length', by default they are truncated after "
                "'--truncate-length' elements with '...'")
    parser.add_argument('--no-lost-messages', action='store_true',
                        help="Don't report when a message is lost")
    parser.add_argument('--raw', action='store_true', help='Echo the raw binary representation')
    parser.add_argument('--filter', dest='filter_expr',
                        help='Python expression to filter messages that are printed. '
                             'Expression can use Python builtins as well as m (the message).')
    parser.add_argument('--once', action='store_true',
                        help='Print the first message received and then exit.')
    parser.add_argument('--times', '-n', type=positive_int, default=None,
                        help='Print this many messages and then exit.')
    parser.add_argument('--timeout', metavar='N', type=positive_float, default=None,
                        help='Set a timeout in seconds for waiting')
    parser.add_argument('--include-message-info', '-i', action='store_true',
                        help='Shows the associated message info.')


class _Done(Exception):
    """The message count of --once / --times is reached."""


def main(args: argparse.Namespace) -> int:
    """Print each message as YAML (or CSV / raw) like ros2cli."""
    topic = expand_topic(args.topic_name)
    field: Optional[List[str]] = None
    if args.field is not None:
        field = [f for f in args.field.split('.') if f]
        if not field:
            raise CommandError(f"Invalid field value '{args.field}'")
    truncate = None if args.full_length else args.truncate_length
    accept = make_filter(args.filter_expr)
    limit = 1 if args.once else args.times
    printed = [0]

    known = _type_from_daemon(topic, args)
    with CliNode(spin_time=args.spin_time) as cli:
        msg_class = (get_type_class(known, 'msg') if known is not None
                     else resolve_type(cli, topic, args.message_type, wait=args.timeout))
        if args.message_type is None:
            # let the publishers' endpoints be discovered before adapting the QoS to them
            cli.wait_until(lambda: cli.node.get_publishers_info_by_topic(topic), 1.0)
        # With the type given, subscribe at once (as ros2cli): a slow start does not miss a
        # 1 Hz publisher. Publishers discovered within ADAPT_S that all offer TRANSIENT_LOCAL
        # get a second, transient-local subscription for their last samples (the first stays:
        # replacing it would lose what arrives meanwhile); a sample both deliver prints once.
        adapt_until = (time.monotonic() + ADAPT_S if args.message_type is not None
                       and not cli.node.get_publishers_info_by_topic(topic) else None)
        qos = choose_subscription_qos(cli.node, topic, args)

        from rclpy.qos import DurabilityPolicy
        seen: Deque[Tuple[Any, Any]] = collections.deque(maxlen=256)
        both = [False]

        def on_message(msg: Any, info: Any) -> None:
            if both[0]:
                key = (info.get('source_timestamp'), info.get('publication_sequence_number'))
                if key in seen:
                    return
                seen.append(key)
            sub = msg
            if field is not None:
                for name in field:
                    try:
                        sub = getattr(sub, name)
                    except AttributeError as ex:
                        raise CommandError(f"Invalid field '{'.'.join(field)}': {ex}") from None
            if accept is not None and not accept(sub):
                return
            print_echo(sub, info, args, truncate)
            printed[0] += 1
            if limit is not None and printed[0] >= limit:
                raise _Done()

        def subscribe(profile: Any) -> Any:
            callbacks = None
            if not args.no_lost_messages:
                from rclpy.event_handler import SubscriptionEventCallbacks
                callbacks = SubscriptionEventCallbacks(message_lost=_lost)
            try:
                return cli.node.create_subscription(msg_class, topic, on_message, profile,
                                                    event_callbacks=callbacks, raw=args.raw)
            except Exception as e:      # noqa: B902 - UnsupportedEventTypeError on some RMWs
                if callbacks is None or 'Unsupported' not in type(e).__name__:
                    raise
                return cli.node.create_subscription(msg_class, topic, on_message, profile,
                                                    raw=args.raw)

        subs = [subscribe(qos)]
        deadline = None if args.timeout is None else time.monotonic() + args.timeout
        try:
            while deadline is None or time.monotonic() < deadline:
                cli.spin_once(0.1 if deadline is None
                              else max(0.0, min(0.1, deadline - time.monotonic())))
                if adapt_until is not None and cli.node.get_publishers_info_by_topic(topic):
                    adapted = choose_subscription_qos(cli.node, topic, args)
                    if adapted.durability == DurabilityPolicy.TRANSIENT_LOCAL \
                            and qos.durability != DurabilityPolicy.TRANSIENT_LOCAL:
                        both[0] = True
                        subs.append(subscribe(adapted))
                    adapt_until = None
                elif adapt_until is not None and time.monotonic() > adapt_until:
                    adapt_until = None
        except _Done:
            pass
    return 0


def _type_from_daemon(topic: str, args: argparse.Namespace) -> Optional[str]:
    """
    Return echo's topic type as a running daemon knows it (None: ask the graph directly).

    As ros2cli, a running daemon answers at once, before the command makes a node of its
    own: a topic it does not know within TYPE_GRACE_S has no type ("Could not determine the
    type for the passed topic"). With the type given, ``--timeout``, ``--no-daemon`` or no
    daemon running, the command's node discovers for itself (up to ``--timeout`` s, default
    until the graph settles, at most 5 s).
    """
    if args.message_type is not None or args.timeout is not None or args.no_daemon:
        return None
    from ros2cli_py import daemon
    from ros2cli_py.graph import DaemonView
    client = daemon.connect()
    if client is None:
        return None
    try:
        with DaemonView(client) as view:
            # a grace for a publisher that started a moment ago (the daemon discovers it
            # too), short enough for ros2cli's "at once" (its test allows 2 s in all)
            deadline = time.monotonic() + TYPE_GRACE_S
            while True:
                view.discover()
                types = view.topic_types(topic)
                if types or time.monotonic() >= deadline:
                    break
                time.sleep(0.1)
    except (daemon.DaemonError, daemon.DaemonCallError, ValueError):
        return None
    if not types:
        raise CommandError('Could not determine the type for the passed topic')
    if len(types) > 1:
        raise CommandError(f"Cannot echo topic '{topic}', as it contains more than one type: "
                           f"[{', '.join(types)}]")
    return types[0]


def _lost(status: Any) -> None:
    print('A message was lost!!!\n\ttotal count change:'
          f'{status.total_count_change}\n\ttotal count: {status.total_count}', end='---\n')
