# SPDX-License-Identifier: Apache-2.0
"""
adam_state_publisher against adam_sim (MuJoCo): /tf equals Pinocchio and MuJoCo, latching.

One simulator process for the module (plain Cyclone DDS, MuJoCo physics, the robot hanging
on its stand under gravity, so the joints sit at non-trivial angles) and the installed
adam_state_publisher on its `lowstate` (a process of its own: Fast DDS reads its interop
profile once per process), plus state publishers in this process, in namespaces, fed by
this test with valid or malformed LowState messages.
"""

import collections
import math
import os
import time

from ament_index_python.packages import get_package_share_directory
import mujoco
import numpy as np
import pinocchio
from pnd_adam.msg import LowState, MotorState
from pnd_adam_description import urdf
from pnd_adam_description.joints import JOINT_NAMES
from pnd_adam_description.mujoco_model import build_model
from pnd_adam_examples.state_publisher import AdamStatePublisher
import pytest
from rcl_interfaces.msg import Log
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.parameter import Parameter
from sensor_msgs.msg import JointState
from state_publisher_common.qos import LATCHED, TF_QOS
from std_msgs.msg import String
from tf2_msgs.msg import TFMessage
import workspace_testing
from workspace_testing.adam_sim import localhost_env, SimProcess

MODEL = build_model(0.002)
LINKS = [mujoco.mj_id2name(MODEL, mujoco.mjtObj.mjOBJ_BODY, i) for i in range(1, MODEL.nbody)]


@pytest.fixture(scope='module')
def rig(domain_id):
    saved = dict(os.environ)
    os.environ.update(localhost_env(domain_id))
    config = os.path.join(get_package_share_directory('pnd_adam_sim'), 'config',
                          'adam_sim.yaml')
    sim = SimProcess(domain_id, extra_args=['--config', config])
    live = workspace_testing.start(
        [workspace_testing.executable('pnd_adam_examples', 'adam_state_publisher')],
        env=localhost_env(domain_id))
    rclpy.init()
    r = Rig()
    try:
        yield r
        stopped = workspace_testing.stop(live)
        assert stopped.returncode == 0 and 'Traceback' not in live.output(), live.output()
    finally:
        r.close()
        rclpy.try_shutdown()
        workspace_testing.stop(live)
        sim.stop()
        os.environ.clear()
        os.environ.update(saved)


