# SPDX-License-Identifier: Apache-2.0
"""mypy --strict over node_runtime: the types of its public API hold."""

from pathlib import Path
import subprocess
import sys

import pytest

ROOT = Path(__file__).resolve().parents[1]

# rclpy's own hints differ between the distros (Kilted: Parameter generic, rclpy.ok exported;
# Jazzy: neither, QoSProfile untyped): rclpy is Any here, the same on both.
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
    # The rosidl-generated message packages (rcl_interfaces.msg) ship no type stubs: their
    # classes are Any here. Run outside the source tree, whose folders mypy could take for
    # packages.
    result = _mypy(tmp_path, cache_dir, str(ROOT / 'node_runtime'))
    assert result.returncode == 0, result.stdout + result.stderr


USER_CODE = """
from node_runtime import stop
from node_runtime.bounded_text import RateLimiter, bounded
from node_runtime.parameters import Parameter
reveal_type(stop.requested())
reveal_type(stop.event())
reveal_type(bounded(b'peer'))
reveal_type(RateLimiter().allow('bad frame'))
reveal_type(Parameter('rate', 10.0, 'cycle rate [Hz]').value_range)
bounded('name', limit='long')
"""


@pytest.mark.linter
def test_user_code_sees_the_types(tmp_path, cache_dir):
    # What a user type-checking code against the installed package gets: real types, not
    # Any, and a wrongly typed argument flagged.
    (tmp_path / 'user.py').write_text(USER_CODE)
    result = _mypy(tmp_path, cache_dir, 'user.py')
    lines = [line.split(': ', 1)[1] for line in result.stdout.splitlines()
             if line.startswith('user.py:')]
    expected = [
        'note: Revealed type is "bool"',
        'note: Revealed type is "threading.Event"',
        'note: Revealed type is "str"',
        'note: Revealed type is "tuple[bool, int]"',
        'note: Revealed type is "tuple[Any, Any] | None"',
        'error: Argument "limit" to "bounded" has incompatible type "str"; expected "int"  '
        '[arg-type]',
    ]
    assert lines == expected, result.stdout + result.stderr
