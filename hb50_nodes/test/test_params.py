# SPDX-License-Identifier: Apache-2.0
"""Shipped YAML, code defaults, QoS profiles and status levels agree."""

import os

from ament_index_python.packages import get_package_share_directory
from hb50_commons.msg import RobotState, Status
from hb50_nodes import control_core, levels, params, qos
import pytest
from rclpy.qos import DurabilityPolicy, HistoryPolicy, ReliabilityPolicy
import yaml


def test_yaml_equals_code_defaults():
    path = os.path.join(get_package_share_directory('hb50_nodes'), 'config', 'hb50.yaml')
    with open(path) as f:
        shipped = yaml.safe_load(f)
    # `/**/<node>`: the section matches the node in any namespace (/hb50, /robot1 ...).
    assert set(shipped) == {f'/**/{node}' for node in params.NODE_CONFIGS}
    for node, classes in params.NODE_CONFIGS.items():
        assert shipped[f'/**/{node}']['ros__parameters'] == params.defaults(classes), node


def test_typed_declarations_follow_the_class_tables():
    """declare_bridge/declare_control name the configs of BRIDGE/CONTROL in their order."""
    for named, classes in ((params.BridgeParams, params.BRIDGE),
                           (params.ControlParams, params.CONTROL)):
        assert [named.__annotations__[f] for f in named._fields] == list(classes)


@pytest.mark.parametrize('namespace', ['/hb50', '/robot2', '/'])
def test_wildcard_sections_of_the_shipped_file_reach_the_nodes_in_any_namespace(
        namespace, tmp_path):
    """The rcl parser applies `/**/<node>` sections to that node name in every namespace."""
    import rclpy
    path = os.path.join(get_package_share_directory('hb50_nodes'), 'config', 'hb50.yaml')
    with open(path) as f:
        shipped = yaml.safe_load(f)
    # The shipped file with one value changed per node, so that applied is told from default.
    shipped['/**/bridge_node']['ros__parameters']['kp_max'] = 321.0
    shipped['/**/control_node']['ros__parameters']['kp'] = 55.0
    shipped['/**/heartbeat_monitor']['ros__parameters']['stale_timeout'] = 0.75
    changed = tmp_path / 'hb50.yaml'
    changed.write_text(yaml.safe_dump(shipped))
    context = rclpy.Context()
    context.init(args=['--ros-args', '--params-file', str(changed)])
    try:
        for name, param, value in (('bridge_node', 'kp_max', 321.0), ('control_node', 'kp', 55.0),
                                   ('heartbeat_monitor', 'stale_timeout', 0.75)):
            node = rclpy.create_node(name, namespace=namespace, context=context,
                                     start_parameter_services=False)
            try:
                assert node.declare_parameter(param, 1.0).value == value, (name, namespace)
                assert node.get_fully_qualified_name() == f'{namespace.rstrip("/")}/{name}'
            finally:
                node.destroy_node()
    finally:
        context.try_shutdown()


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
