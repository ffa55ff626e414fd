# SPDX-License-Identifier: Apache-2.0
"""
state_publisher_node on ROS: /tf equals Pinocchio's FK, latching, bad input, namespaces.

Also publish_global_robot_description (the URDF on /robot_description too), in this process
and in hb50_stack started as scripts/hb50_run.sh starts it with FOXGLOVE=1.
"""

import os
import time

from ament_index_python.packages import get_package_share_directory
from builtin_interfaces.msg import Time
from hb50_commons.msg import BridgeData, RobotState, Status
from hb50_nodes import description, qos
from hb50_nodes.layout import JOINT_NAMES
from hb50_nodes.state_publisher_node import LATCHED, StatePublisher, TF_QOS
import numpy as np
import pinocchio
import pytest
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.parameter import Parameter
import rosharness
from sensor_msgs.msg import JointState
from std_msgs.msg import String
from tf2_msgs.msg import TFMessage

Q = np.array([0.2, 0.7, -1.4, -0.1, 0.9, -1.7, 0.3, 0.5, -1.1, -0.25, 1.1, -2.0])
STAMP = Time(sec=1234, nanosec=5678)


@pytest.fixture(scope='module')
def ros(domain_id):
    rclpy.init()
    yield
    rclpy.try_shutdown()


