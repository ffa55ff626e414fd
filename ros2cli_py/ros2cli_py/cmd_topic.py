# SPDX-License-Identifier: Apache-2.0
"""ros2 topic list | type | info | echo | hz | bw | delay | pub."""

import collections
import math
import threading
import time

from ros2cli_py.argtypes import positive_float
from ros2cli_py.argtypes import positive_int
from ros2cli_py.argtypes import unsigned_int
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import CliNode
from ros2cli_py.graph import expand_topic
from ros2cli_py.graph import MAX_DISCOVERY_S
from ros2cli_py.graph import open_graph
from ros2cli_py.graph import topic_or_service_is_hidden
from ros2cli_py.qos import add_qos_arguments
from ros2cli_py.qos import choose_subscription_qos
from ros2cli_py.qos import profile_from_args
from ros2cli_py.typeclass import get_type_class

DEFAULT_TRUNCATE_LENGTH = 128


def add_node_arguments(parser):
    """ros2cli's node-strategy options: --spin-time (direct discovery) and --no-daemon."""
    parser.add_argument('--spin-time', type=positive_float, default=None,
                        help='Spin time in seconds to wait for discovery (default: until the '
                             'graph settles, 1 to 5 s)')
    parser.add_argument('--no-daemon', action='store_true',
                        help='Do not spawn nor use an already running daemon')


def add_sim_time_argument(parser):
    """ros2cli's -s/--use-sim-time: the command's node takes its time from /clock."""
    parser.add_argument('-s', '--use-sim-time', action='store_true',
                        help='Enable ROS simulation time')


