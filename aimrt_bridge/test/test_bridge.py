# SPDX-License-Identifier: Apache-2.0
"""
End to end: the installed bridge node against an independent AimRT peer.

The peer is aimrt_peer.py (standard library only); both directions, protobuf and JSON.
Also: the shipped config file, run-time parameter sets (and refusals of read-only ones),
a QoS override from a parameters file as discovery reports it, and use_sim_time.
Processes and the DDS domain come from workspace_testing.
"""
import json
import os
import time

import aimrt_peer as peer
from aimrt_protocols_msgs.msg import JointCommand as RosJointCommand
from aimrt_protocols_msgs.msg import TouchState as RosTouchState
from ament_index_python.packages import get_package_share_directory
import pytest
import rclpy
from rclpy.parameter import Parameter
from rclpy.parameter_client import AsyncParameterClient
from rclpy.qos import QoSProfile, ReliabilityPolicy
from rclpy.time import Time
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import Imu, JointState
import workspace_testing as wt
from workspace_testing.http_sink import HttpSink

WAIT_SEC = 60.0  # bound for discovery/start-up on a loaded machine; tests end once data arrives
SHIPPED_CONFIG = os.path.join(get_package_share_directory('aimrt_bridge'), 'config',
                              'aimrt_bridge.yaml')
MAIN_NODE = 'aimrt_bridge_main'   # the module's bridge, by a name no other bridge here has


def start_bridge(tmp_path, name, domain, *, files=(), ros_args=(), **params):
    """Start the bridge with `files` then `params` as parameters files; wait for its server."""
    cfg = tmp_path / f'{name}.yaml'
    cfg.write_text(json.dumps({'/**': {'ros__parameters': params}}))  # JSON is YAML
    args = [wt.executable('aimrt_bridge', 'aimrt_bridge_node'), '--ros-args']
    for f in (*files, cfg):
        args += ['--params-file', str(f)]
    proc = wt.start(args + list(ros_args), env=wt.localhost_env(domain))
    # ready when its HTTP server accepts connections
    wt.wait_for(lambda: proc.poll() is not None or wt.accepting(params['http_port']), WAIT_SEC)
    assert proc.poll() is None and wt.accepting(params['http_port']), proc.output()
    return proc


def stopped_cleanly(proc):
    """Ctrl-C the bridge; True if it exited 0 on that signal without a traceback."""
    result = wt.stop(proc)
    assert 'Traceback' not in result.output, result.output
    return result.returncode == 0


@pytest.fixture(scope='module')
def ros_node(domain_id):
    context = rclpy.Context()
    rclpy.init(context=context, domain_id=domain_id)
    node = rclpy.create_node('aimrt_bridge_test', context=context)
    executor = rclpy.executors.SingleThreadedExecutor(context=context)
    executor.add_node(node)
    yield node, executor
    executor.shutdown()
    node.destroy_node()
    rclpy.shutdown(context=context)


@pytest.fixture(scope='module')
def aimrt_sub():
    sub = HttpSink()
    yield sub
    sub.close()


class Bridge:
    """The module's bridge: its HTTP port and process."""

    def __init__(self, port, proc):
        self.port, self.proc = port, proc


@pytest.fixture(scope='module')
def bridge(tmp_path_factory, aimrt_sub, domain_id):
    port = wt.free_port()
    proc = start_bridge(
        tmp_path_factory.mktemp('bridge'), 'pb', domain_id,
        ros_args=['-r', f'__node:={MAIN_NODE}'], http_port=port,
        state_aimrt_topics=['sim/joint_state', 'imu', 'touch'],
        state_types=['JointState', 'ImuState', 'TouchState'],
        state_ros_topics=['t/joint_states', 't/imu', 't/touch'],
        command_ros_topics=['t/joint_command'], command_aimrt_topics=['sim/joint_command'],
        command_addresses=[f'127.0.0.1:{aimrt_sub.port}'], command_serialization='pb',
        # explicit: the AimRT >= 0.10 messages below carry sequence_num
        accept_unknown_fields=True)
    yield Bridge(port, proc)
    assert stopped_cleanly(proc)


