# SPDX-License-Identifier: Apache-2.0
"""mypy --strict over hb50_nodes: its code is annotated, and the types hold."""

from pathlib import Path

import pytest
from workspace_testing.mypy_strict import mypy_strict

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.linter
def test_mypy_strict(tmp_path):
    result = mypy_strict(tmp_path, str(ROOT / 'hb50_nodes'))
    assert result.returncode == 0, result.stdout + result.stderr
