# SPDX-License-Identifier: Apache-2.0
"""Shipped YAML, code defaults, QoS profiles and status levels agree."""

import os

from ament_index_python.packages import get_package_share_directory
from hb50_commons.msg import RobotState, Status
from hb50_nodes import control_core, levels, params, qos
from rclpy.qos import DurabilityPolicy, HistoryPolicy, ReliabilityPolicy
import yaml


def test_yaml_equals_code_defaults():
    path = os.path.join(get_package_share_directory('hb50_nodes'), 'config', 'hb50.yaml')
    with open(path) as f:
        shipped = yaml.safe_load(f)
    assert set(shipped) == set(params.NODE_CONFIGS)
    for node, classes in params.NODE_CONFIGS.items():
        assert shipped[node]['ros__parameters'] == params.defaults(classes), node


def test_qos_profiles_match_vendor_definition():
    assert (qos.MAB_RT.history, qos.MAB_RT.depth, qos.MAB_RT.reliability,
            qos.MAB_RT.durability) == (HistoryPolicy.KEEP_LAST, 1, ReliabilityPolicy.BEST_EFFORT,
                                       DurabilityPolicy.VOLATILE)
    assert (qos.RELIABLE.history, qos.RELIABLE.depth, qos.RELIABLE.reliability,
            qos.RELIABLE.durability) == (HistoryPolicy.KEEP_LAST, 10, ReliabilityPolicy.RELIABLE,
                                         DurabilityPolicy.VOLATILE)


def test_level_and_enum_mirrors_equal_message_constants():
    assert [bytes([v]) for v in (levels.OK, levels.WARN, levels.ERROR, levels.STALE)] == \
        [Status.OK, Status.WARN, Status.ERROR, Status.STALE]
    pairs = [(control_core.MODE_IDLE, RobotState.MOTION_MODE_IDLE),
             (control_core.MODE_STAND_UP, RobotState.MOTION_MODE_STAND_UP),
             (control_core.MODE_STAND, RobotState.MOTION_MODE_STAND),
             (control_core.MODE_LOCOMOTION, RobotState.MOTION_MODE_LOCOMOTION),
             (control_core.MODE_DAMPING, RobotState.MOTION_MODE_DAMPING),
             (control_core.TYPE_STATIC, RobotState.MOTION_TYPE_STATIC),
             (control_core.TYPE_DYNAMIC, RobotState.MOTION_TYPE_DYNAMIC),
             (control_core.GAIT_IDLE, RobotState.MOTION_GAIT_IDLE),
             (control_core.GAIT_STAND, RobotState.MOTION_GAIT_STAND),
             (control_core.GAIT_WALK, RobotState.MOTION_GAIT_WALK),
             (control_core.GAIT_RUN, RobotState.MOTION_GAIT_RUN)]
    for mine, theirs in pairs:
        assert bytes([mine]) == theirs
