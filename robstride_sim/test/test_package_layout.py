# SPDX-License-Identifier: Apache-2.0
"""
The installed package layout: config documents every parameter, README installed.

Launch files are checked workspace-wide by workspace_tests/test_launch_files.py.
"""
import os

from ament_index_python.packages import get_package_share_directory

SHARE = get_package_share_directory('robstride_sim')


def test_config_and_readme_installed():
    import yaml
    with open(os.path.join(SHARE, 'config', 'robstride_sim.yaml')) as f:
        doc = yaml.safe_load(f)
    params = doc['/**/robstride_hardware_interface']['ros__parameters']
    from robstride_sim.node import sim_parameters, STARTUP_PARAMETERS
    expected = {p.name for p in STARTUP_PARAMETERS + sim_parameters(2)}
    assert set(params) == expected          # every parameter documented, nothing stale
    assert os.path.isfile(os.path.join(SHARE, 'README.md'))
