# SPDX-License-Identifier: Apache-2.0
"""mypy --strict over launch_ros: the types of its public API hold (py.typed)."""

from pathlib import Path

import launch
import pytest
from workspace_testing.mypy_strict import mypy_strict, user_code_lines

ROOT = Path(__file__).resolve().parents[1]

# launch_ros's classes derive from launch's: without launch's py.typed (an installed launch
# built before it had one) they would all be Any
pytestmark = pytest.mark.skipif(
    not (Path(launch.__file__).parent / 'py.typed').exists(),
    reason='the installed launch has no py.typed (rebuild launch)')


@pytest.fixture(scope='module')
def cache_dir(tmp_path_factory):
    """One mypy cache for both runs: the standard library's stubs are analysed once."""
    return tmp_path_factory.mktemp('mypy_cache')


@pytest.mark.linter
def test_mypy_strict(tmp_path, cache_dir):
    # Run outside the source tree, whose folders mypy could take for packages.
    result = mypy_strict(tmp_path, str(ROOT / 'launch_ros'), cache_dir=cache_dir)
    assert result.returncode == 0, result.stdout + result.stderr


USER_CODE = """
from launch_ros.actions import LifecycleNode
from launch_ros.events.lifecycle import ChangeState, matches_node_name
from launch_ros.ros_adapters import get_ros_adapter
reveal_type(ChangeState.valid_transitions)
reveal_type(matches_node_name('/talker'))
reveal_type(LifecycleNode.is_lifecycle_node)
reveal_type(get_ros_adapter)
matches_node_name(3)
"""


@pytest.mark.linter
def test_user_code_sees_the_types(tmp_path, cache_dir):
    # What a user type-checking code against the installed package gets: real types, not
    # Any, and a wrongly typed argument flagged.
    lines = user_code_lines(tmp_path, USER_CODE, cache_dir)
    expected = [
        'note: Revealed type is "dict[int, str]"',
        'note: Revealed type is "def (Any) -> bool"',
        'note: Revealed type is "bool"',
        'note: Revealed type is "def (context: Any) -> launch_ros.ros_adapters.ROSAdapter"',
        'error: Argument 1 to "matches_node_name" has incompatible type "int"; expected "str"'
        '  [arg-type]',
    ]
    assert lines == expected, lines
