# SPDX-License-Identifier: Apache-2.0
"""Entry point of `ros2`: hand over to a real ros2cli if there is one, else run our verbs."""

import argparse
import importlib
import importlib.util
import os
import sys
import traceback
from typing import Callable, Dict, List, NoReturn, Optional, Sequence, Tuple

from node_runtime import runner
from node_runtime import stop
from ros2cli_py.errors import CommandError

# Set to 1 to use this implementation even where the real ros2cli is importable (tests).
NO_DELEGATE_ENV = 'ROS2CLI_PY_NO_DELEGATE'


def real_ros2cli_main() -> Optional[Callable[[], Optional[int]]]:
    """Return the real ros2cli's main() if that package is importable, else None."""
    if os.environ.get(NO_DELEGATE_ENV) == '1':
        return None
    if importlib.util.find_spec('ros2cli') is None:
        return None
    try:
        real: Callable[[], Optional[int]] = importlib.import_module('ros2cli.cli').main
        return real
    except Exception:           # noqa: B902 - a broken ros2cli: fall back to ours
        return None


class _Stop(BaseException):
    """SIGINT/SIGTERM: unwind and exit 0."""


def _missing(command: str) -> str:
    if command == 'bag':
        return ("ros2 bag: the workspace's rosbag package ros2bag_mcap is not installed; build "
                "it with 'scripts/build.sh --packages-up-to ros2bag_mcap', or source a ROS 2 "
                'install with rosbag2')
    return (f"ros2 {command}: not provided by this workspace's ros2 (ros2cli_py: "
            + ', '.join(_COMMANDS) + '); source a full ROS 2 install for the '
            'complete ros2cli')


def _bag(argv: List[str]) -> int:
    try:
        cli = importlib.import_module('ros2bag_mcap.cli')
    except ImportError:
        print(_missing('bag'), file=sys.stderr)
        return 2
    code: int = cli.main(argv)
    return code


# command -> (help, module, function adding its verbs); modules load only when used
_COMMANDS: Dict[str, Tuple[str, Optional[str], Optional[str]]] = {
    'action': ('Various action related sub-commands', 'verb.action', 'add_action'),
    'bag': ('Various rosbag related sub-commands (package ros2bag_mcap)', None, None),
    'daemon': ('Various daemon related sub-commands', 'verb.daemon', 'add_daemon'),
    'doctor': ('Check ROS setup and other potential issues', 'verb.doctor', 'add_doctor'),
    'interface': ('Show information about ROS interfaces', 'verb.interface', 'add_interface'),
    'launch': ('Run a launch file', 'verb.launch', 'add_launch'),
    'node': ('Various node related sub-commands', 'verb.node', 'add_node'),
    'param': ('Various param related sub-commands', 'verb.param', 'add_param'),
    'pkg': ('Various package related sub-commands', 'verb.pkg', 'add_pkg'),
    'run': ('Run a package specific executable', 'verb.run', 'add_run'),
    'service': ('Various service related sub-commands', 'verb.service', 'add_service'),
    'topic': ('Various topic related sub-commands', 'verb.topic', 'add_topic'),
    'wtf': ('Use `wtf` as alias to `doctor`', 'verb.doctor', 'add_doctor'),
}


def build_parser(command: Optional[str] = None) -> argparse.ArgumentParser:
    """Build the argparse tree: every command, the verbs of ``command`` only (fast start)."""
    parser = argparse.ArgumentParser(
        prog='ros2', description='ros2 is an extensible command-line tool for ROS 2 '
        "(this workspace's implementation for the PyPI toolchain: ros2cli_py).",
        epilog='Call `ros2 <command> -h` for more detailed usage.')
    sub = parser.add_subparsers(dest='command', metavar='Commands')
    sub.required = True
    for name, (text, module, function) in _COMMANDS.items():
        cmd_parser = sub.add_parser(name, help=text, description=text)
        if name == command and module is not None and function is not None:
            adder = getattr(importlib.import_module(f'ros2cli_py.{module}'), function)
            adder(cmd_parser)
    return parser


def run(argv: List[str]) -> int:
    """Parse and run one command; returns the exit code."""
    if argv and not argv[0].startswith('-') and argv[0] not in _COMMANDS:
        print(_missing(argv[0]), file=sys.stderr)
        return 2
    if argv and argv[0] == 'bag':
        return _bag(argv[1:])
    from ros2cli_py import ament
    ament.add_toolchain_prefix()
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    code: Optional[int] = args.func(args)
    return code or 0


def _run_reporting(argv: List[str]) -> int:
    """Run one command with ros2cli's error output: the message, then its status."""
    try:
        return run(argv)
    except _Stop:
        return 0
    except CommandError as e:
        print(str(e), file=sys.stderr)
        return e.code
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except Exception as e:      # noqa: B902 - never a traceback for the user
        if stop.requested():
            # The signal landed in Python code that C++ called (e.g. while pybind11 builds a
            # subscription callback's message) and pybind11 replaced _Stop by its own error
            # ("Unable to convert call argument ..."): it is the stop, which exits 0 as well.
            return 0
        if os.environ.get('ROS2CLI_PY_DEBUG') == '1':
            traceback.print_exc()
        lines = str(e).strip().splitlines()
        print(f'{type(e).__name__}: {lines[0] if lines else e!r}', file=sys.stderr)
        return 1


def main(argv: Optional[Sequence[str]] = None) -> NoReturn:
    """Console entry point."""
    real = real_ros2cli_main()
    if real is not None:
        sys.exit(real())
    args = sys.argv[1:] if argv is None else list(argv)
    stop.install_interrupt(_Stop)       # a second signal while unwinding is ignored
    try:
        sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr, unused-ignore]
    except (AttributeError, ValueError):
        pass
    # The workspace's runner (a stop before the start, KeyboardInterrupt: 0); the verbs'
    # errors keep ros2cli's wording, which its CLI tests check, so they are reported here.
    sys.exit(runner.run_program(lambda: _run_reporting(args), prog='ros2', signals='keep'))
