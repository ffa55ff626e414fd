# SPDX-License-Identifier: Apache-2.0
"""
`ros2 launch`: run a launch file, as ros2launch does, on the workspace's launch package.

`ros2 launch <package> <file> [name:=value ...]` finds the file in the package's share
directory; `ros2 launch <path> [name:=value ...]` runs a file by path. Options and output
are ros2launch's (-n, -d, -p, -s, -a, --launch-prefix, --launch-prefix-filter). Bad input
(no such package or file, a syntax error, an exception while loading the file) is one line
on stderr and exit 1; a launch argument the file does not declare is a warning.
"""

import argparse
import collections
import os
import sys
import traceback
from typing import Any, List, Optional, Text, Tuple

from ros2cli_py.errors import CommandError

_NOT_AVAILABLE = ("ros2 launch: the workspace's launch package is not installed; build it "
                  "with 'scripts/build.sh --packages-up-to launch_ros ros2cli_py', or source "
                  'a ROS 2 install with launch')


def add_launch(parser: argparse.ArgumentParser) -> None:
    """Add ros2launch's arguments."""
    parser.add_argument(
        '-n', '--noninteractive', default=not sys.stdin.isatty(), action='store_true',
        help='Run the launch system non-interactively, with no terminal associated')
    parser.add_argument(
        '-d', '--debug', default=False, action='store_true',
        help='Put the launch system in debug mode, provides more verbose output.')
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        '-p', '--print', '--print-description', default=False, action='store_true',
        help='Print the launch description to the console without launching it.')
    group.add_argument(
        '-s', '--show-args', '--show-arguments', default=False, action='store_true',
        help='Show arguments that may be given to the launch file.')
    parser.add_argument(
        '-a', '--show-all-subprocesses-output', default=False, action='store_true',
        help="Show all launched subprocesses' output by overriding their output "
             'configuration using the OVERRIDE_LAUNCH_PROCESS_OUTPUT envvar.')
    parser.add_argument(
        '--launch-prefix',
        help='Prefix command, which should go before all executables. Command must be '
             'wrapped in quotes if it contains spaces '
             "(e.g. --launch-prefix 'xterm -e gdb -ex run --args').")
    parser.add_argument(
        '--launch-prefix-filter',
        help='Regex pattern for filtering which executables the --launch-prefix is applied '
             'to by matching the executable name.')
    parser.add_argument('package_name',
                        help='Name of the ROS package which contains the launch file')
    parser.add_argument('launch_file_name', nargs='?', help='Name of the launch file')
    parser.add_argument(
        'launch_arguments', nargs='*',
        help="Arguments to the launch file; '<name>:=<value>' (for duplicates, last one wins)")
    parser.set_defaults(func=main)


class MultipleLaunchFilesError(Exception):
    """A file name found more than once in a package's share directory."""

    def __init__(self, msg: Text, paths: List[Text]) -> None:
        """Create the error."""
        super().__init__(msg)
        self.paths = paths


def get_share_file_path_from_package(*, package_name: Text, file_name: Text) -> Text:
    """Return the path of ``file_name`` in the package's share directory (anywhere below)."""
    from ament_index_python.packages import get_package_share_directory
    share = get_package_share_directory(package_name)
    found = [os.path.join(root, name) for root, _, files in os.walk(share)
             for name in files if name == file_name]
    if not found:
        raise FileNotFoundError(f"file '{file_name}' was not found in the share directory of "
                                f"package '{package_name}' which is at '{share}'")
    if len(found) > 1:
        raise MultipleLaunchFilesError(
            f"file '{file_name}' was found more than once in the share directory of package "
            f"'{package_name}': [{', '.join(repr(p) for p in found)}]", found)
    return found[0]


def parse_launch_arguments(launch_arguments: List[Text]) -> List[Tuple[Text, Text]]:
    """Return the name:=value arguments as (name, value) pairs, the last of a name winning."""
    parsed: 'collections.OrderedDict[Text, Text]' = collections.OrderedDict()
    for argument in launch_arguments:
        count = argument.count(':=')
        if count == 0 or argument.startswith(':=') or (count == 1 and argument.endswith(':=')):
            raise CommandError(f"malformed launch argument '{argument}', expected format "
                               "'<name>:=<value>'")
        name, value = argument.split(':=', maxsplit=1)
        parsed[name] = value
    return list(parsed.items())


def _describe_load_error(path: Text, error: BaseException) -> Text:
    """One line for an exception raised while loading a launch file: file, line, error."""
    import launch
    if isinstance(error, launch.InvalidLaunchFileError) and error._likely_errors:
        error = error._likely_errors[0]
    if isinstance(error, SyntaxError):
        return (f'{error.filename or path}:{error.lineno}: {type(error).__name__}: '
                f'{error.msg}')
    message = str(error).strip().splitlines()
    if message and message[0].startswith(path):
        return message[0]   # a frontend's error: it names file, line and tag already
    text = f'{type(error).__name__}: {message[0] if message else repr(error)}'
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if os.path.abspath(f.filename) == os.path.abspath(path)]
    if frames:
        return f'{path}:{frames[-1].lineno}: {text}'
    return f'{path}: {text}'


