# SPDX-License-Identifier: Apache-2.0
"""aimrt_mujoco_sim + aimrt_bridge + an rclpy controller close a loop over HTTP."""

import http.client
import json
import os
import signal
import time

from aimrt_protocols_msgs.msg import JointCommand as RosJointCommand
from aimrt_protocols_msgs.msg import TouchState as RosTouchState
from aimrt_protocols_py import codec
from aimrt_protocols_py.messages import ImuState, JointCommand, JointState, TouchState
import pytest
import rclpy
from rclpy.qos import QoSProfile
from sensor_msgs.msg import Imu, JointState as RosJointState
from workspace_testing import accepting, executable, free_port, localhost_env, start, stop
from workspace_testing.http_sink import HttpSink

AT_REST_S = 4.0  # s the test keeps commanding and listening after the waist settled
WAIT = 30.0


def env(domain_id):
    return dict(localhost_env(domain_id), PYTHONUNBUFFERED='1')


def wait_port(port, proc, what):
    end = time.monotonic() + WAIT
    while not accepting(port):
        assert proc.poll() is None, f'{what} exited early'
        assert time.monotonic() < end, f'{what} did not open port {port}'
        time.sleep(0.1)


def sim_exe():
    return executable('aimrt_mujoco_sim', 'aimrt_mujoco_sim')


@pytest.fixture(scope='module')
def setup(tmp_path_factory, domain_id):
    tmp = tmp_path_factory.mktemp('loop')
    state_rec, cmd_rec = HttpSink(), HttpSink()
    bridge_port, sim_port = free_port(), free_port()
    sim_cfg = tmp / 'sim.yaml'
    sim_cfg.write_text(json.dumps({
        'listen_port': sim_port, 'publish_rate_hz': 50.0,
        'state_addresses': [f'127.0.0.1:{bridge_port}', f'127.0.0.1:{state_rec.port}']}))
    bridge_cfg = tmp / 'bridge.yaml'
    bridge_cfg.write_text(json.dumps({'aimrt_bridge': {'ros__parameters': {
        'http_port': bridge_port,
        'command_addresses': [f'127.0.0.1:{sim_port},127.0.0.1:{cmd_rec.port}']}}}))
    bridge = start([executable('aimrt_bridge', 'aimrt_bridge_node'), '--ros-args',
                    '--params-file', str(bridge_cfg)], env=env(domain_id))
    sim = None
    try:
        wait_port(bridge_port, bridge, 'aimrt_bridge_node')
        sim = start([sim_exe(), '--config', str(sim_cfg)], env=env(domain_id))
        wait_port(sim_port, sim, 'aimrt_mujoco_sim')
    except BaseException:
        stop(bridge)
        if sim is not None:
            stop(sim)
        raise
    os.environ.update(localhost_env(domain_id, {}))    # for this process's rclpy
    context = rclpy.Context()
    rclpy.init(context=context)
    node = rclpy.create_node('adam_loop_controller', context=context)
    executor = rclpy.executors.SingleThreadedExecutor(context=context)
    executor.add_node(node)
    try:
        yield {'node': node, 'executor': executor, 'sim': sim, 'sim_port': sim_port,
               'state_rec': state_rec, 'cmd_rec': cmd_rec}
    finally:
        executor.shutdown()
        node.destroy_node()
        rclpy.shutdown(context=context)
        result = stop(sim)
        stop(bridge)
        state_rec.close()
        cmd_rec.close()
        assert (result.returncode, result.signal) == (0, signal.SIGINT), result.output


