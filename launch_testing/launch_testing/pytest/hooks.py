# SPDX-License-Identifier: Apache-2.0
"""
The pytest plugin: launch test files as pytest items.

It collects launch test files (``@pytest.mark.launch_test``, ``launch_testing`` or
``rostest`` on generate_test_description) and runs each as one item per parametrization.

Only files whose text has ``generate_test_description`` and one of the markers are taken;
every other file is left to pytest.
"""

from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Tuple, Type, TYPE_CHECKING, Union

import pytest

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr, TracebackStyle

    from ..test_runner import LaunchTestRunner, TestRun

MARKERS = ('launch_test', 'launch_testing', 'rostest')


def pytest_configure(config: pytest.Config) -> None:
    """Register the markers."""
    for marker in MARKERS:
        config.addinivalue_line('markers', f'{marker}: a launch test (launch_testing)')


def _looks_like_launch_test(path: Path) -> bool:
    try:
        text = path.read_text(encoding='utf-8', errors='replace')
    except OSError:
        return False
    return 'generate_test_description' in text and any(
        f'mark.{m}' in text for m in MARKERS)


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add ``--launch-args name:=value ...``: arguments of every launch test's launch."""
    parser.addoption('--launch-args', action='append', nargs='*', default=[],
                     help="arguments of the launch tests' launches, '<name>:=<value>'")


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    """Add launch_testing's hook (``pytest_launch_collect_makemodule``)."""
    from . import hookspecs
    pluginmanager.add_hookspecs(hookspecs)


def pytest_pycollect_makemodule(module_path: Path,
                                parent: pytest.Collector) -> Optional[pytest.File]:
    """Take the launch test files (a plugin's module class first, e.g. the rostest one)."""
    if module_path.suffix == '.py' and _looks_like_launch_test(module_path):
        module: Optional[pytest.File] = parent.config.hook.pytest_launch_collect_makemodule(
            path=module_path, parent=parent, entrypoint=_entrypoint(module_path))
        if module is not None:
            return module
        return LaunchTestModule.from_parent(parent, path=module_path)
    return None


def _entrypoint(module_path: Path) -> Optional[Callable[..., Any]]:
    """Return the file's generate_test_description, None if it cannot be imported."""
    from ..test_runner import load_test_module
    try:
        function: Callable[..., Any] = \
            load_test_module(str(module_path)).generate_test_description
        return function
    except Exception:  # noqa: B902 - the module's own collection reports the error
        return None


class LaunchTestFailure(Exception):
    """The failures of one launch test run."""


class LaunchTestModule(pytest.File):
    """A launch test file: one item per run (parametrization)."""

    def makeitem(self, *args: Any, **kwargs: Any) -> 'LaunchTestItem':
        """Return the item of one run (subclasses give their own item class)."""
        return LaunchTestItem.from_parent(*args, **kwargs)

    def collect(self) -> Iterator['LaunchTestItem']:
        """Import the file and return its runs."""
        from ..test_runner import load_test_module, make_runs
        module = load_test_module(str(self.path))
        marks = {m.name for m in getattr(module.generate_test_description, 'pytestmark', [])}
        if not marks & set(MARKERS):
            return
        launch_args = sum((list(a) for a in self.config.getoption('--launch-args') or []), [])
        for run in make_runs(module, launch_args):
            yield self.makeitem(self, name=run.name.split('launch_test_', 1)[-1], run=run)


LaunchTestFile = LaunchTestModule   # the name of earlier versions of this plugin


class LaunchTestItem(pytest.Item):
    """One run of a launch test file."""

    def __init__(self, *, run: 'TestRun', runner_cls: Optional[Type['LaunchTestRunner']] = None,
                 **kwargs: Any) -> None:
        """Create the item; ``runner_cls`` is the LaunchTestRunner class that runs it."""
        super().__init__(**kwargs)
        self.run = run
        self.runner_cls = runner_cls

    def runtest(self) -> None:
        """Run the launch and its tests; fail with every failing test's report."""
        from ..test_runner import LaunchTestRunner
        runner_cls = self.runner_cls or LaunchTestRunner
        active, post = runner_cls([self.run], self.run.launch_args).run_one(self.run)
        problems = []
        for phase, result in (('active', active), ('post-shutdown', post)):
            for case, text in result.failures + result.errors:
                problems.append(f'{phase} test {case.id()}:\n{text}')
        if problems:
            raise LaunchTestFailure('\n'.join(problems))
        self.user_properties.append(('tests_run', active.testsRun + post.testsRun))

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException],
        style: Optional['TracebackStyle'] = None
    ) -> Union[str, 'TerminalRepr']:
        """Show the failing tests' reports."""
        if isinstance(excinfo.value, LaunchTestFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> Tuple[Path, None, str]:
        """Return where the test is."""
        return self.path, None, self.name
