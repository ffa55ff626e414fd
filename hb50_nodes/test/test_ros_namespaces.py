# SPDX-License-Identifier: Apache-2.0
"""
Two simulated HB50 robots side by side on one domain, in /robot1 and /robot2.

Each is the composed hb50_stack started with `-r __ns:=/robotN` and the shipped parameter
file (its `/**/<node>` keys match the nodes in any namespace). Each robot's topics exist only
under its namespace, each stands up on its own command stream, a velocity command sent to
/robot1 moves robot1 only, and each robot's heartbeat monitor keeps both of its nodes OK.
With `frame_prefix:=robotN/` their state publishers give two disjoint TF trees, and robot1's
`odom -> body` moves as its RobotState pose does while it trots.
"""

import math
import os
import time

from ament_index_python.packages import get_package_share_directory
from hb50_nodes import levels, topics
from hb50_nodes.control_core import MODE_LOCOMOTION, MODE_STAND
import pytest
import rosharness as rh

ROBOTS = ('/robot1', '/robot2')
NODES = ('bridge_node', 'control_node', 'heartbeat_monitor')


@pytest.fixture(scope='module')
def robots(domain_id):
    params = os.path.join(get_package_share_directory('hb50_nodes'), 'config', 'hb50.yaml')
    procs = {ns: rh.start('hb50_stack', '-r', f'__ns:={ns}', '--params-file', params,
                          '-p', f'frame_prefix:={ns[1:]}/')
             for ns in ROBOTS}
    # 10 Hz and event topics only: two stacks already run four 500 Hz loops.
    probe = rh.Probe(topics=(topics.ROBOT_STATE_10HZ, topics.BRIDGE_STATE_10HZ, topics.STATUS,
                             topics.HEARTBEAT), namespaces=ROBOTS)
    try:
        assert rh.wait_for(lambda: all(_standing(probe, ns) for ns in ROBOTS), 40.0), \
            {ns: rh.stop(proc).output[-2000:] for ns, proc in procs.items()}
        yield probe, procs
    finally:
        probe.close()
        for proc in procs.values():
            code, out, _ = rh.stop(proc)
            assert code == 0 and 'Traceback' not in out, out[-3000:]


def _standing(probe, ns):
    state = probe.latest(topics.ROBOT_STATE_10HZ, ns)
    bridge = probe.latest(topics.BRIDGE_STATE_10HZ, ns)
    return (state is not None and bridge is not None and bridge.drives_enabled
            and state.motion_mode[0] == MODE_STAND)


def test_each_robot_has_its_topics_and_nodes_only_under_its_namespace(robots):
    probe, _ = robots
    node = probe.node
    expected = {f'{ns}/{topic}': [row.type_name]
                for ns in ROBOTS for topic, row in topics.TOPICS.items()}

    def graph_topics():
        return dict(node.get_topic_names_and_types())
    # The graph is complete once every expected topic was discovered.
    rh.wait_for(lambda: all(graph_topics().get(n) == t for n, t in expected.items()), 10.0)
    names = graph_topics()
    for name, types in expected.items():
        assert names.get(name) == types, name
    # No HB50 topic anywhere else: not in /hb50, not in the root namespace.
    elsewhere = [n for n in names
                 if n.rsplit('/', 1)[-1] in topics.TOPICS and n.rsplit('/', 1)[0] not in ROBOTS]
    assert not elsewhere, elsewhere
    graph = set(node.get_node_names_and_namespaces())
    for ns in ROBOTS:
        assert {(name, ns) for name in NODES} <= graph
    assert not [n for n in graph if n[1] == topics.DEFAULT_NAMESPACE]


def test_each_robot_stands_on_its_own_command_stream(robots):
    probe, _ = robots
    for ns in ROBOTS:
        # The bridge of each robot hears the control_node of that robot, and no other.
        publishers = {(i.node_name, i.node_namespace)
                      for i in probe.node.get_publishers_info_by_topic(f'{ns}/joint_command')
                      if i.node_name != probe.node.get_name()}
        assert publishers == {('control_node', ns)}, (ns, publishers)
        readers = {(i.node_name, i.node_namespace)
                   for i in probe.node.get_subscriptions_info_by_topic(f'{ns}/joint_command')}
        assert readers == {('bridge_node', ns)}, (ns, readers)
        assert _standing(probe, ns)