class Rig:
    """One state publisher, a source of bridge_data/robot_state and a listener."""

    def __init__(self, namespace='/hb50', prefix='', overrides=()):
        self.node = StatePublisher(namespace=namespace, parameter_overrides=[
            Parameter('frame_prefix', value=prefix), Parameter('publish_rate', value=50.0),
            *overrides])
        self.peer = rclpy.create_node('state_publisher_test', namespace=namespace)
        self.executor = SingleThreadedExecutor()
        self.executor.add_node(self.node)
        self.executor.add_node(self.peer)
        self.bridge = self.peer.create_publisher(BridgeData, 'bridge_data', qos.MAB_RT)
        self.state = self.peer.create_publisher(RobotState, 'robot_state', qos.MAB_RT)
        self.got = {'tf': [], 'joint_states': [], 'status': []}
        self.peer.create_subscription(TFMessage, '/tf', self.got['tf'].append, TF_QOS)
        self.peer.create_subscription(JointState, 'joint_states', self.got['joint_states'].append,
                                      qos.RELIABLE)
        self.peer.create_subscription(Status, 'status', self.got['status'].append, qos.RELIABLE)

    def spin_until(self, predicate, timeout=10.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end and not predicate():
            self.executor.spin_once(timeout_sec=0.02)
        return predicate()

    def latched(self, msg_type, topic):
        """Return what a new (late) subscriber of a latched topic gets at once."""
        got = []
        sub = self.peer.create_subscription(msg_type, topic, got.append, LATCHED)
        self.spin_until(lambda: got, 5.0)
        self.peer.destroy_subscription(sub)
        return got

    def send(self, q=Q, names=JOINT_NAMES, xyz=(1.0, 2.0, 0.3), quat=(0.0, 0.0, 0.0, 1.0)):
        bd = BridgeData()
        bd.header.stamp = STAMP
        bd.joint_name = list(names)
        bd.joint_position = [float(v) for v in q]
        rs = RobotState()
        rs.header.stamp = STAMP
        p, o = rs.pose.position, rs.pose.orientation
        p.x, p.y, p.z = xyz
        o.x, o.y, o.z, o.w = quat
        self.bridge.publish(bd)
        self.state.publish(rs)

    def close(self):
        self.executor.shutdown()
        self.node.destroy_node()
        self.peer.destroy_node()


@pytest.fixture
def rig(ros):
    r = Rig()
    yield r
    r.close()


def transforms(messages):
    """Return {(parent, child): transform} of the newest message per pair."""
    out = {}
    for msg in messages:
        for t in msg.transforms:
            out[(t.header.frame_id, t.child_frame_id)] = t
    return out


def matrix(t):
    r, p = t.transform.rotation, t.transform.translation
    quat = pinocchio.Quaternion(r.w, r.x, r.y, r.z)
    return pinocchio.SE3(quat.matrix(), np.array([p.x, p.y, p.z]))


def wait_for_tf(rig, count=13):
    rig.spin_until(lambda: len(transforms(rig.got['tf'])) >= count)
    return transforms(rig.got['tf'])


def test_tf_chain_equals_pinocchio_fk_and_stamps_are_the_sources(rig):
    assert rig.spin_until(lambda: (rig.send() or True) and len(transforms(rig.got['tf'])) >= 13)
    tf = transforms(rig.got['tf'])
    static = transforms(rig.latched(TFMessage, '/tf_static'))
    assert all(t.header.stamp == STAMP for t in list(tf.values()) + list(static.values()))
    assert set(static) == {(f'{leg}_l2', f'{leg}_foot') for leg in description.LEGS}
    model = pinocchio.buildModelFromUrdf(description.urdf_path())
    data = model.createData()
    q = np.zeros(model.nq)
    for name, value in zip(JOINT_NAMES, Q):
        q[model.joints[model.getJointId(name)].idx_q] = value
    pinocchio.framesForwardKinematics(model, data, q)
    for leg in description.LEGS:
        pose = pinocchio.SE3.Identity()
        parent = 'body'
        for child in (f'{leg}_l0', f'{leg}_l1', f'{leg}_l2', f'{leg}_foot'):
            pose = pose * matrix(tf.get((parent, child)) or static[(parent, child)])
            expected = data.oMf[model.getFrameId(child)]
            assert np.linalg.norm(pose.translation - expected.translation) <= 1e-3
            assert np.linalg.norm(pinocchio.log3(pose.rotation.T @ expected.rotation)) <= 1e-3
            parent = child
    odom = tf[('odom', 'body')].transform.translation
    assert (odom.x, odom.y, odom.z) == pytest.approx((1.0, 2.0, 0.3))
    js = rig.got['joint_states'][-1]
    assert list(js.name) == list(JOINT_NAMES) and js.header.stamp == STAMP
    assert np.allclose(js.position, Q, atol=1e-6)   # float32 on the source
    urdf = rig.latched(String, 'robot_description')
    assert urdf and urdf[0].data == description.generate()


def test_late_joiner_gets_description_and_static_tf_at_once(rig):
    rig.spin_until(lambda: (rig.send() or True) and rig.got['tf'])
    time.sleep(5.0)     # the late joiner: 5 s after the start
    start = time.monotonic()
    assert rig.latched(String, 'robot_description')
    assert len(transforms(rig.latched(TFMessage, '/tf_static'))) == 4
    assert time.monotonic() - start < 5.0


@pytest.mark.parametrize('bad', [
    {'names': JOINT_NAMES[:11], 'q': Q[:11]},                       # a joint missing
    {'q': np.append(Q[:11], np.nan)},                               # non-finite
    {'names': list(JOINT_NAMES) * 6, 'q': np.zeros(72)},            # oversized
    {'quat': (0.0, 0.0, 0.0, 3.0)},                                 # not a rotation
])
def test_malformed_source_is_not_published_and_warned(rig, bad):
    for _ in range(20):
        rig.send(**bad)
        rig.spin_until(lambda: False, 0.02)
    assert rig.spin_until(lambda: any('not published' in s.status for s in rig.got['status']))
    warnings = [s for s in rig.got['status'] if 'not published' in s.status]
    assert len(warnings) <= 2       # rate-limited: one per reason and second
    if 'quat' in bad:
        assert ('odom', 'body') not in transforms(rig.got['tf'])
    else:
        assert rig.got['joint_states'] == []
        assert not any(t.child_frame_id.endswith('_l0') for m in rig.got['tf']
                       for t in m.transforms)


def test_two_robots_give_disjoint_trees(ros):
    rigs = [Rig('/robot1', 'robot1/'), Rig('/robot2', 'robot2/')]
    try:
        frames = []
        for r in rigs:
            assert r.spin_until(lambda: (r.send() or True) and r.got['joint_states'])
            tf = wait_for_tf(r, 26)     # both robots' transforms arrive on the one /tf
            frames.append({f for pair in tf for f in pair if pair[0].startswith(
                r.node.get_namespace().lstrip('/'))})
        assert frames[0] and frames[1] and not frames[0] & frames[1]
        assert all(f.startswith('robot1/') for f in frames[0])
        assert 'robot1/odom' in frames[0] and 'robot1/body' in frames[0]
        names = dict(rigs[0].peer.get_topic_names_and_types())
        assert '/robot1/joint_states' in names and '/robot1/robot_description' in names
    finally:
        for r in rigs:
            r.close()


GLOBAL = '/robot_description'
PUBLISH_GLOBAL = 'publish_global_robot_description'


def publishers_of(peer, topic, node):
    """Return the publishers of `topic` that belong to `node` (name and namespace)."""
    return [i for i in peer.get_publishers_info_by_topic(topic)
            if (i.node_name, i.node_namespace) == (node.get_name(), node.get_namespace())]


def test_global_description_on_request_equals_the_namespaced_one(ros):
    r = Rig('/hb50', overrides=[Parameter(PUBLISH_GLOBAL, value=True)])
    try:
        assert r.spin_until(lambda: publishers_of(r.peer, GLOBAL, r.node))
        # A late subscriber (the node published in its constructor) gets the same URDF on
        # both topics, through the same latched QoS.
        late = r.latched(String, GLOBAL)
        own = r.latched(String, '/hb50/robot_description')
        assert late and own and late[0].data == own[0].data == description.generate()
        for topic in (GLOBAL, '/hb50/robot_description'):
            [info] = publishers_of(r.peer, topic, r.node)
            assert info.qos_profile.durability == LATCHED.durability
            assert info.qos_profile.reliability == LATCHED.reliability
        assert r.node.get_parameter(PUBLISH_GLOBAL).value is True
    finally:
        r.close()


def test_namespaced_node_does_not_publish_the_global_description_by_default(rig):
    descriptor = rig.node.describe_parameter(PUBLISH_GLOBAL)
    assert rig.node.get_parameter(PUBLISH_GLOBAL).value is False
    assert descriptor.read_only and '/robot_description' in descriptor.description
    assert rig.spin_until(lambda: publishers_of(rig.peer, '/hb50/robot_description', rig.node))
    assert rig.peer.get_publishers_info_by_topic(GLOBAL) == []
    assert GLOBAL not in dict(rig.peer.get_topic_names_and_types())


@pytest.mark.parametrize('overrides', [(), (Parameter(PUBLISH_GLOBAL, value=True),)],
                         ids=['default', 'true'])
def test_without_namespace_one_publisher_serves_robot_description(ros, overrides):
    r = Rig('/', overrides=overrides)
    try:
        # robot_description resolves to /robot_description: the default is true, and true
        # adds no second publisher on the same topic.
        assert r.node.get_parameter(PUBLISH_GLOBAL).value is True
        assert r.spin_until(lambda: publishers_of(r.peer, GLOBAL, r.node))
        assert len(r.peer.get_publishers_info_by_topic(GLOBAL)) == 1
        assert len(r.node.description_pubs) == 1
        late = r.latched(String, GLOBAL)
        assert len(late) == 1 and late[0].data == description.generate()
    finally:
        r.close()


def test_hb50_stack_as_hb50_run_starts_it_with_foxglove(ros):
    """hb50_stack with the shipped parameters and the process-wide -p of FOXGLOVE=1."""
    params = os.path.join(get_package_share_directory('hb50_nodes'), 'config', 'hb50.yaml')
    proc = rosharness.start('hb50_stack', '--params-file', params,
                            '-p', f'{PUBLISH_GLOBAL}:=true')
    peer = rclpy.create_node('global_description_test')
    executor = SingleThreadedExecutor()
    executor.add_node(peer)
    got = {GLOBAL: [], '/hb50/robot_description': []}
    try:
        for topic, received in got.items():
            peer.create_subscription(String, topic, received.append, LATCHED)
        end = time.monotonic() + 30.0
        while time.monotonic() < end and not all(got.values()) and proc.poll() is None:
            executor.spin_once(timeout_sec=0.05)
        assert all(got.values()), proc.output()
        assert got[GLOBAL][0].data == got['/hb50/robot_description'][0].data
        assert got[GLOBAL][0].data == description.generate()
        [info] = peer.get_publishers_info_by_topic(GLOBAL)
        assert (info.node_name, info.node_namespace) == ('state_publisher_node', '/hb50')
    finally:
        executor.shutdown()
        peer.destroy_node()
        stopped = rosharness.stop(proc)
    assert stopped.returncode == 0, stopped.output
    assert 'Traceback' not in stopped.output and 'Callback failed' not in stopped.output
