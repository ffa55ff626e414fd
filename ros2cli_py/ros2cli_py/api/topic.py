# SPDX-License-Identifier: Apache-2.0
"""What the topic verbs share: arguments, the type of a topic, filters and echo's printing."""

import argparse
from typing import Any, Callable, List, Optional

from ros2cli_py.argtypes import positive_int
from ros2cli_py.argtypes import unsigned_int
from ros2cli_py.errors import CommandError
from ros2cli_py.graph import GraphView
from ros2cli_py.graph import MAX_DISCOVERY_S
from ros2cli_py.typeclass import get_type_class

DEFAULT_TRUNCATE_LENGTH = 128


def add_csv_argument(parser: argparse.ArgumentParser) -> None:
    """--csv of `topic echo` and `service echo`."""
    parser.add_argument('--csv', action='store_true',
                        help='Output all recursive fields separated by commas (e.g. for '
                             'plotting)')


def add_truncation_arguments(parser: argparse.ArgumentParser, full_length_help: str) -> None:
    """--full-length, --truncate-length, --no-arr, --no-str, --flow-style of the echo verbs."""
    parser.add_argument('--full-length', '-f', action='store_true', help=full_length_help)
    parser.add_argument('--truncate-length', '-l', type=unsigned_int,
                        default=DEFAULT_TRUNCATE_LENGTH,
                        help='The length to truncate arrays, bytes, and string to (default: '
                             f'{DEFAULT_TRUNCATE_LENGTH})')
    parser.add_argument('--no-arr', action='store_true',
                        help="Don't print array fields of messages")
    parser.add_argument('--no-str', action='store_true',
                        help="Don't print string fields of messages")
    parser.add_argument('--flow-style', action='store_true',
                        help='Print collections in the flow style (not available with csv '
                             'format)')


def add_window_argument(parser: argparse.ArgumentParser) -> None:
    """--window of `topic hz` and `topic delay` (messages in the statistics)."""
    parser.add_argument('--window', '-w', dest='window_size', type=positive_int, default=10000,
                        metavar='WINDOW',
                        help='window size, in # of messages, for calculating rate (default: '
                             '10000)')


def known_types(cli: GraphView, topic: str) -> List[str]:
    """Return the types of a topic, waiting for discovery up to MAX_DISCOVERY_S ([])."""
    types: Optional[List[str]] = cli.wait_until(lambda: cli.topic_types(topic),
                                                MAX_DISCOVERY_S)
    return types or []


def resolve_type(cli: GraphView, topic: str, given: Optional[str] = None,
                 blocking: bool = False, wait: Optional[float] = None) -> Any:
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


def make_filter(expr: Optional[str]) -> Optional[Callable[[Any], Any]]:
    """Return the predicate of a --filter expression over ``m`` (None without one)."""
    if expr is None:
        return None
    try:
        code = compile(expr, '<filter>', 'eval')
    except SyntaxError as e:
        raise CommandError(f"Invalid filter expression '{expr}': {e.msg}") from None

    def accept(m: Any) -> Any:
        try:
            return eval(code, {}, {'m': m})
        except Exception as e:      # noqa: B902 - the user's expression may raise anything
            raise CommandError(f"Filter expression '{expr}' failed: {e}") from None
    return accept


def print_echo(msg: Any, info: Any, args: argparse.Namespace,
               truncate: Optional[int]) -> None:
    """Print one received message as `topic echo` does (YAML, CSV, or as is if raw)."""
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
