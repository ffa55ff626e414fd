# SPDX-License-Identifier: Apache-2.0
"""The ``launch_test`` command: run a launch test file (``launch_test <file> [name:=value]``)."""

import argparse
import os
import sys
import traceback
from typing import List, Optional

from .junitxml import Results, write_junit_xml
from .test_runner import LaunchTestError, LaunchTestRunner, load_test_module, make_runs


def _report(results: Results) -> bool:
    ok = True
    for run, (active, post) in results.items():
        for phase, result in (('active', active), ('post-shutdown', post)):
            for case, text in result.failures + result.errors:
                ok = False
                print(f'FAIL ({phase}): {run.name}: {case.id()}', file=sys.stderr)
                print(text.rstrip(), file=sys.stderr)
            print(f'{run.name}: {phase} tests: ran {result.testsRun}, '
                  f'{len(result.failures)} failed, {len(result.errors)} errors')
    return ok


def run_file(path: str, launch_arguments: List[str], junit_xml: Optional[str] = None,
             package_name: Optional[str] = None, debug: bool = False) -> int:
    """Run a launch test file; return 0 if every test passed, else 1."""
    module = load_test_module(path)
    results = LaunchTestRunner(make_runs(module, launch_arguments), launch_arguments,
                               debug=debug).run()
    if junit_xml:
        write_junit_xml(junit_xml, results, package_name or 'launch_tests')
    return 0 if _report(results) else 1


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of ``launch_test``."""
    parser = argparse.ArgumentParser(prog='launch_test',
                                     description='Run a launch test file.')
    parser.add_argument('launch_test_file', help='the test file (generate_test_description)')
    parser.add_argument('launch_arguments', nargs='*',
                        help="arguments to the launch file, '<name>:=<value>'")
    parser.add_argument('--junit-xml', help='write the results as JUnit XML to this file')
    parser.add_argument('--package-name', help='the package name for the JUnit XML')
    parser.add_argument('-d', '--debug', action='store_true', help='debug output of launch')
    args = parser.parse_args(argv)
    if not os.path.isfile(args.launch_test_file):
        print(f"launch_test: test file '{args.launch_test_file}' does not exist",
              file=sys.stderr)
        return 1
    try:
        return run_file(args.launch_test_file, args.launch_arguments, args.junit_xml,
                        args.package_name, args.debug)
    except (LaunchTestError, SyntaxError, ImportError) as e:
        print(f'launch_test: {e}', file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 1
    except Exception as e:  # noqa: B902 - one line, never a traceback
        if os.environ.get('LAUNCH_TEST_DEBUG') == '1':
            traceback.print_exc()
        print(f'launch_test: {type(e).__name__}: {e}', file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main())
