# SPDX-License-Identifier: Apache-2.0
"""
The nodes' parameters, on real rclpy nodes in this process.

Every parameter has a descriptor (description with its unit, range or choices, read_only for
the start-up ones). Setting a run-time parameter changes what the node does (a command above
the old kp_max and under the new one is then accepted); setting a read-only one, or a value
out of range or inconsistent with another parameter, is refused and changes nothing. A bad
start-up value stops the node with a one-line error (exit 2 of the executable).
"""

import io
import time

from geometry_msgs.msg import Twist
from hb50_commons.msg import JointCommand
from hb50_nodes import levels, params
from hb50_nodes.bridge_node import BridgeNode
from hb50_nodes.control_node import ControlNode
from hb50_nodes.heartbeat_monitor import HeartbeatMonitor
from hb50_nodes.layout import JOINT_NAMES, NUM_JOINTS
from hb50_nodes.live_view import LiveView
import pytest
import rclpy
from rclpy.parameter import Parameter
from rclpy.serialization import serialize_message
import rosharness as rh

NODES = {BridgeNode: params.BRIDGE, ControlNode: params.CONTROL,
         HeartbeatMonitor: params.MONITOR, LiveView: params.VIEW}
# Declared by rclpy itself, not by our tables.
RCLPY_OWN = {'use_sim_time', 'start_type_description_service'}


@pytest.fixture
def context(domain_id):
    ctx = rclpy.Context()
    ctx.init()
    nodes = []
    yield ctx, nodes
    for node in nodes:
        node.destroy_node()
    ctx.try_shutdown()


def _node(context, cls, **kwargs):
    ctx, nodes = context
    if cls is LiveView:
        kwargs['out'] = io.StringIO()
    node = cls(context=ctx, **kwargs)
    nodes.append(node)
    return node


def _set(node, **values):
    """Set parameters as `ros2 param set` does, one by one; return the results."""
    return node.set_parameters([Parameter(name, value=value) for name, value in values.items()])


def _command(kp):
    return serialize_message(JointCommand(
        source_node='control_node', name=list(JOINT_NAMES), kp=[kp] * NUM_JOINTS,
        ki=[0.0] * NUM_JOINTS, kd=[1.0] * NUM_JOINTS, t_pos=[0.0] * NUM_JOINTS,
        t_vel=[0.0] * NUM_JOINTS, t_trq=[0.0] * NUM_JOINTS, brake=[False] * NUM_JOINTS))


@pytest.mark.parametrize('cls', NODES, ids=[cls.__name__ for cls in NODES])
def test_every_parameter_has_a_descriptor(context, cls):
    node = _node(context, cls)
    table = {p.name: p for p in params.table(NODES[cls])}
    declared = set(node.list_parameters([], 0).names) - RCLPY_OWN
    assert declared == set(table)
    run_time = set()
    for d in node.describe_parameters(sorted(table)):
        assert d.description == table[d.name].description and d.description, d.name
        if d.type in (Parameter.Type.DOUBLE.value, Parameter.Type.INTEGER.value):
            assert d.floating_point_range or d.integer_range, d.name
        if not d.read_only:
            run_time.add(d.name)
    assert run_time == {name for name, doc in params.DOCS.items()
                        if doc.run_time and name in table}
    assert node.get_namespace() == '/hb50'


def test_kp_max_set_at_run_time_takes_effect(context):
    node = _node(context, BridgeNode)
    node.on_command(_command(600.0))
    assert (node.core.rejected, node.core.applied) == (1, 0)
    (result,) = _set(node, kp_max=700.0)
    assert result.successful, result.reason
    assert node.get_parameter('kp_max').value == 700.0 and node.core.limits.kp_max == 700.0
    # The same bytes again (the node caches the previous validation result): now accepted.
    node.on_command(_command(600.0))
    assert (node.core.rejected, node.core.applied) == (1, 1)
    assert node.core.command.kp.tolist() == [600.0] * NUM_JOINTS
    node.on_command(_command(800.0))
    assert (node.core.rejected, node.core.applied) == (2, 1)


