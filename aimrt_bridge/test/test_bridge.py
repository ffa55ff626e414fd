# SPDX-License-Identifier: Apache-2.0
"""
End to end: the installed bridge node against an independent AimRT peer.

The peer is aimrt_peer.py (standard library only); both directions, protobuf and JSON.
"""
import json
import os
import random
import signal
import socket
import subprocess
import time

import aimrt_peer as peer
from aimrt_protocols_msgs.msg import JointCommand as RosJointCommand
from aimrt_protocols_msgs.msg import TouchState as RosTouchState
from ament_index_python.packages import get_package_prefix
import pytest
import rclpy
from rclpy.qos import QoSProfile
from sensor_msgs.msg import Imu, JointState

DOMAIN_ID = random.randint(60, 69)
WAIT_SEC = 60.0  # bound for discovery/start-up on a loaded machine; tests end once data arrives
BRIDGE_LOGS = {}  # port of the module's bridge -> its log file


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def ros_env():
    env = dict(os.environ)
    env['ROS_DOMAIN_ID'] = str(DOMAIN_ID)
    env['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    return env


def start_bridge(tmp_path, name, **params):
    exe = os.path.join(get_package_prefix('aimrt_bridge'), 'lib', 'aimrt_bridge',
                       'aimrt_bridge_node')
    cfg = tmp_path / f'{name}.yaml'
    cfg.write_text(json.dumps({'aimrt_bridge': {'ros__parameters': params}}))  # JSON is YAML
    log = open(tmp_path / f'{name}.log', 'w')
    proc = subprocess.Popen([exe, '--ros-args', '--params-file', str(cfg)],
                            env=ros_env(), stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + WAIT_SEC
    while True:  # ready when its HTTP server accepts connections
        try:
            socket.create_connection(('127.0.0.1', params['http_port']), timeout=0.5).close()
            break
        except OSError:
            assert proc.poll() is None, (tmp_path / f'{name}.log').read_text()
            assert time.monotonic() < deadline, 'bridge HTTP server did not come up'
            time.sleep(0.1)
    return proc, log


def stop(proc, log):
    """Ctrl-C the bridge; return its exit code (always reaped, killed if it hangs)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
    log.close()
    return proc.returncode


@pytest.fixture(scope='module')
def ros_node():
    os.environ.update(ROS_DOMAIN_ID=str(DOMAIN_ID), ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST')
    context = rclpy.Context()
    rclpy.init(context=context)
    node = rclpy.create_node('aimrt_bridge_test', context=context)
    executor = rclpy.executors.SingleThreadedExecutor(context=context)
    executor.add_node(node)
    yield node, executor
    executor.shutdown()
    node.destroy_node()
    rclpy.shutdown(context=context)


@pytest.fixture(scope='module')
def aimrt_sub():
    sub = peer.AimrtSubscriber()
    yield sub
    sub.close()


@pytest.fixture(scope='module')
def bridge(tmp_path_factory, aimrt_sub):
    port = free_port()
    folder = tmp_path_factory.mktemp('bridge')
    BRIDGE_LOGS[port] = folder / 'pb.log'
    proc, log = start_bridge(
        folder, 'pb', http_port=port,
        state_aimrt_topics=['sim/joint_state', 'imu', 'touch'],
        state_types=['JointState', 'ImuState', 'TouchState'],
        state_ros_topics=['t/joint_states', 't/imu', 't/touch'],
        command_ros_topics=['t/joint_command'], command_aimrt_topics=['sim/joint_command'],
        command_addresses=[f'127.0.0.1:{aimrt_sub.port}'], command_serialization='pb',
        # explicit: the AimRT >= 0.10 messages below carry sequence_num
        accept_unknown_fields=True)
    yield port
    stop(proc, log)


def test_default_config_bridges_aimrt_010_dropping_unknown_fields_with_a_log(tmp_path):
    port = free_port()
    proc, log = start_bridge(tmp_path, 'defaults', http_port=port)  # every other default
    try:
        state = 'pb:aimrt.protocols.sensor.JointState'
        # AimRT >= 0.10 Header.sequence_num has no ROS 2 field: dropped, and said so
        assert peer.post(port, 'joint_state', state, joint_state_pb(seq=7),
                         'application/protobuf')[0] == 200
        as_json = json.dumps({'header': {'time_stamp': '1', 'sequence_num': '7'}})
        assert peer.post(port, 'joint_state', state, as_json.encode(),
                         'application/json')[0] == 200
    finally:
        assert stop(proc, log) == 0
    text = (tmp_path / 'defaults.log').read_text()
    assert 'Traceback' not in text
    assert text.count('dropping unknown_fields') == 1, text  # logged once per topic


def test_refusing_unknown_fields_and_stopping_cleanly_on_sigint(tmp_path):
    port = free_port()
    proc, log = start_bridge(tmp_path, 'sigint', http_port=port, accept_unknown_fields=False)
    try:
        state = 'pb:aimrt.protocols.sensor.JointState'
        assert peer.post(port, 'joint_state', state, joint_state_pb(seq=7),
                         'application/protobuf')[0] == 422
        as_json = json.dumps({'header': {'time_stamp': '1', 'sequence_num': '7'}})
        status, reason = peer.post(port, 'joint_state', state, as_json.encode(),
                                   'application/json')
        assert status == 422 and b'unknown_fields' in reason
        # the same messages without the unknown field are published
        assert peer.post(port, 'joint_state', state, joint_state_pb(seq=None),
                         'application/protobuf')[0] == 200
        assert peer.post(port, 'joint_state', state, b'{"header": {"time_stamp": "1"}}',
                         'application/json')[0] == 200
    finally:
        assert stop(proc, log) == 0
    assert 'Traceback' not in (tmp_path / 'sigint.log').read_text()


def receive(ros_node, msg_type, topic, send):
    """Subscribe, then call send() until a message arrives; return the messages."""
    node, executor = ros_node
    got = []
    sub = node.create_subscription(msg_type, topic, got.append, QoSProfile(depth=50))
    try:
        deadline = time.monotonic() + WAIT_SEC
        while not got:
            assert time.monotonic() < deadline, f'nothing on {topic}'
            if node.count_publishers(topic):
                send()
            executor.spin_once(timeout_sec=0.2)
        for _ in range(5):  # collect what is already in flight
            executor.spin_once(timeout_sec=0.05)
        return got
    finally:
        node.destroy_subscription(sub)


def joint_state_pb(seq):
    joints = b''.join(peer.field_bytes(2, peer.field_bytes(1, f'j{i}') +
                                       peer.field_double(2, 0.5 * i) +
                                       peer.field_double(3, -1.0 * i) +
                                       peer.field_double(4, 2.0 * i)) for i in range(3))
    return peer.field_bytes(1, peer.header(1_700_000_000_000_000_123, 'base', seq=seq)) + joints


def test_joint_state_pb_seed_type_name(bridge, ros_node):
    statuses = []

    def send():
        statuses.append(peer.post(bridge, 'sim/joint_state',
                                  'pb:aimrt.protocols.sensor.JointState',
                                  joint_state_pb(seq=7), 'application/protobuf'))
    msg = receive(ros_node, JointState, 't/joint_states', send)[0]
    assert statuses[0] == (200, b'')
    assert msg.name == ['j0', 'j1', 'j2']
    assert list(msg.position) == [0.0, 0.5, 1.0] and list(msg.velocity) == [0.0, -1.0, -2.0]
    assert list(msg.effort) == [0.0, 2.0, 4.0]
    assert (msg.header.stamp.sec, msg.header.stamp.nanosec) == (1_700_000_000, 123)
    assert msg.header.frame_id == 'base'


def test_joint_state_json_array_type_name_camel_case(bridge, ros_node):
    body = json.dumps({'header': {'timeStamp': '5000000001', 'frameId': 'w', 'sequenceNum': 3},
                       'joints': [{'name': 'knee', 'position': 1.25, 'velocity': 0.5,
                                   'effort': -3.0}]}).encode()

    def send():
        assert peer.post(bridge, 'sim/joint_state', 'pb:aimrt.protocols.sensor.JointStateArray',
                         body, 'application/json')[0] == 200
    msg = receive(ros_node, JointState, 't/joint_states', send)[0]
    assert msg.name == ['knee'] and list(msg.position) == [1.25] and list(msg.effort) == [-3.0]
    assert (msg.header.stamp.sec, msg.header.stamp.nanosec, msg.header.frame_id) == (5, 1, 'w')


def test_imu_pb(bridge, ros_node):
    cov = [0.1 * i for i in range(9)]
    body = (peer.field_bytes(1, peer.header(2_000_000_000, 'imu_link')) +
            peer.field_bytes(2, peer.field_double(1, 0.1) + peer.field_double(2, 0.2) +
                             peer.field_double(3, 0.3) + peer.field_double(4, 0.9)) +
            peer.packed_doubles(3, cov) +
            peer.field_bytes(4, peer.field_double(3, 1.5)) +
            peer.field_bytes(6, peer.field_double(3, 9.81)))

    def send():
        assert peer.post(bridge, 'imu', 'pb:aimrt.protocols.sensor.ImuState', body,
                         'application/protobuf')[0] == 200
    msg = receive(ros_node, Imu, 't/imu', send)[0]
    o = msg.orientation
    assert (o.x, o.y, o.z, o.w) == (0.1, 0.2, 0.3, 0.9)
    assert list(msg.orientation_covariance) == cov
    assert list(msg.angular_velocity_covariance) == [-1.0] + [0.0] * 8
    assert msg.angular_velocity.z == 1.5 and msg.linear_acceleration.z == 9.81
    assert msg.header.stamp.sec == 2 and msg.header.frame_id == 'imu_link'


@pytest.mark.parametrize('type_name', ['pb:aimrt.protocols.sensor.TouchState',
                                       'pb:aimrt.protocols.sensor.TouchSensorStateArray'])
def test_touch_json_and_pb(bridge, ros_node, type_name):
    as_json = json.dumps({'header': {'time_stamp': '3000000001', 'frame_id': 'hand'},
                          'names': ['tip', 'palm', 'off'],
                          'states': [{'pressure': [1, -2]}, {'pressure': [300]}, {}]}).encode()
    as_pb = (peer.field_bytes(1, peer.header(3_000_000_001, 'hand')) +
             peer.field_bytes(2, 'tip') + peer.field_bytes(2, 'palm') +
             peer.field_bytes(2, 'off') +
             peer.field_bytes(3, peer.packed_varints(1, [1, -2])) +
             peer.field_bytes(3, peer.packed_varints(1, [300])) + peer.field_bytes(3, b''))
    for body, ctype in ((as_json, 'application/json'), (as_pb, 'application/protobuf')):
        def send():
            assert peer.post(bridge, 'touch', type_name, body, ctype)[0] == 200
        msg = receive(ros_node, RosTouchState, 't/touch', send)[0]
        assert (msg.header.stamp.sec, msg.header.stamp.nanosec) == (3, 1)
        assert msg.header.frame_id == 'hand'
        assert msg.names == ['tip', 'palm', 'off']
        assert [list(s.pressure) for s in msg.states] == [[1, -2], [300], []]


@pytest.mark.parametrize('topic,type_name,body,ctype,status', [
    ('sim/joint_state', 'pb:aimrt.protocols.sensor.JointState', b'\x0a\x10\x08',
     'application/protobuf', 400),
    ('sim/joint_state', 'pb:aimrt.protocols.sensor.JointState', b'{"joints": 1}',
     'application/json', 400),
    ('sim/joint_state', 'pb:aimrt.protocols.sensor.JointState', b'', 'text/plain', 415),
    ('sim/joint_state', 'pb:aimrt.protocols.sensor.ImuState', b'', 'application/protobuf', 400),
    ('sim/joint_state', 'pb:aimrt.protocols.sensor.Bogus', b'', 'application/protobuf', 400),
    ('nope', 'pb:aimrt.protocols.sensor.JointState', b'', 'application/protobuf', 404),
    ('imu', 'pb:aimrt.protocols.sensor.ImuState', b'\x1a\x08' + b'\x00' * 8,
     'application/protobuf', 422),  # one covariance value: not 0 or 9
    ('touch', 'pb:aimrt.protocols.sensor.TouchState', b'\x12\x01a\x12\x01b\x1a\x00',
     'application/protobuf', 422),  # two names, one state
])
def test_bad_input_is_refused_and_not_published(bridge, ros_node, topic, type_name, body,
                                                ctype, status):
    assert peer.post(bridge, topic, type_name, body, ctype)[0] == status
    # a good message sent after the bad one is the first thing to arrive
    good = joint_state_pb(seq=None)
    sent = []

    def send():
        if not sent:
            sent.append(peer.post(bridge, topic, type_name, body, ctype)[0])
        peer.post(bridge, 'sim/joint_state', 'pb:aimrt.protocols.sensor.JointState', good,
                  'application/protobuf')
    msgs = receive(ros_node, JointState, 't/joint_states', send)
    assert sent == [status]
    assert all(m.name == ['j0', 'j1', 'j2'] for m in msgs)


COMMAND_STAMP = (1_700_000_123, 456)


def command_msg(**fields):
    msg = RosJointCommand(name=['hip', 'knee'], position=[0.1, -0.1], velocity=[0.2, 0.0],
                          effort=[0.3, -2.0], stiffness=[40.0, 60.0], damping=[1.5, 2.5])
    msg.header.stamp.sec, msg.header.stamp.nanosec = COMMAND_STAMP
    msg.header.frame_id = 'pelvis'
    for name, value in fields.items():
        setattr(msg, name, value)
    return msg


def wait_request(ros_node, aimrt_sub, topic, before=()):
    """Publish `before` then a good command until the bridge POSTs; return the POSTs."""
    node, executor = ros_node
    pub = node.create_publisher(RosJointCommand, topic, QoSProfile(depth=10))
    try:
        deadline = time.monotonic() + WAIT_SEC
        while aimrt_sub.requests.empty():
            assert time.monotonic() < deadline, 'no POST from the bridge'
            if pub.get_subscription_count():
                for msg in before:
                    pub.publish(msg)
                pub.publish(command_msg())
            executor.spin_once(timeout_sec=0.2)
        time.sleep(0.2)  # let POSTs already on their way land too
        requests = []
        while not aimrt_sub.requests.empty():
            requests.append(aimrt_sub.requests.get_nowait())
        return requests
    finally:
        node.destroy_publisher(pub)


def check_joints(joints):
    assert [j['name'] for j in joints] == ['hip', 'knee']
    assert [(j['position'], j['velocity'], j['effort'], j['stiffness'], j['damping'])
            for j in joints] == [(0.1, 0.2, 0.3, 40.0, 1.5), (-0.1, 0.0, -2.0, 60.0, 2.5)]


def parse_pb_command(body):
    """(time_stamp, frame_id, joints) of a protobuf JointCommand; proto3 omits zeros."""
    top = peer.parse(body)
    hdr = peer.parse(top[1][0])
    names = ('name', 'position', 'velocity', 'effort', 'stiffness', 'damping')
    joints = []
    for raw in top[2]:
        f = peer.parse(raw)
        joints.append({'name': f[1][0].decode(),
                       **{names[n - 1]: peer.as_double(f[n][0]) if n in f else 0.0
                          for n in range(2, 7)}})
    return hdr.get(1, [0])[0], hdr.get(2, [b''])[0].decode(), joints


def test_command_to_aimrt_pb_keeps_header(bridge, ros_node, aimrt_sub):
    # commands the bridge must refuse, published before each good one on the same
    # (reliable, ordered) topic: if any were POSTed it would be among the requests
    bad = [command_msg(velocity=[1.0]), command_msg(position=[]),
           command_msg(damping=[1.0, 2.0, 3.0])]
    bad[0].header.frame_id = 'bad'
    requests = wait_request(ros_node, aimrt_sub, 't/joint_command', before=bad)
    for path, ctype, body in requests:
        assert path == '/channel/sim%2Fjoint_command/pb%3Aaimrt.protocols.sensor.JointCommand'
        assert ctype == 'application/protobuf'
        stamp, frame_id, joints = parse_pb_command(body)
        assert stamp == COMMAND_STAMP[0] * 10**9 + COMMAND_STAMP[1]  # the publisher's stamp
        assert frame_id == 'pelvis'
        check_joints(joints)
    # they reached the bridge and were refused with a reason
    deadline = time.monotonic() + WAIT_SEC
    while 'joint command not sent' not in BRIDGE_LOGS[bridge].read_text():
        assert time.monotonic() < deadline, 'bridge logged no refused command'
        time.sleep(0.1)


def test_command_empty_optional_arrays_are_zero(tmp_path, ros_node):
    sub = peer.AimrtSubscriber()
    port = free_port()
    proc, log = start_bridge(
        tmp_path, 'zero', http_port=port, state_aimrt_topics=['unused'],
        state_types=['JointState'], state_ros_topics=['t/unused_zero'],
        command_ros_topics=['t/joint_command_zero'], command_aimrt_topics=['cmd'],
        command_addresses=[f'127.0.0.1:{sub.port}'])
    node, executor = ros_node
    pub = node.create_publisher(RosJointCommand, 't/joint_command_zero', QoSProfile(depth=10))
    msg = RosJointCommand(name=['hip'], position=[0.7])
    try:
        deadline = time.monotonic() + WAIT_SEC
        while sub.requests.empty():
            assert time.monotonic() < deadline, 'no POST from the bridge'
            if pub.get_subscription_count():
                pub.publish(msg)
            executor.spin_once(timeout_sec=0.2)
        body = sub.requests.get_nowait()[2]
    finally:
        node.destroy_publisher(pub)
        stop(proc, log)
        sub.close()
    stamp, frame_id, joints = parse_pb_command(body)
    assert (stamp, frame_id) == (0, '')  # header as published: unset
    assert joints == [{'name': 'hip', 'position': 0.7, 'velocity': 0.0, 'effort': 0.0,
                       'stiffness': 0.0, 'damping': 0.0}]


def test_command_to_aimrt_json_array_type(tmp_path, ros_node):
    sub = peer.AimrtSubscriber()
    port = free_port()
    proc, log = start_bridge(
        tmp_path, 'json', http_port=port, state_aimrt_topics=['unused'],
        state_types=['JointState'], state_ros_topics=['t/unused'],
        command_ros_topics=['t/joint_command_json'],
        command_aimrt_topics=['cmd'], command_addresses=[f'127.0.0.1:{sub.port}'],
        command_serialization='json',
        command_type_name='pb:aimrt.protocols.sensor.JointCommandArray')
    try:
        path, ctype, body = wait_request(ros_node, sub, 't/joint_command_json')[0]
    finally:
        stop(proc, log)
        sub.close()
    assert path == '/channel/cmd/pb%3Aaimrt.protocols.sensor.JointCommandArray'
    assert ctype == 'application/json'
    doc = json.loads(body)
    assert doc['header'] == {'time_stamp': str(COMMAND_STAMP[0] * 10**9 + COMMAND_STAMP[1]),
                             'frame_id': 'pelvis'}
    check_joints(doc['joints'])