def add_topic(parser):
    """Register the topic verbs."""
    verbs = parser.add_subparsers(dest='verb', metavar='Commands')
    verbs.required = True

    p = verbs.add_parser('list', help='Output a list of available topics')
    add_node_arguments(p)
    p.add_argument('-t', '--show-types', action='store_true',
                   help='Additionally show the topic type')
    p.add_argument('-c', '--count-topics', action='store_true',
                   help='Only display the number of topics discovered')
    p.add_argument('--include-hidden-topics', action='store_true',
                   help='Consider hidden topics as well')
    p.add_argument('-v', '--verbose', action='store_true',
                   help='List full details about each topic')
    p.set_defaults(func=topic_list)

    p = verbs.add_parser('type', help="Print a topic's type")
    add_node_arguments(p)
    p.add_argument('topic_name', help="Name of the ROS topic to get type (e.g. '/chatter')")
    p.add_argument('--include-hidden-topics', action='store_true',
                   help='Consider hidden topics as well')
    p.set_defaults(func=topic_type)

    p = verbs.add_parser('find', help='Output a list of available topics of a given type')
    add_node_arguments(p)
    p.add_argument('topic_type', help='Name of the ROS topic type to filter for (e.g. '
                                      "'std_msgs/msg/String')")
    p.add_argument('-c', '--count-topics', action='store_true',
                   help='Only display the number of topics discovered')
    p.add_argument('--include-hidden-topics', action='store_true',
                   help='Consider hidden topics as well')
    p.set_defaults(func=topic_find)

    p = verbs.add_parser('info', help='Print information about a topic')
    add_node_arguments(p)
    p.add_argument('topic_name', help="Name of the ROS topic to get info (e.g. '/chatter')")
    p.add_argument('-v', '--verbose', action='store_true',
                   help='Prints detailed information like the node name, node namespace, '
                        'topic type, GUID and QoS Profile of the publishers and subscribers '
                        'to this topic')
    p.set_defaults(func=topic_info)

    p = verbs.add_parser('echo', help='Output messages from a topic')
    add_node_arguments(p)
    p.add_argument('topic_name', help="Name of the ROS topic to listen to (e.g. '/chatter')")
    p.add_argument('message_type', nargs='?',
                   help="Type of the ROS message (e.g. 'std_msgs/msg/String')")
    add_qos_arguments(p, 'subscribe', 'sensor_data')
    p.add_argument('--csv', action='store_true',
                   help='Output all recursive fields separated by commas (e.g. for plotting)')
    p.add_argument('--field', type=str, default=None,
                   help="Echo a selected field of a message. Use '.' to select sub-fields "
                        "(e.g. 'header.stamp')")
    p.add_argument('--full-length', '-f', action='store_true',
                   help='Output all elements for arrays, bytes, and string with a length > '
                        "'--truncate-length', by default they are truncated after "
                        "'--truncate-length' elements with '...'")
    p.add_argument('--truncate-length', '-l', type=unsigned_int,
                   default=DEFAULT_TRUNCATE_LENGTH,
                   help='The length to truncate arrays, bytes, and string to (default: '
                        f'{DEFAULT_TRUNCATE_LENGTH})')
    p.add_argument('--no-arr', action='store_true', help="Don't print array fields of messages")
    p.add_argument('--no-str', action='store_true',
                   help="Don't print string fields of messages")
    p.add_argument('--flow-style', action='store_true',
                   help='Print collections in the flow style (not available with csv format)')
    p.add_argument('--no-lost-messages', action='store_true',
                   help="Don't report when a message is lost")
    p.add_argument('--raw', action='store_true', help='Echo the raw binary representation')
    p.add_argument('--filter', dest='filter_expr',
                   help='Python expression to filter messages that are printed. Expression '
                        'can use Python builtins as well as m (the message).')
    p.add_argument('--once', action='store_true',
                   help='Print the first message received and then exit.')
    p.add_argument('--times', '-n', type=positive_int, default=None,
                   help='Print this many messages and then exit.')
    p.add_argument('--timeout', metavar='N', type=positive_float, default=None,
                   help='Set a timeout in seconds for waiting')
    p.add_argument('--include-message-info', '-i', action='store_true',
                   help='Shows the associated message info.')
    p.set_defaults(func=topic_echo)

    p = verbs.add_parser('hz', help='Print the average receiving rate to screen')
    add_node_arguments(p)
    p.add_argument('topic_list', nargs='+', metavar='topic_name',
                   help="Names of the ROS topics to listen to (e.g. '/chatter')")
    p.add_argument('--window', '-w', dest='window_size', type=positive_int, default=10000,
                   metavar='WINDOW',
                   help='window size, in # of messages, for calculating rate (default: 10000)')
    p.add_argument('--filter', dest='filter_expr', default=None, metavar='EXPR',
                   help='only measure messages matching the specified Python expression')
    p.add_argument('--wall-time', dest='use_wtime', action='store_true',
                   help='calculates rate using wall time which can be helpful when clock is '
                        'not published during simulation')
    add_sim_time_argument(p)
    p.set_defaults(func=topic_hz)

    p = verbs.add_parser('bw', help='Display bandwidth used by topic')
    add_node_arguments(p)
    p.add_argument('topic_name', help='Topic name to monitor for bandwidth utilization')
    p.add_argument('--window', '-w', type=positive_int, default=100, metavar='WINDOW',
                   help='maximum window size, in # of messages, for calculating rate '
                        '(default: 100)')
    add_sim_time_argument(p)
    p.set_defaults(func=topic_bw)

    p = verbs.add_parser('delay', help='Display delay of topic from timestamp in header')
    add_node_arguments(p)
    p.add_argument('topic_name', help="Name of the ROS topic to listen to (e.g. '/chatter')")
    p.add_argument('--window', '-w', dest='window_size', type=positive_int, default=10000,
                   metavar='WINDOW',
                   help='window size, in # of messages, for calculating rate (default: 10000)')
    p.set_defaults(func=topic_delay)

    p = verbs.add_parser('pub', help='Publish a message to a topic')
    add_node_arguments(p)
    p.add_argument('topic_name', help="Name of the ROS topic to publish to (e.g. '/chatter')")
    p.add_argument('message_type', help="Type of the ROS message (e.g. 'std_msgs/msg/String')")
    p.add_argument('values', nargs='?', default='{}',
                   help='Values to fill the message with in YAML format (e.g. "data: Hello '
                        'World"), otherwise the message will be published with default values')
    p.add_argument('-r', '--rate', metavar='N', type=positive_float, default=1.0,
                   help='Publishing rate in Hz (default: 1)')
    p.add_argument('-p', '--print', metavar='N', type=unsigned_int, default=1,
                   help='Only print every N-th published message (default: 1, 0 disables)')
    p.add_argument('-1', '--once', action='store_true', help='Publish one message and exit')
    p.add_argument('-t', '--times', type=unsigned_int, default=0,
                   help='Publish this number of times and then exit')
    p.add_argument('-w', '--wait-matching-subscriptions', type=unsigned_int, default=None,
                   help='Wait until finding the specified number of matching subscriptions. '
                        'Defaults to 1 when using "-1"/"--once"/"--times", otherwise 0.')
    p.add_argument('--keep-alive', metavar='N', type=float, default=0.1,
                   help='Keep publishing node alive for N seconds after the last msg '
                        '(default: 0.1)')
    p.add_argument('--max-wait-time-secs', type=positive_float, default=None,
                   help='Maximum time to wait for the matching subscriptions (default: '
                        'forever)')
    p.add_argument('-n', '--node-name', help='Name of the created publishing node')
    add_sim_time_argument(p)
    add_qos_arguments(p, 'publish', 'default')
    p.set_defaults(func=topic_pub)