def test_controller_closes_the_loop_over_http(setup):
    node, executor = setup['node'], setup['executor']
    qos = QoSProfile(depth=50)
    got = {'js': [], 'imu': [], 'touch': []}
    node.create_subscription(RosJointState, 'aimrt/joint_states', got['js'].append, qos)
    node.create_subscription(Imu, 'aimrt/imu', got['imu'].append, qos)
    node.create_subscription(RosTouchState, 'aimrt/touch', got['touch'].append, qos)
    pub = node.create_publisher(RosJointCommand, 'aimrt/joint_command', qos)
    names = ['waistRoll', 'waistPitch', 'waistYaw']
    target = 0.5

    def command():
        msg = RosJointCommand()
        msg.header.stamp = node.get_clock().now().to_msg()
        msg.header.frame_id = 'controller'
        msg.name = names
        msg.position = [0.0, 0.0, target]
        msg.velocity = [0.0, 0.0, 0.0]
        msg.effort = [0.0, 0.0, 0.0]
        msg.stiffness = [405.0, 405.0, 200.0]
        msg.damping = [6.1, 6.1, 10.0]
        pub.publish(msg)
        return msg

    sent = []
    reached = None
    end = time.monotonic() + WAIT
    last_cmd = 0.0
    yaw = None
    while time.monotonic() < end:
        if time.monotonic() - last_cmd > 0.05:  # 20 Hz controller
            sent.append(command())
            last_cmd = time.monotonic()
        executor.spin_once(timeout_sec=0.01)
        if got['js']:
            js = got['js'][-1]
            yaw = js.position[js.name.index('waistYaw')]
            if abs(yaw - target) < 0.01 and abs(js.velocity[js.name.index('waistYaw')]) < 0.01:
                reached = js
                break
    assert reached is not None, f'waistYaw at {yaw}, target {target}; ' \
        f'{setup["sim"].output()[-2000:]}'
    # The controller stays on for AT_REST_S after the waist settled (see the IMU check).
    end = time.monotonic() + AT_REST_S
    while time.monotonic() < end:
        if time.monotonic() - last_cmd > 0.05:
            sent.append(command())
            last_cmd = time.monotonic()
        executor.spin_once(timeout_sec=0.01)

    # Values equal on both sides: what the simulator POSTed (recorded) == what ROS got.
    posted = {}
    for path, _, body in setup['state_rec'].drain():
        posted.setdefault(path.split('/')[2], []).append(body)
    by_stamp = {}
    for body in posted['joint_state']:
        msg = codec.decode(JointState, body)
        by_stamp[msg.header.time_stamp] = msg
    matched = 0
    for ros in got['js']:
        stamp = ros.header.stamp.sec * 10**9 + ros.header.stamp.nanosec
        if stamp in by_stamp:
            aimrt = by_stamp[stamp]
            assert list(ros.name) == [j.name for j in aimrt.joints]
            assert list(ros.position) == [j.position for j in aimrt.joints]
            assert list(ros.velocity) == [j.velocity for j in aimrt.joints]
            assert list(ros.effort) == [j.effort for j in aimrt.joints]
            matched += 1
    assert matched >= 5
    imu_by_stamp = {m.header.time_stamp: m for m in
                    (codec.decode(ImuState, b) for b in posted['imu_state'])}
    ros_imu = [m for m in got['imu']
               if m.header.stamp.sec * 10**9 + m.header.stamp.nanosec in imu_by_stamp]
    assert ros_imu
    for m in ros_imu:
        a = imu_by_stamp[m.header.stamp.sec * 10**9 + m.header.stamp.nanosec]
        assert (m.orientation.w, m.orientation.x, m.orientation.y, m.orientation.z) == \
            (a.orientation.w, a.orientation.x, a.orientation.y, a.orientation.z)
        assert m.linear_acceleration.z == a.linear_acceleration.z
    # Once the waist has settled on its target the body comes to rest: after a bob on its
    # contact pads (about 0.5 s, swinging ~1.5 m/s^2 around g) the IMU reads +g up. The
    # second half of the samples taken after the waist settled are all at rest.
    settled = reached.header.stamp.sec * 10**9 + reached.header.stamp.nanosec
    after = [m.linear_acceleration.z for m in ros_imu
             if m.header.stamp.sec * 10**9 + m.header.stamp.nanosec >= settled]
    at_rest = after[len(after) // 2:]
    assert len(at_rest) >= 10, after
    assert all(abs(a - 9.81) < 0.2 for a in at_rest), after
    touch_by_stamp = {m.header.time_stamp: m for m in
                      (codec.decode(TouchState, b) for b in posted['touch_state'])}
    ros_touch = [m for m in got['touch']
                 if m.header.stamp.sec * 10**9 + m.header.stamp.nanosec in touch_by_stamp]
    assert ros_touch
    for m in ros_touch:
        a = touch_by_stamp[m.header.stamp.sec * 10**9 + m.header.stamp.nanosec]
        assert list(m.names) == list(a.names)
        assert [list(s.pressure) for s in m.states] == [list(s.pressure) for s in a.states]
    # the stand carries the robot: pad forces add up to its weight (~43 kg)
    assert 350 < sum(s.pressure[0] for s in ros_touch[-1].states) < 500

    # Commands: what the bridge POSTed (the simulator got the same bytes) == what ROS sent.
    cmds = [codec.decode(JointCommand, post.body) for post in setup['cmd_rec'].drain()]
    assert len(cmds) >= 5
    sent_by_stamp = {m.header.stamp.sec * 10**9 + m.header.stamp.nanosec: m for m in sent}
    for c in cmds:
        ros = sent_by_stamp[c.header.time_stamp]
        assert [j.name for j in c.joints] == list(ros.name)
        assert [j.position for j in c.joints] == list(ros.position)
        assert [j.stiffness for j in c.joints] == list(ros.stiffness)
        assert [j.damping for j in c.joints] == list(ros.damping)


def post_command(port, body, content_type='application/protobuf',
                 msg_type='pb%3Aaimrt.protocols.sensor.JointCommand'):
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=5.0)
    try:
        conn.request('POST', f'/channel/joint_command/{msg_type}', body=body,
                     headers={'Content-Type': content_type})
        rsp = conn.getresponse()
        return rsp.status, rsp.read().decode()
    finally:
        conn.close()


def test_bad_commands_are_refused_whole(setup):
    port = setup['sim_port']
    bad = JointCommand()
    bad.joints.add(name='waistYaw', position=0.1, stiffness=50.0)
    bad.joints.add(name='elbow_Left', position=3.0, stiffness=50.0)  # beyond [-2.3, 0.3]
    status, text = post_command(port, codec.encode(bad))
    assert status == 422 and 'elbow_Left' in text
    unknown = JointCommand()
    unknown.joints.add(name='knee_Left', position=0.0)
    assert post_command(port, codec.encode(unknown))[0] == 422
    nan = JointCommand()
    nan.joints.add(name='waistYaw', position=float('nan'))
    assert post_command(port, codec.encode(nan))[0] == 422
    assert post_command(port, b'\xff\xff', 'application/protobuf')[0] == 400
    assert post_command(port, b'{}', 'text/plain')[0] == 415
    assert setup['sim'].wait_for_output('rejected JointCommand (not applied)', 5), \
        setup['sim'].output()[-2000:]


@pytest.mark.parametrize('sig', [signal.SIGINT, signal.SIGTERM])
def test_exits_zero_on_signals(tmp_path, domain_id, sig):
    cfg = tmp_path / 'sim.yaml'
    port = free_port()
    cfg.write_text(json.dumps({'listen_port': port, 'state_addresses': []}))
    proc = start([sim_exe(), '--config', str(cfg)], env=env(domain_id))
    try:
        wait_port(port, proc, 'aimrt_mujoco_sim')
    finally:
        result = stop(proc, first=sig)
    assert (result.returncode, result.signal) == (0, sig), result.output
    assert 'stopped after' in result.output and 'Traceback' not in result.output
