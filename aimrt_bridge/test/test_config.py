# SPDX-License-Identifier: Apache-2.0
"""
The installed config names every declared parameter with its default, and its QoS overrides.

Launch files are checked workspace-wide by workspace_tests/test_launch_files.py.
"""
import pathlib

from ament_index_python.packages import get_package_share_directory

SHARE = pathlib.Path(get_package_share_directory('aimrt_bridge'))


def test_config_installed_and_names_every_declared_parameter():
    import yaml
    from aimrt_bridge.bridge_node import PARAMETERS
    cfg = yaml.safe_load((SHARE / 'config' / 'aimrt_bridge.yaml').read_text())
    params = dict(cfg['aimrt_bridge']['ros__parameters'])
    overrides = params.pop('qos_overrides')
    assert params == {p.name: p.value_default() for p in PARAMETERS}
    # one entry per default topic, with rclpy's default QoS of the bridge
    topics = {'/' + t: 'publisher' for t in params['state_ros_topics']}
    topics.update({'/' + t: 'subscription' for t in params['command_ros_topics']})
    assert overrides == {topic: {kind: {'history': 'keep_last', 'depth': 10,
                                        'reliability': 'reliable'}}
                         for topic, kind in topics.items()}


def test_every_parameter_says_what_it_is():
    from aimrt_bridge.bridge_node import PARAMETERS
    for p in PARAMETERS:
        d = p.descriptor()
        assert d.name == p.name and len(d.description) > 20, p.name
        # start-up parameters are read-only; these two act at run time
        assert d.read_only == (p.name not in ('accept_unknown_fields', 'log_period_sec'))
    units = {p.name: p.description for p in PARAMETERS}
    assert '[s]' in units['http_timeout_sec'] and '[bytes]' in units['http_max_body_bytes']


def test_readme_table_lists_every_parameter():
    import re
    from aimrt_bridge.bridge_node import PARAMETERS
    rows = re.findall(r'^\| `([a-z_.]+)` \| `[^|]*` \| (start-up|run time) \|',
                      (SHARE / 'README.md').read_text(), re.MULTILINE)
    assert rows == [(p.name, 'start-up' if p.read_only else 'run time') for p in PARAMETERS]