# -- list / type / info -----------------------------------------------------------------------

def topic_list(args):
    """Print the topics (with types, counts or publishers/subscribers)."""
    with open_graph(args) as cli:
        cli.discover()
        topics = cli.topics(include_hidden=args.include_hidden_topics)
        if args.count_topics:
            print(len(topics))
            return 0
        if args.verbose:
            for title, count, kind in (
                    ('Published topics:', cli.node.count_publishers, 'publisher'),
                    ('Subscribed topics:', cli.node.count_subscribers, 'subscriber')):
                print(title)
                for name, types in topics:
                    n = count(name)
                    if n:
                        print(f" * {name} [{', '.join(types)}] {n} {kind}{'s' if n > 1 else ''}")
                print()
            return 0
        for name, types in topics:
            print(f"{name} [{', '.join(types)}]" if args.show_types else name)
    return 0


def _known_types(cli, topic, include_hidden=True):
    types = cli.wait_until(lambda: cli.topic_types(topic), MAX_DISCOVERY_S)
    return types or []


def topic_type(args):
    """Print the type(s) of a topic; nothing and exit 1 if unknown or hidden (as ros2cli)."""
    topic = expand_topic(args.topic_name)
    if topic_or_service_is_hidden(topic) and not args.include_hidden_topics:
        return 1
    with open_graph(args) as cli:
        types = _known_types(cli, topic)
    if not types:
        return 1
    for t in types:
        print(t)
    return 0


def topic_info(args):
    """Print type, publisher and subscription counts (and endpoints with -v)."""
    topic = expand_topic(args.topic_name)
    with open_graph(args) as cli:
        types = _known_types(cli, topic)
        if not types:
            raise CommandError(f"Unknown topic '{args.topic_name}'")
        cli.discover()      # endpoint details arrive after the topic itself
        types = cli.topic_types(topic) or types
        end = '\n\n' if args.verbose else '\n'
        print('Type: %s' % (types[0] if len(types) == 1 else types), end=end)
        print('Publisher count: %d' % cli.node.count_publishers(topic), end=end)
        if args.verbose:
            for info in cli.node.get_publishers_info_by_topic(topic):
                print(info, end=end)
            print('Subscription count: %d' % cli.node.count_subscribers(topic), end=end)
            for info in cli.node.get_subscriptions_info_by_topic(topic):
                print(info, end=end)
        else:
            print('Subscription count: %d' % cli.node.count_subscribers(topic))
    return 0


