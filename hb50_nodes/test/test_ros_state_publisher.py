# SPDX-License-Identifier: Apache-2.0
"""state_publisher_node on ROS: /tf equals Pinocchio's FK, latching, bad input, namespaces."""

import time

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

    def __init__(self, namespace='/hb50', prefix=''):
        self.node = StatePublisher(namespace=namespace, parameter_overrides=[
            Parameter('frame_prefix', value=prefix), Parameter('publish_rate', value=50.0)])
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
