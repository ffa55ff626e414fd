# SPDX-License-Identifier: Apache-2.0
"""mypy --strict over node_runtime: the types of its public API hold."""

from pathlib import Path

import pytest
from workspace_testing.mypy_strict import mypy_strict, user_code_lines

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope='module')
def cache_dir(tmp_path_factory):
    """One mypy cache for both runs: the standard library's stubs are analysed once."""
    return tmp_path_factory.mktemp('mypy_cache')


@pytest.mark.linter
def test_mypy_strict(tmp_path, cache_dir):
    # The rosidl-generated message packages (rcl_interfaces.msg) ship no type stubs: their
    # classes are Any here. Run outside the source tree, whose folders mypy could take for
    # packages.
    result = mypy_strict(tmp_path, str(ROOT / 'node_runtime'), cache_dir=cache_dir)
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
    lines = user_code_lines(tmp_path, USER_CODE, cache_dir)
    expected = [
        'note: Revealed type is "bool"',
        'note: Revealed type is "threading.Event"',
        'note: Revealed type is "str"',
        'note: Revealed type is "tuple[bool, int]"',
        'note: Revealed type is "tuple[Any, Any] | None"',
        'error: Argument "limit" to "bounded" has incompatible type "str"; expected "int"  '
        '[arg-type]',
    ]
    assert lines == expected, lines