def topic_find(args):
    """Print the topics of one type (ros2cli: an unknown type prints nothing, exit 0)."""
    with open_graph(args) as cli:
        cli.discover()
        topics = [name for name, types in cli.topics(args.include_hidden_topics)
                  if args.topic_type in types]
    if args.count_topics:
        print(len(topics))
    else:
        for name in topics:
            print(name)
    return 0


# -- helpers for the subscribing verbs ---------------------------------------------------------

def _resolve_type(cli, topic, given=None, blocking=False, wait=None):
    """
    Return the message class of a topic: the given type, else the one in the graph.

    Waits for discovery up to ``wait`` s (default MAX_DISCOVERY_S); ``blocking`` waits
    forever with ros2cli's warning.
    """
    if given is not None:
        return get_type_class(given, 'msg')
    types = cli.wait_until(lambda: cli.topic_types(topic), wait or MAX_DISCOVERY_S)
    if not types and blocking:
        print(f'WARNING: topic [{topic}] does not appear to be published yet', flush=True)
        while not types:
            types = cli.wait_until(lambda: cli.topic_types(topic), 1.0)
    if not types:
        raise CommandError('Could not determine the type for the passed topic')
    if len(types) > 1:
        raise CommandError(f"Cannot echo topic '{topic}', as it contains more than one type: "
                           f"[{', '.join(types)}]")
    return get_type_class(types[0], 'msg')


def _filter(expr):
    if expr is None:
        return None
    try:
        code = compile(expr, '<filter>', 'eval')
    except SyntaxError as e:
        raise CommandError(f"Invalid filter expression '{expr}': {e.msg}") from None

    def accept(m):
        try:
            return eval(code, {}, {'m': m})
        except Exception as e:      # noqa: B902 - the user's expression may raise anything
            raise CommandError(f"Filter expression '{expr}' failed: {e}") from None
    return accept


class _Done(Exception):
    pass


# -- echo --------------------------------------------------------------------------------------

def topic_echo(args):
    """Print each message as YAML (or CSV / raw) like ros2cli."""
    topic = expand_topic(args.topic_name)
    field = None
    if args.field is not None:
        field = [f for f in args.field.split('.') if f]
        if not field:
            raise CommandError(f"Invalid field value '{args.field}'")
    truncate = None if args.full_length else args.truncate_length
    accept = _filter(args.filter_expr)
    limit = 1 if args.once else args.times
    printed = [0]

    known = _type_from_daemon(topic, args)
    with CliNode(spin_time=args.spin_time) as cli:
        msg_class = (get_type_class(known, 'msg') if known is not None
                     else _resolve_type(cli, topic, args.message_type, wait=args.timeout))
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
        seen = collections.deque(maxlen=256)
        both = [False]

        def on_message(msg, info):
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
            _print_echo(sub, info, args, truncate)
            printed[0] += 1
            if limit is not None and printed[0] >= limit:
                raise _Done()

        def subscribe(profile):
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


#: echo with the type given: how long the subscription may still adapt to publishers found.
ADAPT_S = 1.0


#: echo without a type: how long a running daemon is asked again for an unknown topic.
TYPE_GRACE_S = 0.6


def _type_from_daemon(topic, args):
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


def _lost(status):
    print('A message was lost!!!\n\ttotal count change:'
          f'{status.total_count_change}\n\ttotal count: {status.total_count}', end='---\n')


def _print_echo(msg, info, args, truncate):
    from ros2cli_py import convert
    import yaml
    if not convert.is_message(msg):
        if args.include_message_info:
            print('---Got new message, message info:---')
            print(info)
            print('---Message data:---')
        print(msg, end='\n---\n')
        return
    if args.csv:
        text = convert.message_to_csv(msg, truncate, args.no_arr, args.no_str)
        if args.include_message_info:
            text = ','.join(str(v) for v in info.values()) + ',' + text
        print(text)
        return
    if args.include_message_info:
        print(yaml.dump(info), end='---\n')
    print(convert.message_to_yaml(msg, truncate, args.no_arr, args.no_str, args.flow_style),
          end='---\n')


