# SPDX-License-Identifier: Apache-2.0
"""The pytest plugin of launch_testing_ros: LaunchROSTestModule for ``rostest`` files."""

from pathlib import Path
from typing import Any, Callable, Optional

from launch_testing.pytest.hooks import LaunchTestItem, LaunchTestModule
import pytest

from ..test_runner import LaunchTestRunner


class LaunchROSTestItem(LaunchTestItem):
    """One run of a ``rostest`` launch test file, by launch_testing_ros' runner."""

    @classmethod
    def from_parent(cls, *args: Any, **kwargs: Any) -> 'LaunchROSTestItem':
        """Create the item with launch_testing_ros' LaunchTestRunner."""
        kwargs['runner_cls'] = LaunchTestRunner
        return super().from_parent(*args, **kwargs)


class LaunchROSTestModule(LaunchTestModule):
    """A ``rostest`` launch test file: its runs are LaunchROSTestItems."""

    def makeitem(self, *args: Any, **kwargs: Any) -> LaunchROSTestItem:
        """Return the item of one run."""
        return LaunchROSTestItem.from_parent(*args, **kwargs)


def pytest_launch_collect_makemodule(
    path: Path, parent: pytest.Collector, entrypoint: Optional[Callable[..., Any]]
) -> Optional[LaunchROSTestModule]:
    """Take the launch test files whose generate_test_description is marked ``rostest``."""
    marks = getattr(entrypoint, 'pytestmark', []) if entrypoint is not None else []
    if any(getattr(m, 'name', None) == 'rostest' for m in marks):
        return LaunchROSTestModule.from_parent(parent, path=path)
    return None
