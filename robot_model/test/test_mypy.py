# SPDX-License-Identifier: Apache-2.0
"""mypy --strict over robot_model: the types of its public API hold."""

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
    # Run outside the source tree, whose folders mypy could take for packages.
    result = mypy_strict(tmp_path, str(ROOT / 'robot_model'), cache_dir=cache_dir)
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
    lines = user_code_lines(tmp_path, USER_CODE, cache_dir)
    expected = [
        'note: Revealed type is "tuple[float, float, float]"',
        'note: Revealed type is "tuple[float, float, float, float]"',
        'error: Argument 1 to "to_rpy" has incompatible type "tuple[float, float, float]"; '
        'expected "tuple[float, float, float, float]"  [arg-type]',
    ]
    assert lines == expected, lines