# -- hz / bw / delay ---------------------------------------------------------------------------

class RateWindow:
    """ros2cli's hz/delay statistics over the last ``window`` samples, printed once a second."""

    def __init__(self, window):
        self.window = window
        self.samples = []
        self.last_printed = 0

    def add(self, value):
        """Append a sample, keeping at most ``window``."""
        self.samples.append(value)
        if len(self.samples) > self.window:
            del self.samples[0]

    def report_due(self, last_ns):
        """
        Return True when a report is due for a message received at ``last_ns``.

        The first sample only starts the clock; after that one report a second, as ros2cli.
        """
        if not self.samples:
            return False
        if self.last_printed == 0:
            self.last_printed = last_ns
            return False
        if last_ns < self.last_printed + 1e9:
            return False
        self.last_printed = last_ns
        return True

    def stats(self):
        """(mean, min, max, std dev, n) of the samples."""
        n = len(self.samples)
        mean = sum(self.samples) / n
        std = math.sqrt(sum((x - mean) ** 2 for x in self.samples) / n)
        return mean, min(self.samples), max(self.samples), std, n


#: Receive queue of `topic hz`: 0.2 s of a 500 Hz topic.
HZ_QUEUE_DEPTH = 100


def _hz_report(stats):
    mean, lo, hi, std, n = stats
    rate = 1e9 / mean if mean > 0 else 0.0
    return ('average rate: %.3f\n\tmin: %.3fs max: %.3fs std dev: %.5fs window: %s'
            % (rate, lo * 1e-9, hi * 1e-9, std * 1e-9, n))


def _hz_table(rows):
    """ros2cli's table for several topics (columns left-aligned, headers centred)."""
    header = ('topic', 'rate', 'min_delta', 'max_delta', 'std_dev', 'window')
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    lines = ['   '.join(h.center(w) for h, w in zip(header, widths)),
             '=' * (sum(widths) + 3 * (len(header) - 1))]
    lines += ['   '.join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    return '\n'.join(lines) + '\n'


def topic_hz(args):
    """Print the receive rate of one or more topics every second."""
    from rclpy.clock import Clock
    from rclpy.clock import ClockType
    from rclpy.qos import qos_profile_sensor_data
    from rclpy.qos import QoSProfile
    topics = [expand_topic(t) for t in args.topic_list]
    accept = _filter(args.filter_expr)
    with CliNode(spin_time=args.spin_time, executor='events',
                 use_sim_time=args.use_sim_time) as cli:
        clock = Clock(clock_type=ClockType.SYSTEM_TIME) if args.use_wtime \
            else cli.node.get_clock()
        windows = {t: RateWindow(args.window_size) for t in topics}
        last = dict.fromkeys(topics)
        lock = threading.Lock()
        # ros2cli's profile (sensor data: best effort, volatile) with a deeper queue: depth 5
        # is 10 ms of a 500 Hz topic, and a Python process stalled longer than that (GC, a
        # loaded host) would lose samples and report a rate below the publisher's.
        qos = QoSProfile(depth=HZ_QUEUE_DEPTH, reliability=qos_profile_sensor_data.reliability,
                         durability=qos_profile_sensor_data.durability,
                         history=qos_profile_sensor_data.history)

        def on_message(topic, msg):
            # raw (bytes, never deserialized) unless a filter needs the message
            if accept is not None and not accept(msg):
                return
            now = clock.now().nanoseconds
            with lock:
                window = windows[topic]
                if now == 0:
                    if window.samples:
                        print('time has reset, resetting counters')
                        window.samples.clear()
                    return
                if last[topic] is None or last[topic] > now:
                    window.samples.clear()
                else:
                    window.add(now - last[topic])
                last[topic] = now

        for topic in topics:
            msg_class = _resolve_type(cli, topic, blocking=True)
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
                    print(_hz_report(stats))
        _hz_many(cli, topics, windows, lock)


#: Several topics: the first table waits this long for every topic to have a rate.
HZ_TABLE_GRACE_S = 3.0


def _hz_many(cli, topics, windows, lock):
    """
    Print ros2cli's table of several topics once a second (every topic with a rate).

    As ros2cli's print thread, a table a second from the subscriptions on; the first one
    waits until every topic has a rate, at most HZ_TABLE_GRACE_S after the first one has,
    so that it lists them all when they all publish.
    """
    next_print = time.monotonic() + 1.0
    first_rate = None
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
                             and now - first_rate < HZ_TABLE_GRACE_S):
                continue
            rows = [(t, windows[t].stats()) for t in ready]
        printed = True
        print(_hz_table([
            (t, '%.3f' % (1e9 / mean if mean > 0 else 0.0), '%.3f' % (lo * 1e-9),
             '%.3f' % (hi * 1e-9), '%.5f' % (std * 1e-9), str(n))
            for t, (mean, lo, hi, std, n) in rows]))