def test_a_velocity_command_to_robot1_moves_robot1_only(robots):
    from geometry_msgs.msg import Twist
    probe, _ = robots
    twist = Twist()
    twist.linear.x = 0.5
    t0 = time.monotonic()
    end = t0 + 15.0

    def walking(ns):
        return any(m.motion_mode[0] == MODE_LOCOMOTION and m.body_vel.linear.x > 0.1
                   for m in probe.since(topics.ROBOT_STATE_10HZ, t0, ns))

    while time.monotonic() < end and not walking('/robot1'):
        probe.twist_pubs['/robot1'].publish(twist)
        time.sleep(0.05)
    assert walking('/robot1')
    # robot2 kept standing still the whole time.
    other = probe.since(topics.ROBOT_STATE_10HZ, t0, '/robot2')
    assert other and all(m.motion_mode[0] == MODE_STAND for m in other)
    assert max(abs(m.body_vel.linear.x) for m in other) < 0.05


def test_each_robots_heartbeats_keep_both_robots_ok(robots):
    probe, _ = robots
    t0 = time.monotonic()
    assert rh.wait_for(lambda: all(
        {m.reporting_node for m in probe.since(topics.HEARTBEAT, t0, ns)} >= set(NODES)
        for ns in ROBOTS), 5.0)
    # Longer than the monitors' stale timeout (1 s) plus a check period.
    time.sleep(max(0.0, t0 + 2.0 - time.monotonic()))
    for ns in ROBOTS:
        beats = probe.since(topics.HEARTBEAT, t0, ns)
        assert {m.reporting_node for m in beats} >= set(NODES), ns
        assert all(m.level[0] == levels.OK for m in beats), ns
        # Each monitor hears its own robot's nodes: none of them went STALE.
        assert not probe.statuses(t0, levels.STALE, ns=ns), ns


def test_two_disjoint_tf_trees_and_odom_follows_the_pose_while_trotting(robots):
    import rclpy
    from geometry_msgs.msg import Twist
    from hb50_commons.msg import RobotState
    from hb50_nodes import qos
    from rclpy.executors import SingleThreadedExecutor
    from sensor_msgs.msg import JointState
    from state_publisher_common.qos import TF_QOS
    from tf2_msgs.msg import TFMessage
    probe, _ = robots
    ctx = rclpy.Context()
    ctx.init()
    node = rclpy.create_node('tf_test', context=ctx)
    tf, poses, joint_states = {}, {}, []
    still = {'joint_states': [], 'robot_state': []}     # robot2, standing the whole time

    def on_tf(msg):
        for t in msg.transforms:
            tf.setdefault((t.header.frame_id, t.child_frame_id), []).append(t)

    def on_state(msg):
        stamp = (msg.header.stamp.sec, msg.header.stamp.nanosec)
        poses[stamp] = (msg.pose.position.x, msg.pose.position.y, msg.pose.position.z)
    node.create_subscription(TFMessage, '/tf', on_tf, TF_QOS)
    node.create_subscription(RobotState, '/robot1/robot_state', on_state, qos.MAB_RT)
    node.create_subscription(JointState, '/robot1/joint_states', joint_states.append,
                             qos.RELIABLE)
    node.create_subscription(JointState, '/robot2/joint_states', still['joint_states'].append,
                             qos.RELIABLE)
    node.create_subscription(RobotState, '/robot2/robot_state_10hz', still['robot_state'].append,
                             qos.RELIABLE)
    executor = SingleThreadedExecutor(context=ctx)
    executor.add_node(node)
    twist = Twist()
    twist.linear.x = 0.5
    try:
        end = time.monotonic() + 6.0
        while time.monotonic() < end:
            probe.twist_pubs['/robot1'].publish(twist)
            executor.spin_once(timeout_sec=0.02)
    finally:
        executor.shutdown()
        node.destroy_node()
        ctx.try_shutdown()
    frames = [{f for pair in tf for f in pair if f.startswith(ns[1:] + '/')} for ns in ROBOTS]
    legs = {f'{leg}_{part}' for leg in ('fr', 'fl', 'rl', 'rr') for part in ('l0', 'l1', 'l2')}
    for ns, own in zip(ROBOTS, frames):
        assert {f'{ns[1:]}/{f}' for f in legs | {'odom', 'body'}} <= own, ns
    assert not frames[0] & frames[1]
    assert all(f.startswith(('robot1/', 'robot2/')) for pair in tf for f in pair)
    # robot1's odom -> body is its RobotState pose at the same stamp, and it moved.
    odom = tf[('robot1/odom', 'robot1/body')]
    matched = [(t, poses[(t.header.stamp.sec, t.header.stamp.nanosec)]) for t in odom
               if (t.header.stamp.sec, t.header.stamp.nanosec) in poses]
    assert len(matched) >= 5, (len(odom), len(poses))
    for t, pose in matched:
        p = t.transform.translation
        assert abs(p.x - pose[0]) + abs(p.y - pose[1]) + abs(p.z - pose[2]) <= 1e-6
    first, last = matched[0][0].transform.translation, matched[-1][0].transform.translation
    assert math.hypot(last.x - first.x, last.y - first.y) > 0.05     # it trotted forward
    # At live joint_states samples of the trotting robot, Pinocchio's FK of the installed URDF
    # equals the leg chain published on /tf with the same stamp (<= 1 mm, <= 1 mrad).
    checked = _check_fk_at_live_samples(joint_states, tf, 'robot1/')
    assert checked >= 5, (checked, len(joint_states))
    # RobotState's foot_pos_body comes from the same kinematics: on the standing robot2 its
    # newest estimate equals Pinocchio's foot frames at the newest joint_states (<= 1 mm).
    assert still['joint_states'] and still['robot_state']
    _check_feet_equal_fk(still['joint_states'][-1], still['robot_state'][-1])