class Rig:
    """The live state publisher, a test peer, and what the peer received."""

    def __init__(self):
        self.started = time.monotonic()
        self.executor = SingleThreadedExecutor()
        self.nodes = []
        self.peer = rclpy.create_node('state_publisher_test')
        self.executor.add_node(self.peer)
        self.got = {'tf': [], 'joint_states': [], 'rosout': []}
        # The live node sends /tf at 100 Hz: keep the recent messages and the newest
        # transform per frame pair (every robot's), so a check never rescans the history.
        self.got['tf'] = collections.deque(maxlen=300)
        self.tf = {}
        self.peer.create_subscription(TFMessage, '/tf', self.on_tf, TF_QOS)
        self.peer.create_subscription(JointState, 'joint_states',
                                      self.got['joint_states'].append, 10)
        self.peer.create_subscription(Log, '/rosout', self.got['rosout'].append, 100)

    def on_tf(self, msg):
        self.got['tf'].append(msg)
        self.tf.update(newest([msg]))
        self.tf.update(newest([msg], 'robot'))
        self.tf.update(newest([msg], 'bad/'))

    def add(self, node):
        self.nodes.append(node)
        self.executor.add_node(node)
        return node

    def spin_until(self, predicate, timeout=15.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end and not predicate():
            self.executor.spin_once(timeout_sec=0.02)
        return predicate()

    def latched(self, msg_type, topic):
        """Return what a new (late) subscriber of a latched topic gets within 5 s."""
        got = []
        sub = self.peer.create_subscription(msg_type, topic, got.append, LATCHED)
        self.spin_until(lambda: got, 5.0)
        self.peer.destroy_subscription(sub)
        return got

    def close(self):
        self.executor.shutdown()
        for node in self.nodes + [self.peer]:
            node.destroy_node()


def lowstate(q=None, motors=19, quat=(1.0, 0.0, 0.0, 0.0), stamp_ms=1_700_000_000_123):
    msg = LowState()
    q = [0.1 * (i % 5) for i in range(motors)] if q is None else q
    msg.motor_state = [MotorState(q=float(v)) for v in q]
    msg.imu_state.quaternion = [float(v) for v in quat]
    msg.battery_data.timestamp_ms = stamp_ms
    return msg


def newest(messages, prefix=''):
    """Return {(parent, child): transform} of the newest message per pair, frames with prefix."""
    out = {}
    for msg in messages:
        for t in msg.transforms:
            if t.child_frame_id.startswith(prefix) and (prefix or '/' not in t.child_frame_id):
                out[(t.header.frame_id, t.child_frame_id)] = t
    return out


def newest_of(tf, prefix):
    """Return the pairs of `tf` ({(parent, child): transform}) whose child has `prefix`."""
    return {pair: t for pair, t in tf.items() if pair[1].startswith(prefix)}


def se3(t):
    r, p = t.transform.rotation, t.transform.translation
    return pinocchio.SE3(pinocchio.Quaternion(r.w, r.x, r.y, r.z).matrix(),
                         np.array([p.x, p.y, p.z]))


def chains(tf):
    """Return {link: pose in pelvis} by composing the /tf and /tf_static transforms."""
    parent_of = {child: (parent, t) for (parent, child), t in tf.items()}
    poses = {}

    def pose(link):
        if link == urdf.ROOT_LINK:
            return pinocchio.SE3.Identity()
        if link not in poses:
            parent, t = parent_of[link]
            poses[link] = pose(parent) * se3(t)
        return poses[link]
    return {link: pose(link) for link in LINKS}


def test_live_tf_equals_pinocchio_and_mujoco_at_a_live_joint_states_sample(rig):
    # Wait until gravity has moved the unpowered torso (non-trivial angles to compare at).
    assert rig.spin_until(lambda: rig.got['joint_states'] and any(
        abs(v) > 0.01 for v in rig.got['joint_states'][-1].position))
    js = rig.got['joint_states'][-1]
    assert list(js.name) == list(JOINT_NAMES) and len(js.position) == 19
    # The /tf message of the same sample (same stamp: the source's timestamp_ms).
    assert rig.spin_until(lambda: any(m.transforms[0].header.stamp == js.header.stamp
                                      for m in rig.got['tf']))
    sample = [m for m in rig.got['tf'] if m.transforms[0].header.stamp == js.header.stamp][-1]
    assert all(t.header.stamp == js.header.stamp for t in sample.transforms)
    assert abs(js.header.stamp.sec - time.time()) < 60      # adam_sim's wall-clock ms
    static = newest(rig.latched(TFMessage, '/tf_static'))
    tf = {**newest([sample]), **static}
    assert ('odom', 'pelvis') in tf and ('pelvis', 'stand') in static
    poses = chains(tf)

    model = pinocchio.buildModelFromUrdf(urdf.urdf_path())
    data = model.createData()
    q = np.zeros(model.nq)
    for name, value in zip(js.name, js.position):
        q[model.joints[model.getJointId(name)].idx_q] = value
    pinocchio.framesForwardKinematics(model, data, q)
    m = MODEL
    d = mujoco.MjData(m)
    for name, value in zip(js.name, js.position):
        d.qpos[m.jnt_qposadr[mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, name)]] = value
    mujoco.mj_kinematics(m, d)
    pelvis = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, urdf.ROOT_LINK)
    for link in LINKS:
        expected = data.oMf[model.getFrameId(link)]
        got = poses[link]
        assert np.linalg.norm(got.translation - expected.translation) <= 1e-3, link
        assert np.linalg.norm(pinocchio.log3(got.rotation.T @ expected.rotation)) <= 1e-3, link
        b = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, link)
        position = d.xmat[pelvis].reshape(3, 3).T @ (d.xpos[b] - d.xpos[pelvis])
        assert np.linalg.norm(got.translation - position) <= 1e-3, link
    # The stand hangs at the odom origin, the pelvis above it (fixed base, level).
    odom = tf[('odom', 'pelvis')].transform.translation
    assert (odom.x, odom.y, odom.z) == pytest.approx((0.0, 0.0, 1.05), abs=1e-3)