#: pub --once / --times: the longest wait for reliable subscriptions to acknowledge.
ACK_WAIT_S = 1.0


def _wait_acked(pub):
    """
    Wait until every matched subscription acknowledged what ``pub`` sent (reliable only).

    A subscription whose side has not yet discovered the publisher when it publishes gets the
    sample once it has: the publisher must live until then (at most ACK_WAIT_S).
    """
    from rclpy.duration import Duration
    try:
        pub.wait_for_all_acked(Duration(seconds=ACK_WAIT_S))
    except Exception:       # noqa: B902 - an rmw without the call: the keep-alive alone
        pass


def _bw_text(value, unit_of):
    """ros2cli's sizes: whole bytes below 1000 B(/s), else KB or MB with two decimals."""
    if unit_of < 1000:
        return '%.0f B' % value
    if unit_of < 1000000:
        return '%.2f KB' % (value / 1000.0)
    return '%.2f MB' % (value / 1000000.0)


def topic_bw(args):
    """Print the received bandwidth every second (raw messages)."""
    from rclpy.qos import qos_profile_sensor_data
    topic = expand_topic(args.topic_name)
    with CliNode(spin_time=args.spin_time, executor='events',
                 use_sim_time=args.use_sim_time) as cli:
        msg_class = _resolve_type(cli, topic, blocking=True)
        times, sizes = [], []
        lock = threading.Lock()

        def on_message(data):
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


def topic_delay(args):
    """Print the delay between header.stamp and receipt every second."""
    from rclpy.qos import qos_profile_sensor_data
    topic = expand_topic(args.topic_name)
    with CliNode(spin_time=args.spin_time) as cli:
        msg_class = _resolve_type(cli, topic, blocking=True)
        if 'header' not in msg_class.get_fields_and_field_types():
            raise CommandError('msg does not have header')
        clock = cli.node.get_clock()
        window = RateWindow(args.window_size)
        last = [None]
        lock = threading.Lock()

        def on_message(msg):
            now = clock.now().nanoseconds
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


# -- pub ---------------------------------------------------------------------------------------

def parse_yaml_mapping(text):
    """Parse a YAML mapping from the command line; CommandError for anything else."""
    import yaml
    try:
        values = yaml.safe_load(text)
    except yaml.YAMLError as e:
        detail = ' '.join(str(e).split())
        raise CommandError(f'The passed value is not valid YAML: {detail}') from None
    if values is None:
        values = {}
    if not isinstance(values, dict):
        raise CommandError('The passed value needs to be a dictionary in YAML format')
    return values


def _wait_subscriptions(cli, pub, wanted, max_wait):
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


def topic_pub(args):
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