def test_damping_and_arbitration_parameters_take_effect(context):
    node = _node(context, BridgeNode)
    assert node.core.command is node.core.damping       # no command yet: safe damping
    assert all(result.successful for result in _set(node, damping_kd=3.0, command_timeout=0.5,
                                                    custom_min_rate=20.0))
    assert node.core.command.kd.tolist() == [3.0] * NUM_JOINTS
    assert node.core.cfg.command_timeout == 0.5
    assert node.core.arbiter.max_gap == pytest.approx(1.5 / 20.0)


@pytest.mark.parametrize('cls,name,value', [
    (BridgeNode, 'rate', 100.0), (BridgeNode, 'physics_engine', 'simple'),
    (BridgeNode, 'joint_names', ['a'] * NUM_JOINTS), (BridgeNode, 'velocity_limit', 5.0),
    (ControlNode, 'kp', 10.0), (ControlNode, 'stand_height', 0.2),
    (HeartbeatMonitor, 'expected_nodes', ['x']), (LiveView, 'refresh_rate', 5.0)])
def test_setting_a_start_up_parameter_is_refused(context, cls, name, value):
    node = _node(context, cls)
    before = node.get_parameter(name).value
    (result,) = _set(node, **{name: value})
    assert not result.successful and 'read-only' in result.reason, result.reason
    assert node.get_parameter(name).value == before


def test_out_of_range_or_inconsistent_values_are_refused(context):
    node = _node(context, BridgeNode)
    limits = node.core.limits
    for name, value, reason in (
            # rclpy checks the descriptor's range first.
            ('kp_max', -1.0, 'Parameter kp_max out of range'),
            ('kd_max', float('nan'), 'Parameter kd_max out of range'),
            ('position_min', [2.0, 0.0, 0.0], 'position_min[0]=2 is above position_max[0]=1'),
            ('position_max', [1.0, 3.0], "parameter 'position_max': 2 entries")):
        (result,) = _set(node, **{name: value})
        assert not result.successful and reason in result.reason, (name, result.reason)
    assert node.core.limits is limits
    (result,) = _set(node, position_max=[1.0, 3.0, 0.8])
    assert result.successful and node.core.limits.position_max == (1.0, 3.0, 0.8)


def test_control_speed_limit_set_at_run_time_scales_the_velocity_command(context):
    node = _node(context, ControlNode)
    (result,) = _set(node, cmd_vel_lin=0.25)
    assert result.successful, result.reason
    twist = Twist()
    twist.linear.x = 1.0
    node.on_velocity(twist)
    assert node.core.cmd.vx == 0.25


def test_monitor_stale_timeout_set_at_run_time_takes_effect(context):
    node = _node(context, HeartbeatMonitor)
    now = time.monotonic()
    assert node.tracker.check(now + 0.5) == []      # 1 s by default
    (result,) = _set(node, stale_timeout=0.3)
    assert result.successful, result.reason
    events = node.tracker.check(now + 0.5)
    assert {(level, name) for level, name, _ in events} == {
        (levels.STALE, 'bridge_node'), (levels.STALE, 'control_node')}


def test_a_bad_start_up_value_is_a_one_line_error(context):
    with pytest.raises(ValueError, match=r"^parameter 'loop_mode': 'fast' is not one of "
                                         r'loop, thread, timer$'):
        _node(context, BridgeNode, parameter_overrides=[Parameter('loop_mode', value='fast')])
    with pytest.raises(ValueError, match=r'^position_min\[1\]=4 is above position_max\[1\]=3$'):
        _node(context, BridgeNode,
              parameter_overrides=[Parameter('position_min', value=[-1.0, 4.0, -3.0])])


def test_the_executable_exits_2_with_the_error(domain_id):
    proc = rh.start('bridge_node', '-p', 'rate:=-5.0')
    proc.wait(30.0)
    code, out, _ = rh.stop(proc)
    assert code == 2, out
    (line,) = [line for line in out.splitlines() if 'configuration error: ' in line]
    assert line.startswith("bridge_node: configuration error: parameter 'rate': ") \
        and 'out of range' in line, out
    assert 'Traceback' not in out