def test_late_joiner_gets_description_and_static_tf_at_once(rig):
    rig.spin_until(lambda: False, max(0.0, 5.0 - (time.monotonic() - rig.started)))
    start = time.monotonic()
    description = rig.latched(String, 'robot_description')
    assert description and description[0].data == urdf.read()
    static = newest(rig.latched(TFMessage, '/tf_static'))
    assert set(static) == {('pelvis', 'stand')}
    assert time.monotonic() - start < 5.0


def test_default_rate_is_the_vendors_100_hz(rig):
    node = rig.add(AdamStatePublisher(namespace='/defaults'))
    assert node.get_parameter('publish_rate').value == 100.0
    descriptor = node.describe_parameter('publish_rate')
    assert descriptor.floating_point_range[0].from_value == 0.1


@pytest.mark.parametrize('ns,bad,reason', [
    ('/bad_count', {'motors': 18}, '18 motors'),
    ('/bad_nan', {'q': [math.nan] + [0.0] * 18}, 'non-finite'),
    ('/bad_size', {'motors': 1000}, 'oversized'),
    ('/bad_imu', {'quat': (0.0, 0.0, 0.0, 0.0)}, 'unit quaternion'),
    ('/bad_stamp', {'stamp_ms': -5}, 'negative timestamp'),
])
def test_malformed_lowstate_is_warned_rate_limited_and_not_published(rig, ns, bad, reason):
    node = rig.add(AdamStatePublisher(namespace=ns, parameter_overrides=[
        Parameter('frame_prefix', value='bad/')]))
    pub = rig.peer.create_publisher(LowState, ns + '/lowstate', 10)
    got = []
    rig.peer.create_subscription(JointState, ns + '/joint_states', got.append, 10)
    assert rig.spin_until(lambda: pub.get_subscription_count() > 0)
    start = time.monotonic()
    for _ in range(30):
        pub.publish(lowstate(**bad))
        rig.spin_until(lambda: False, 0.02)
    rig.spin_until(lambda: False, 0.2)
    seconds = time.monotonic() - start
    name = node.get_fully_qualified_name().lstrip('/').replace('/', '.')
    warned = lambda: [m for m in rig.got['rosout']  # noqa: E731
                      if m.name == name and 'not published' in m.msg]
    assert rig.spin_until(warned)
    assert reason in warned()[0].msg
    assert len(warned()) <= 1 + seconds     # one per reason and second, not one per sample
    assert got == [] and newest_of(rig.tf, 'bad/') == {}


def test_two_robots_give_disjoint_trees(rig, domain_id):
    # Two simulated robots on one domain, each under its namespace (adam_sim --namespace:
    # DDS rt/robotN/lowstate), each with its state publisher and frame prefix.
    config = os.path.join(get_package_share_directory('pnd_adam_sim'), 'config',
                          'adam_sim.yaml')
    sims = [SimProcess(domain_id, extra_args=['--config', config, '--namespace', f'/robot{n}'])
            for n in (1, 2)]
    publishers = [workspace_testing.start(
        [workspace_testing.executable('pnd_adam_examples', 'adam_state_publisher'),
         '--ros-args', '-r', f'__ns:=/robot{n}', '-p', f'frame_prefix:=robot{n}/'],
        env=localhost_env(domain_id)) for n in (1, 2)]
    try:
        assert rig.spin_until(
            lambda: all(len(newest_of(rig.tf, f'robot{n}/')) == 20 for n in (1, 2)), 30.0), (
                {n: len(newest_of(rig.tf, f'robot{n}/')) for n in (1, 2)},
                [sim.lines[-3:] for sim in sims], [p.output()[-500:] for p in publishers])
        names = dict(rig.peer.get_topic_names_and_types())
    finally:
        for proc in publishers:
            workspace_testing.stop(proc)
        for sim in sims:
            sim.stop()
    frames = [{f for pair in newest_of(rig.tf, f'robot{n}/') for f in pair} for n in (1, 2)]
    assert not frames[0] & frames[1]
    assert all(f.startswith('robot1/') for f in frames[0])
    assert {'robot1/odom', 'robot1/pelvis', 'robot1/hand_Left'} <= frames[0]
    assert {'/robot1/joint_states', '/robot1/robot_description', '/robot2/joint_states'} <= set(
        names)
