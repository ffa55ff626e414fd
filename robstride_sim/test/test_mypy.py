# SPDX-License-Identifier: Apache-2.0
"""mypy --strict over robstride_sim: its code is annotated, and the types hold."""

from pathlib import Path

import pytest
from workspace_testing.mypy_strict import mypy_strict

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.linter
def test_mypy_strict(tmp_path):
    result = mypy_strict(tmp_path, str(ROOT / 'robstride_sim'))
    assert result.returncode == 0, result.stdout + result.stderr