def test_shipped_config_bridges_aimrt_010_dropping_unknown_fields_with_a_log(
        tmp_path, domain_id, ros_node):
    port = wt.free_port()
    # the installed config file as shipped (every default), only the port moved
    proc = start_bridge(tmp_path, 'defaults', domain_id, files=[SHIPPED_CONFIG],
                        http_port=port)
    try:
        state = 'pb:aimrt.protocols.sensor.JointState'
        # AimRT >= 0.10 Header.sequence_num has no ROS 2 field: dropped, and said so
        assert peer.post(port, 'joint_state', state, joint_state_pb(seq=7),
                         'application/protobuf')[0] == 200
        as_json = json.dumps({'header': {'time_stamp': '1', 'sequence_num': '7'}})
        assert peer.post(port, 'joint_state', state, as_json.encode(),
                         'application/json')[0] == 200
        # its qos_overrides entries are taken: the offered QoS is the one they state
        assert offered(ros_node, '/aimrt/joint_states') == [ReliabilityPolicy.RELIABLE]
    finally:
        assert stopped_cleanly(proc)
    text = proc.output()
    assert text.count('dropping unknown_fields') == 1, text  # logged once per topic


def test_refusing_unknown_fields_and_stopping_cleanly_on_sigint(tmp_path, domain_id):
    port = wt.free_port()
    proc = start_bridge(tmp_path, 'sigint', domain_id, http_port=port,
                        accept_unknown_fields=False)
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
        assert stopped_cleanly(proc)


def offered(ros_node, topic, count=1):
    """Reliability of each publisher of `topic`, as discovery reports it (waits for count)."""
    node, _ = ros_node
    infos = wt.wait_for(lambda: (lambda i: i if len(i) >= count else None)(
        node.get_publishers_info_by_topic(topic)), WAIT_SEC)
    assert infos, f'no publisher of {topic}'
    return [i.qos_profile.reliability for i in infos]


def call(ros_node, future):
    executor = ros_node[1]
    executor.spin_until_future_complete(future, timeout_sec=WAIT_SEC)
    assert future.done(), 'no answer from the parameter service'
    return future.result()


@pytest.fixture(scope='module')
def params(bridge, ros_node):
    """Return a parameter client of the module's bridge."""
    client = AsyncParameterClient(ros_node[0], MAIN_NODE)
    assert client.wait_for_services(timeout_sec=WAIT_SEC)
    return client


def test_parameters_are_described_and_start_up_ones_are_read_only(bridge, ros_node, params):
    descriptors = call(ros_node, params.describe_parameters(
        ['http_port', 'log_period_sec', 'accept_unknown_fields'])).descriptors
    port, period, accept = descriptors
    assert port.read_only and 'TCP port' in port.description
    assert (port.integer_range[0].from_value, port.integer_range[0].to_value) == (0, 65535)
    assert not period.read_only and '[s]' in period.description
    assert not accept.read_only and '422' in accept.description
    # a start-up parameter (and a QoS override) cannot be set at run time
    for name, value in (('http_port', 1234), ('command_queue_depth', 3),
                        ('qos_overrides./t/imu.publisher.depth', 5)):
        result = call(ros_node, params.set_parameters([Parameter(name, value=value)]))
        assert not result.results[0].successful, name
        assert 'read-only' in result.results[0].reason, result.results[0].reason
    assert wt.accepting(bridge.port)
    # out of range: refused with the reason
    result = call(ros_node, params.set_parameters([Parameter('log_period_sec', value=-1.0)]))
    assert not result.results[0].successful
    assert 'out of range' in result.results[0].reason, result.results[0].reason


def test_accept_unknown_fields_set_at_run_time_takes_effect(bridge, ros_node, params):
    state = 'pb:aimrt.protocols.sensor.JointState'
    try:
        result = call(ros_node, params.set_parameters(
            [Parameter('accept_unknown_fields', value=False)]))
        assert result.results[0].successful, result.results[0].reason
        assert peer.post(bridge.port, 'sim/joint_state', state, joint_state_pb(seq=7),
                         'application/protobuf')[0] == 422
    finally:
        result = call(ros_node, params.set_parameters(
            [Parameter('accept_unknown_fields', value=True)]))
    assert result.results[0].successful
    assert peer.post(bridge.port, 'sim/joint_state', state, joint_state_pb(seq=7),
                     'application/protobuf')[0] == 200


