# SPDX-License-Identifier: Apache-2.0
"""
`ros2 bag` verbs (record, play, info, reindex) with rosbag2's syntax for what exists.

`main(argv)` takes what follows `ros2 bag`, e.g. ['record', '-a', '-o', 'out'], and returns
the exit code; the `ros2` command's bag verb and the `ros2bag` executable both call it.
"""

import argparse
import sys
from typing import List, Optional, Sequence

from node_runtime import stop


def build_parser() -> argparse.ArgumentParser:
    """Return the parser of every verb."""
    parser = argparse.ArgumentParser(
        prog='ros2 bag', description='rosbag2-format MCAP bags (ros2bag_mcap).')
    verbs = parser.add_subparsers(dest='verb', metavar='VERB')
    verbs.required = True

    rec = verbs.add_parser('record', help='record topics into a bag')
    rec.add_argument('topics', nargs='*', help='topics to record')
    rec.add_argument('-a', '--all', action='store_true', help='record every topic')
    rec.add_argument('-e', '--regex', help='record topics matching this regular expression')
    rec.add_argument('-o', '--output', help='bag directory (default rosbag2_<date>-<time>)')
    rec.add_argument('-s', '--storage', default='mcap', choices=['mcap'],
                     help='storage plugin (only mcap)')
    rec.add_argument('--qos-profile-overrides-path', help='YAML file of QoS per topic')
    rec.add_argument('-d', '--max-bag-duration', type=float, default=0.0,
                     help='split the bag into files of at most this many seconds (0: off)')
    rec.add_argument('--include-hidden-topics', action='store_true',
                     help='also record hidden topics (a path element starting with _)')

    play = verbs.add_parser('play', help='play a bag back')
    play.add_argument('bag', help='bag directory')
    play.add_argument('-r', '--rate', type=float, default=1.0, help='rate factor (default 1)')
    play.add_argument('-l', '--loop', action='store_true', help='play in a loop')
    play.add_argument('--topics', nargs='+', help='play only these topics')
    play.add_argument('--start-offset', type=float, default=0.0,
                      help='start this many seconds into the bag')
    play.add_argument('--qos-profile-overrides-path', help='YAML file of QoS per topic')
    play.add_argument('-d', '--delay', type=float, default=0.0,
                      help='wait this many seconds (for discovery) before playing')
    play.add_argument('--rt-priority', type=int, default=0, choices=range(0, 100),
                      metavar='0-99',
                      help='play from a SCHED_FIFO thread of this priority (0: off)')

    inf = verbs.add_parser('info', help='summary of a bag; reports a killed recording')
    inf.add_argument('bag', help='bag directory')
    rei = verbs.add_parser('reindex', help='recover a killed recording, rewrite metadata.yaml')
    rei.add_argument('bag', help='bag directory')
    return parser


def main(argv: Sequence[str]) -> int:
    """Run one `ros2 bag` verb; returns the process exit code."""
    stop.install()      # SIGINT/SIGTERM: a stop request the verbs check (node_runtime.stop)
    args_in: List[str] = list(argv)
    ros_args: Optional[List[str]] = None
    if '--ros-args' in args_in:
        i = args_in.index('--ros-args')
        args_in, ros_args = args_in[:i], ['ros2bag', '--ros-args'] + args_in[i + 1:]
    parser = build_parser()
    try:
        args = parser.parse_args(args_in)
    except SystemExit as exc:
        return int(exc.code or 0)
    args.ros_args = ros_args
    if args.verb == 'record':
        from . import recorder
        return recorder.run(args)
    if args.verb == 'play':
        from . import player
        if args.rate <= 0 or args.start_offset < 0 or args.delay < 0:
            print('error: --rate must be > 0, --start-offset and --delay >= 0',
                  file=sys.stderr)
            return 2
        return player.run(args)
    from . import info
    if args.verb == 'info':
        return info.run_info(args)
    return info.run_reindex(args)
