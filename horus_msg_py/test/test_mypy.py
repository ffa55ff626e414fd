# SPDX-License-Identifier: Apache-2.0
"""mypy --strict over horus_msg_py (and the horus_testing helpers): the types hold."""

from pathlib import Path
import subprocess
import sys

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope='module')
def cache_dir(tmp_path_factory):
    """One mypy cache for both runs: numpy's stubs are analysed once."""
    return tmp_path_factory.mktemp('mypy_cache')


@pytest.mark.linter
def test_mypy_strict(tmp_path, cache_dir):
    # The rosidl-generated message packages (sensor_msgs, nav_msgs, ...) and the
    # horus-robotics peer ship no type stubs: their classes are Any here. Run outside
    # the source tree, whose folders mypy could take for packages.
    result = subprocess.run(
        [sys.executable, '-m', 'mypy', '--strict', '--ignore-missing-imports',
         '--cache-dir', str(cache_dir),
         str(ROOT / 'horus_msg_py'), str(ROOT / 'horus_testing')],
        capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


USER_CODE = """
from horus_msg_py import LaserScan, Odometry, shm
scan = LaserScan.from_bytes(bytes(LaserScan.SIZE))
reveal_type(scan)
reveal_type(scan.ranges)
reveal_type(scan.timestamp_ns)
odom = Odometry(frame_id='odom')
reveal_type(odom.pose.theta)
reveal_type(odom.child_frame_id)
odom.pose = {'x': 1.0}
odom.pose_covariance = [0.0] * 36
scan.timestamp_ns = 'late'
reveal_type(shm.ShmTopicReader('LaserScan', 'scan').recv_many(8))
"""


@pytest.mark.linter
def test_user_code_sees_the_field_types(tmp_path, cache_dir):
    # What a user type-checking code against the installed package gets: real types, not
    # Any, and a wrongly typed assignment flagged.
    (tmp_path / 'user.py').write_text(USER_CODE)
    result = subprocess.run(
        [sys.executable, '-m', 'mypy', '--strict', '--ignore-missing-imports',
         '--cache-dir', str(cache_dir), 'user.py'],
        capture_output=True, text=True, timeout=300, cwd=tmp_path)
    lines = [line.split(': ', 1)[1] for line in result.stdout.splitlines()
             if line.startswith('user.py:')]
    expected = [
        'note: Revealed type is "horus_msg_py.messages.LaserScan"',
        'note: Revealed type is "numpy.ndarray[Any, numpy.dtype[numpy.floating[',  # float32
        'note: Revealed type is "int"',
        'note: Revealed type is "float"',
        'note: Revealed type is "str"',
        'error: Incompatible types in assignment (expression has type "str", variable has '
        'type "SupportsIndex")',
        'note: Revealed type is "list[bytes]"',
    ]
    assert len(lines) == len(expected), result.stdout + result.stderr
    for line, start in zip(lines, expected):
        assert line.startswith(start), result.stdout + result.stderr
    assert '32Bit' in lines[1]
