# SPDX-License-Identifier: Apache-2.0
"""
The installed config names every declared parameter with its default.

Launch files are checked workspace-wide by workspace_tests/test_launch_files.py.
"""
import pathlib

from ament_index_python.packages import get_package_share_directory

SHARE = pathlib.Path(get_package_share_directory('aimrt_bridge'))


def test_config_installed_and_names_every_declared_parameter():
    import yaml
    from aimrt_bridge.bridge_node import PARAMETERS
    cfg = yaml.safe_load((SHARE / 'config' / 'aimrt_bridge.yaml').read_text())
    params = cfg['aimrt_bridge']['ros__parameters']
    assert params == PARAMETERS
