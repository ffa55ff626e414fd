# SPDX-License-Identifier: Apache-2.0
"""The hook launch_testing's pytest plugin asks other plugins (launch_testing_ros)."""

from pathlib import Path
from typing import Any, Callable, Optional

import pytest


@pytest.hookspec(firstresult=True)
def pytest_launch_collect_makemodule(
    path: Path, parent: pytest.Collector, entrypoint: Optional[Callable[..., Any]]
) -> Optional[pytest.File]:
    """
    Return the collector of a launch test file, or None for launch_testing's own.

    ``entrypoint`` is the file's generate_test_description (its ``pytestmark`` tells
    ``launch_test`` from ``rostest``), None if the file cannot be imported.
    """