def _urdf_frames(joint_state):
    """Pinocchio's frames of the installed URDF at a joint_states sample: (model, data)."""
    import numpy as np
    import pinocchio
    from hb50_nodes import description
    model = pinocchio.buildModelFromUrdf(description.urdf_path())
    data = model.createData()
    q = np.zeros(model.nq)
    for name, value in zip(joint_state.name, joint_state.position):
        q[model.joints[model.getJointId(name)].idx_q] = value
    pinocchio.framesForwardKinematics(model, data, q)
    return model, data


def _check_feet_equal_fk(joint_state, robot_state):
    import numpy as np
    from hb50_nodes import description
    model, data = _urdf_frames(joint_state)
    assert [leg.leg_name.lower() for leg in robot_state.leg] == list(description.LEGS)
    for leg in robot_state.leg:
        p = leg.foot_pos_body
        expected = data.oMf[model.getFrameId(f'{leg.leg_name.lower()}_foot')].translation
        assert np.linalg.norm(np.array([p.x, p.y, p.z]) - expected) <= 1e-3, leg.leg_name


def _check_fk_at_live_samples(joint_states, tf, prefix):
    """Compare FK with every sample whose whole leg chain was received; return how many."""
    import numpy as np
    import pinocchio
    from hb50_nodes import description
    links = [(leg, ('body', f'{leg}_l0', f'{leg}_l1', f'{leg}_l2')) for leg in description.LEGS]
    pairs = [(prefix + a, prefix + b) for _, chain in links for a, b in zip(chain, chain[1:])]
    by_stamp = {}
    for pair, transforms in tf.items():
        for t in transforms:
            by_stamp.setdefault((t.header.stamp.sec, t.header.stamp.nanosec), {})[pair] = t
    checked = 0
    for js in joint_states:
        received = by_stamp.get((js.header.stamp.sec, js.header.stamp.nanosec), {})
        if not all(pair in received for pair in pairs):
            continue
        model, data = _urdf_frames(js)
        for _, chain in links:
            pose = pinocchio.SE3.Identity()
            for parent, child in zip(chain, chain[1:]):
                t = received[(prefix + parent, prefix + child)]
                r, p = t.transform.rotation, t.transform.translation
                pose = pose * pinocchio.SE3(pinocchio.Quaternion(r.w, r.x, r.y, r.z).matrix(),
                                            np.array([p.x, p.y, p.z]))
                expected = data.oMf[model.getFrameId(child)]
                assert np.linalg.norm(pose.translation - expected.translation) <= 1e-3
                assert np.linalg.norm(pinocchio.log3(pose.rotation.T @ expected.rotation)) <= 1e-3
        checked += 1
    return checked
