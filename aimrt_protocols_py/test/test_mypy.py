# SPDX-License-Identifier: Apache-2.0
"""mypy --strict over aimrt_protocols_py: its public API is typed, and the types hold."""

from pathlib import Path
import subprocess
import sys

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / 'aimrt_protocols_py'


@pytest.mark.linter
def test_mypy_strict(tmp_path):
    # protobuf and the rosidl-generated packages ship no type stubs (and the protoc output
    # exists only in the install space): their classes are Any here. Run outside the source
    # tree, whose folders (e.g. aimrt_protocols_msgs/msg) mypy would take for packages.
    result = subprocess.run(
        [sys.executable, '-m', 'mypy', '--strict', '--ignore-missing-imports',
         '--cache-dir', str(tmp_path / 'cache'), str(PACKAGE)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
