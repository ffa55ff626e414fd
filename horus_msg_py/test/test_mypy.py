# SPDX-License-Identifier: Apache-2.0
"""mypy --strict over horus_msg_py (and the horus_testing helpers): the types hold."""

from pathlib import Path
import subprocess
import sys

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.linter
def test_mypy_strict(tmp_path):
    # The rosidl-generated message packages (sensor_msgs, nav_msgs, ...) and the
    # horus-robotics peer ship no type stubs: their classes are Any here. Run outside
    # the source tree, whose folders mypy could take for packages.
    result = subprocess.run(
        [sys.executable, '-m', 'mypy', '--strict', '--ignore-missing-imports',
         '--cache-dir', str(tmp_path / 'cache'),
         str(ROOT / 'horus_msg_py'), str(ROOT / 'horus_testing')],
        capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
