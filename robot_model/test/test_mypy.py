# SPDX-License-Identifier: Apache-2.0
"""mypy --strict over robot_model: the types of its public API hold."""

from pathlib import Path
import subprocess
import sys

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The same configuration as every package's mypy test (robot_model imports no rclpy).
CONFIG = '[mypy]\n\n[mypy-rclpy.*]\nfollow_imports = skip\nfollow_imports_for_stubs = True\n'


@pytest.fixture(scope='module')
def cache_dir(tmp_path_factory):
    """One mypy cache for both runs: the standard library's stubs are analysed once."""
    return tmp_path_factory.mktemp('mypy_cache')


def _mypy(cwd, cache_dir, *targets):
    (cwd / 'mypy.ini').write_text(CONFIG)
    return subprocess.run(
        [sys.executable, '-m', 'mypy', '--config-file', 'mypy.ini', '--strict',
         '--ignore-missing-imports', '--cache-dir', str(cache_dir), *targets],
        capture_output=True, text=True, timeout=300, cwd=cwd)


@pytest.mark.linter
def test_mypy_strict(tmp_path, cache_dir):
    # Run outside the source tree, whose folders mypy could take for packages.
    result = _mypy(tmp_path, cache_dir, str(ROOT / 'robot_model'))
    assert result.returncode == 0, result.stdout + result.stderr


USER_CODE = """
from robot_model.quaternion import IDENTITY, to_rpy
from robot_model.urdf import Joint
reveal_type(to_rpy(IDENTITY))
reveal_type(Joint('j', 'fixed', 'a', 'b', (0.0, 0.0, 0.0)).quat)
to_rpy((1.0, 0.0, 0.0))
"""


@pytest.mark.linter
def test_user_code_sees_the_types(tmp_path, cache_dir):
    # What a user type-checking code against the installed package gets: real types, and a
    # quaternion of three components flagged.
    (tmp_path / 'user.py').write_text(USER_CODE)
    result = _mypy(tmp_path, cache_dir, 'user.py')
    lines = [line.split(': ', 1)[1] for line in result.stdout.splitlines()
             if line.startswith('user.py:')]
    expected = [
        'note: Revealed type is "tuple[float, float, float]"',
        'note: Revealed type is "tuple[float, float, float, float]"',
        'error: Argument 1 to "to_rpy" has incompatible type "tuple[float, float, float]"; '
        'expected "tuple[float, float, float, float]"  [arg-type]',
    ]
    assert lines == expected, result.stdout + result.stderr
