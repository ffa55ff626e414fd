# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
from horus_bridge.mapping import MappingError, parse_horus_to_ros, parse_ros_to_horus
import pytest


def test_parse_routes():
    routes = parse_horus_to_ros(['LaserScan:lidar.scan:/scan:laser', 'Imu:imu:/imu', ''],
                                default_frame_id='base')
    assert [(r.type_name, r.horus_topic, r.ros_topic, r.frame_id) for r in routes] == [
        ('LaserScan', 'lidar.scan', '/scan', 'laser'), ('Imu', 'imu', '/imu', 'base')]
    back = parse_ros_to_horus(['JointState:/joint_states:arm/joints'])
    assert (back[0].ros_topic, back[0].horus_topic) == ('/joint_states', 'arm/joints')


@pytest.mark.parametrize('entry', ['Lidar:a:/b', 'LaserScan:a', 'LaserScan::/b',
                                   'LaserScan:a:/b:' + 'f' * 32, 'Imu:a:/b:c:d'])
def test_bad_entries_are_named_errors(entry):
    with pytest.raises(MappingError):
        parse_horus_to_ros([entry])


def test_duplicates_rejected():
    with pytest.raises(MappingError, match='twice'):
        parse_horus_to_ros(['Imu:a:/x', 'Imu:b:/x'])
    with pytest.raises(MappingError, match='twice'):
        parse_ros_to_horus(['Imu:/a:x', 'Imu:/b:x'])


def test_shipped_config_is_valid():
    import os
    import yaml
    from ament_index_python.packages import get_package_share_directory
    from horus_bridge.bridge_node import PARAMETERS
    path = os.path.join(get_package_share_directory('horus_bridge'), 'config',
                        'horus_bridge.yaml')
    with open(path) as f:
        params = yaml.safe_load(f)['horus_bridge']['ros__parameters']
    overrides = params.pop('qos_overrides')
    # every parameter documented, none unknown; defaults but for the example routes
    routes = ('horus_to_ros', 'ros_to_horus', 'default_frame_id')
    assert {k: v for k, v in params.items() if k not in routes} == {
        p.name: p.value_default() for p in PARAMETERS if p.name not in routes}
    assert set(routes) <= set(params)
    inbound = parse_horus_to_ros(params['horus_to_ros'], params['default_frame_id'])
    outbound = parse_ros_to_horus(params['ros_to_horus'])
    assert inbound and outbound
    # one QoS entry per routed topic, with the bridge's default QoS
    topics = {r.ros_topic: 'publisher' for r in inbound}
    topics.update({r.ros_topic: 'subscription' for r in outbound})
    assert overrides == {topic: {kind: {'history': 'keep_last', 'depth': 10,
                                        'reliability': 'reliable'}}
                         for topic, kind in topics.items()}


def test_readme_table_lists_every_parameter():
    import pathlib
    import re
    from ament_index_python.packages import get_package_share_directory
    from horus_bridge.bridge_node import PARAMETERS
    readme = pathlib.Path(get_package_share_directory('horus_bridge')) / 'README.md'
    rows = re.findall(r'^\| `([a-z_.]+)` \| `[^|]*` \| (start-up|run time) \|',
                      readme.read_text(), re.MULTILINE)
    assert rows == [(p.name, 'start-up' if p.read_only else 'run time') for p in PARAMETERS]
