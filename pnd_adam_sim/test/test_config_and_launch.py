# SPDX-License-Identifier: Apache-2.0
import os

from ament_index_python.packages import get_package_share_directory
from pnd_adam_sim.simulator import _parse_args, load_config
import pytest

SHARE = get_package_share_directory('pnd_adam_sim')


def test_shipped_config_loads_and_overrides_apply():
    path = os.path.join(SHARE, 'config', 'adam_sim.yaml')
    cfg = load_config(path)
    assert cfg['rate_hz'] == 500.0 and cfg['domain_id'] == 2
    assert cfg['model']['hand_speed'] == 2000.0
    cfg = load_config(path, {'domain_id': 51, 'rate_hz': None})
    assert cfg['domain_id'] == 51 and cfg['rate_hz'] == 500.0


def test_bad_config_rejected(tmp_path):
    p = tmp_path / 'bad.yaml'
    p.write_text('rate: 5\n')
    with pytest.raises(ValueError, match='unknown keys'):
        load_config(str(p))
    p.write_text('model: {joint_mass: 1}\n')
    with pytest.raises(ValueError, match='unknown model keys'):
        load_config(str(p))
    with pytest.raises(ValueError, match='rate_hz must be > 0'):
        load_config(None, {'rate_hz': 0})


def test_ros_args_from_launch_are_ignored():
    a = _parse_args(['--domain', '3', '--ros-args', '-r', '__node:=adam_sim'])
    assert a.domain_id == 3
