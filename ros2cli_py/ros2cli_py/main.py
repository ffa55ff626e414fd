# SPDX-License-Identifier: Apache-2.0
"""Entry point of `ros2`: hand over to a real ros2cli if there is one, else run our verbs."""

import argparse
import importlib
import importlib.util
import os
import signal
import sys

from ros2cli_py.errors import CommandError

# Set to 1 to use this implementation even where the real ros2cli is importable (tests).
NO_DELEGATE_ENV = 'ROS2CLI_PY_NO_DELEGATE'

COMMANDS = ('bag', 'interface', 'launch', 'node', 'param', 'pkg', 'run', 'service', 'topic')


def real_ros2cli_main():
    """The real ros2cli's main() if that package is importable, else None."""
    if os.environ.get(NO_DELEGATE_ENV) == '1':
        return None
    if importlib.util.find_spec('ros2cli') is None:
        return None
    try:
        return importlib.import_module('ros2cli.cli').main
    except Exception:           # noqa: B902 - a broken ros2cli: fall back to ours
        return None


class _Stop(BaseException):
    """SIGINT/SIGTERM: unwind and exit 0."""


def _on_signal(signum, frame):
    # A second signal while unwinding must not raise again.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise _Stop()


def _missing(command):
    if command == 'launch':
        return ("ros2 launch: ROS 2 launch is not available on this workspace's PyPI toolchain; "
                "start nodes with 'ros2 run <package> <executable>' (the HB50 stack: make run "
                'or scripts/hb50_run.sh), or source a full ROS 2 install for launch files')
    if command == 'bag':
        return ("ros2 bag: the workspace's rosbag package ros2bag_mcap is not installed; build "
                "it with 'scripts/build.sh --packages-up-to ros2bag_mcap', or source a ROS 2 "
                'install with rosbag2')
    return (f"ros2 {command}: not provided by this workspace's ros2 (ros2cli_py: "
            + ', '.join(c for c in COMMANDS) + '); source a full ROS 2 install for the '
            'complete ros2cli')


def _bag(argv):
    try:
        cli = importlib.import_module('ros2bag_mcap.cli')
    except ImportError:
        print(_missing('bag'), file=sys.stderr)
        return 2
    return cli.main(argv)


def build_parser():
    """The argparse tree of every verb this command provides."""
    from ros2cli_py import cmd_interface
    from ros2cli_py import cmd_node
    from ros2cli_py import cmd_param
    from ros2cli_py import cmd_pkg
    from ros2cli_py import cmd_service
    from ros2cli_py import cmd_topic
    parser = argparse.ArgumentParser(
        prog='ros2', description='ros2 is an extensible command-line tool for ROS 2 '
        "(this workspace's implementation for the PyPI toolchain: ros2cli_py).",
        epilog='Call `ros2 <command> -h` for more detailed usage.')
    sub = parser.add_subparsers(dest='command', metavar='Commands')
    sub.required = True
    sub.add_parser('bag', help='Various rosbag related sub-commands (package ros2bag_mcap)',
                   add_help=False)
    cmd_interface.add_interface(sub)
    sub.add_parser('launch', help='Not available on the PyPI toolchain', add_help=False)
    cmd_node.add_node(sub)
    cmd_param.add_param(sub)
    cmd_pkg.add_pkg(sub)
    cmd_pkg.add_run(sub)
    cmd_service.add_service(sub)
    cmd_topic.add_topic(sub)
    return parser


def run(argv):
    """Parse and run one command; returns the exit code."""
    if argv and not argv[0].startswith('-') and argv[0] not in COMMANDS:
        print(_missing(argv[0]), file=sys.stderr)
        return 2
    if argv and argv[0] == 'launch':
        print(_missing('launch'), file=sys.stderr)
        return 2
    if argv and argv[0] == 'bag':
        return _bag(argv[1:])
    from ros2cli_py import ament
    ament.add_toolchain_prefix()
    parser = build_parser()
    args = parser.parse_args(argv)
    return args.func(args) or 0


def main(argv=None):
    """Console entry point."""
    real = real_ros2cli_main()
    if real is not None:
        sys.exit(real())
    argv = sys.argv[1:] if argv is None else argv
    signal.signal(signal.SIGINT, _on_signal)
    signal.signal(signal.SIGTERM, _on_signal)
    try:
        sys.stdout.reconfigure(line_buffering=True)
    except (AttributeError, ValueError):
        pass
    try:
        code = run(argv)
    except _Stop:
        code = 0
    except CommandError as e:
        print(str(e), file=sys.stderr)
        code = e.code
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        code = 0
    sys.exit(code)
