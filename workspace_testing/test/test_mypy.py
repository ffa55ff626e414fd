# SPDX-License-Identifier: Apache-2.0
"""mypy --strict over workspace_testing: its public API is typed, and the types hold."""

from pathlib import Path
import subprocess
import sys

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / 'workspace_testing'


@pytest.mark.linter
def test_mypy_strict(tmp_path):
    result = subprocess.run(
        [sys.executable, '-m', 'mypy', '--strict', '--cache-dir', str(tmp_path),
         str(PACKAGE)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