def load_launch_file(path: Text) -> Any:
    """Load a launch file; a CommandError (one line) if it cannot be loaded."""
    from launch.launch_description_sources import get_launch_description_from_any_launch_file
    try:
        return get_launch_description_from_any_launch_file(path)
    except Exception as e:  # noqa: B902 - whatever the launch file raises: one line
        raise CommandError(f'ros2 launch: {_describe_load_error(path, e)}') from None


def print_arguments_of_launch_description(*, launch_description: Any) -> None:
    """Print the arguments of a launch description as ros2launch does."""
    print("Arguments (pass arguments as '<name>:=<value>'):")
    arguments = launch_description.get_launch_arguments()
    conditional = False
    for argument in arguments:
        msg = f"\n    '{argument.name}':"
        if argument._conditionally_included:
            conditional = True
            msg += '*'
        msg += '\n        ' + argument.description
        if argument.default_value is not None:
            default = ' + '.join(token.describe() for token in argument.default_value)
            msg += f'\n        (default: {default})'
        print(msg)
    if arguments:
        if conditional:
            print('\n* argument(s) which are only used if specific conditions occur')
    else:
        print('\n  No arguments.')


def _resolve(args: argparse.Namespace) -> Tuple[Text, List[Text]]:
    """Return the launch file's path and the launch arguments."""
    arguments: List[Text] = []
    if os.path.isfile(args.package_name):
        if args.launch_file_name is not None:
            arguments.append(args.launch_file_name)
        return args.package_name, arguments + list(args.launch_arguments)
    if args.launch_file_name is None:
        looks_like_path = os.sep in args.package_name or args.package_name.endswith(
            ('.py', '.xml', '.yaml'))
        if looks_like_path:
            raise CommandError(f"ros2 launch: launch file '{args.package_name}' does not exist")
        raise CommandError(f"ros2 launch: no launch file given: 'ros2 launch "
                           f"{args.package_name} <launch file>' or 'ros2 launch <path>'")
    from ament_index_python.packages import PackageNotFoundError
    try:
        path = get_share_file_path_from_package(package_name=args.package_name,
                                                file_name=args.launch_file_name)
    except PackageNotFoundError as e:
        raise CommandError(f"Package '{args.package_name}' not found: {e}") from None
    except (FileNotFoundError, MultipleLaunchFilesError) as e:
        raise CommandError(str(e)) from None
    return path, list(args.launch_arguments)


def _warn_undeclared(launch_description: Any, parsed: List[Tuple[Text, Text]], path: Text) -> None:
    import launch.logging
    declared = [a.name for a in launch_description.get_launch_arguments()]
    internal = ('launch-prefix', 'launch-prefix-filter')
    for name, _ in parsed:
        if name not in declared and name not in internal:
            launch.logging.get_logger('launch').warning(
                f"launch argument '{name}' is not declared by '{os.path.basename(path)}' "
                f"(its arguments: [{', '.join(declared)}]); set as a launch configuration "
                'anyway')


def main(args: argparse.Namespace) -> Optional[int]:
    """Entry point of the verb."""
    try:
        import launch
        from launch.launch_description_source import LaunchDescriptionSource
    except ImportError:
        raise CommandError(_NOT_AVAILABLE, code=2) from None
    path, launch_arguments = _resolve(args)
    if args.launch_prefix is None and args.launch_prefix_filter is not None:
        raise CommandError(
            '--launch-prefix must be specified if --launch-prefix-filter is provided')
    if args.show_all_subprocesses_output:
        os.environ['OVERRIDE_LAUNCH_PROCESS_OUTPUT'] = 'both'
    if args.launch_prefix:
        launch_arguments.append(f'launch-prefix:={args.launch_prefix}')
    if args.launch_prefix_filter:
        launch_arguments.append(f'launch-prefix-filter:={args.launch_prefix_filter}')
    parsed = parse_launch_arguments(launch_arguments)
    path = os.path.abspath(path)
    launch_description = load_launch_file(path)
    if args.print:
        print(launch.LaunchIntrospector().format_launch_description(launch_description))
        return 0
    if args.show_args:
        print_arguments_of_launch_description(launch_description=launch_description)
        return 0
    service = launch.LaunchService(argv=launch_arguments, noninteractive=args.noninteractive,
                                   debug=args.debug)
    _warn_undeclared(launch_description, parsed, path)
    source = LaunchDescriptionSource(launch_description, path, 'interpreted launch file')
    service.include_launch_description(launch.LaunchDescription([
        launch.actions.IncludeLaunchDescription(source, launch_arguments=parsed)]))
    code: Optional[int] = service.run()
    return code
