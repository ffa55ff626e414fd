# SPDX-License-Identifier: Apache-2.0
"""mypy --strict over launch_testing: the types of its public API hold."""

from pathlib import Path

import pytest
from workspace_testing.mypy_strict import mypy_strict

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.linter
def test_mypy_strict(tmp_path):
    result = mypy_strict(tmp_path, str(ROOT / 'launch_testing'))
    assert result.returncode == 0, result.stdout + result.stderr
