# SPDX-License-Identifier: Apache-2.0
"""
The pytest plugin: launch test files as pytest items.

It collects launch test files (``@pytest.mark.launch_test``, ``launch_testing`` or
``rostest`` on generate_test_description) and runs each as one item per parametrization.

Only files whose text has ``generate_test_description`` and one of the markers are taken;
every other file is left to pytest.
"""

import pytest

MARKERS = ('launch_test', 'launch_testing', 'rostest')


def pytest_configure(config):
    """Register the markers."""
    for marker in MARKERS:
        config.addinivalue_line('markers', f'{marker}: a launch test (launch_testing)')


def _looks_like_launch_test(path) -> bool:
    try:
        text = path.read_text(encoding='utf-8', errors='replace')
    except OSError:
        return False
    return 'generate_test_description' in text and any(
        f'mark.{m}' in text for m in MARKERS)


def pytest_pycollect_makemodule(module_path, parent):
    """Take the launch test files."""
    if module_path.suffix == '.py' and _looks_like_launch_test(module_path):
        return LaunchTestFile.from_parent(parent, path=module_path)
    return None


class LaunchTestFailure(Exception):
    """The failures of one launch test run."""


class LaunchTestFile(pytest.File):
    """A launch test file: one item per run (parametrization)."""

    def collect(self):
        """Import the file and return its runs."""
        from ..test_runner import load_test_module, make_runs
        module = load_test_module(str(self.path))
        marks = {m.name for m in getattr(module.generate_test_description, 'pytestmark', [])}
        if not marks & set(MARKERS):
            return
        for run in make_runs(module, []):
            yield LaunchTestItem.from_parent(self, name=run.name.split('launch_test_', 1)[-1],
                                             run=run)


class LaunchTestItem(pytest.Item):
    """One run of a launch test file."""

    def __init__(self, *, run, **kwargs):
        """Create the item."""
        super().__init__(**kwargs)
        self.run = run

    def runtest(self):
        """Run the launch and its tests; fail with every failing test's report."""
        from ..test_runner import LaunchTestRunner
        active, post = LaunchTestRunner([self.run]).run_one(self.run)
        problems = []
        for phase, result in (('active', active), ('post-shutdown', post)):
            for case, text in result.failures + result.errors:
                problems.append(f'{phase} test {case.id()}:\n{text}')
        if problems:
            raise LaunchTestFailure('\n'.join(problems))
        self.user_properties.append(('tests_run', active.testsRun + post.testsRun))

    def repr_failure(self, excinfo):
        """Show the failing tests' reports."""
        if isinstance(excinfo.value, LaunchTestFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        """Return where the test is."""
        return self.path, None, self.name