def test_qos_override_and_use_sim_time(tmp_path, domain_id, ros_node):
    """
    A qos_overrides entry of a parameters file changes the offered QoS of that topic only.

    With use_sim_time:=true and /clock at 1000 s the bridge runs on /clock (it subscribes
    to it) and its stamps stay the ones the AimRT message carries: the bridge stamps
    nothing with a local time.
    """
    node = ros_node[0]
    port = wt.free_port()
    clock = node.create_publisher(Clock, '/clock', 10)
    clock.publish(Clock(clock=Time(seconds=1000).to_msg()))
    proc = start_bridge(
        tmp_path, 'qos', domain_id, ros_args=['-r', '__node:=aimrt_bridge_qos'],
        http_port=port, use_sim_time=True, state_aimrt_topics=['js', 'imu'],
        state_types=['JointState', 'ImuState'], state_ros_topics=['q/joint_states', 'q/imu'],
        **{'qos_overrides./q/joint_states.publisher.reliability': 'best_effort',
           'qos_overrides./q/joint_states.publisher.depth': 3})
    try:
        assert offered(ros_node, '/q/joint_states') == [ReliabilityPolicy.BEST_EFFORT]
        assert offered(ros_node, '/q/imu') == [ReliabilityPolicy.RELIABLE]
        assert wt.wait_for(lambda: any(i.node_name == 'aimrt_bridge_qos' for i in
                                       node.get_subscriptions_info_by_topic('/clock')),
                           WAIT_SEC), 'the bridge does not follow /clock'

        def send():
            clock.publish(Clock(clock=Time(seconds=1000).to_msg()))
            assert peer.post(port, 'js', 'pb:aimrt.protocols.sensor.JointState',
                             joint_state_pb(seq=None), 'application/protobuf')[0] == 200
        msg = receive(ros_node, JointState, 'q/joint_states', send,
                      QoSProfile(depth=50, reliability=ReliabilityPolicy.BEST_EFFORT))[0]
        assert (msg.header.stamp.sec, msg.header.stamp.nanosec) == (1_700_000_000, 123)
    finally:
        node.destroy_publisher(clock)
        assert stopped_cleanly(proc)


def receive(ros_node, msg_type, topic, send, qos=None):
    """Subscribe, then call send() until a message arrives; return the messages."""
    node, executor = ros_node
    got = []
    sub = node.create_subscription(msg_type, topic, got.append, qos or QoSProfile(depth=50))
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
        statuses.append(peer.post(bridge.port, 'sim/joint_state',
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
        assert peer.post(bridge.port, 'sim/joint_state',
                         'pb:aimrt.protocols.sensor.JointStateArray',
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
        assert peer.post(bridge.port, 'imu', 'pb:aimrt.protocols.sensor.ImuState', body,
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
            assert peer.post(bridge.port, 'touch', type_name, body, ctype)[0] == 200
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
    assert peer.post(bridge.port, topic, type_name, body, ctype)[0] == status
    # a good message sent after the bad one is the first thing to arrive
    good = joint_state_pb(seq=None)
    sent = []

    def send():
        if not sent:
            sent.append(peer.post(bridge.port, topic, type_name, body, ctype)[0])
        peer.post(bridge.port, 'sim/joint_state', 'pb:aimrt.protocols.sensor.JointState', good,
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
    assert wt.wait_for(lambda: 'joint command not sent' in bridge.proc.output(), WAIT_SEC), \
        'bridge logged no refused command'


def test_command_empty_optional_arrays_are_zero(tmp_path, domain_id, ros_node):
    sub = HttpSink()
    port = wt.free_port()
    proc = start_bridge(
        tmp_path, 'zero', domain_id, http_port=port, state_aimrt_topics=['unused'],
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
        assert stopped_cleanly(proc)
        sub.close()
    stamp, frame_id, joints = parse_pb_command(body)
    assert (stamp, frame_id) == (0, '')  # header as published: unset
    assert joints == [{'name': 'hip', 'position': 0.7, 'velocity': 0.0, 'effort': 0.0,
                       'stiffness': 0.0, 'damping': 0.0}]


def test_command_to_aimrt_json_array_type(tmp_path, domain_id, ros_node):
    sub = HttpSink()
    port = wt.free_port()
    proc = start_bridge(
        tmp_path, 'json', domain_id, http_port=port, state_aimrt_topics=['unused'],
        state_types=['JointState'], state_ros_topics=['t/unused'],
        command_ros_topics=['t/joint_command_json'],
        command_aimrt_topics=['cmd'], command_addresses=[f'127.0.0.1:{sub.port}'],
        command_serialization='json',
        command_type_name='pb:aimrt.protocols.sensor.JointCommandArray')
    try:
        path, ctype, body = wait_request(ros_node, sub, 't/joint_command_json')[0]
    finally:
        assert stopped_cleanly(proc)
        sub.close()
    assert path == '/channel/cmd/pb%3Aaimrt.protocols.sensor.JointCommandArray'
    assert ctype == 'application/json'
    doc = json.loads(body)
    assert doc['header'] == {'time_stamp': str(COMMAND_STAMP[0] * 10**9 + COMMAND_STAMP[1]),
                             'frame_id': 'pelvis'}
    check_joints(doc['joints'])
