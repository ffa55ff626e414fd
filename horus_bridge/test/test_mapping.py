# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
from horus_bridge.mapping import MappingError, parse_horus_to_ros, parse_ros_to_horus
from horus_bridge.qos import bridge_qos
import pytest
from rclpy.qos import ReliabilityPolicy


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


def test_qos():
    assert bridge_qos(5, 'best_effort').reliability == ReliabilityPolicy.BEST_EFFORT
    with pytest.raises(ValueError):
        bridge_qos(5, 'sometimes')


def test_shipped_config_is_valid():
    import os
    import yaml
    from ament_index_python.packages import get_package_share_directory
    from horus_bridge.bridge_node import PARAMETERS
    path = os.path.join(get_package_share_directory('horus_bridge'), 'config',
                        'horus_bridge.yaml')
    params = yaml.safe_load(open(path))['horus_bridge']['ros__parameters']
    assert set(params) == set(PARAMETERS)      # every parameter documented, none unknown
    assert parse_horus_to_ros(params['horus_to_ros'], params['default_frame_id'])
    assert parse_ros_to_horus(params['ros_to_horus'])
