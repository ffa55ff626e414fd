# SPDX-License-Identifier: Apache-2.0
"""Schema text, QoS round trips, file splitting, bad input, and a killed recorder."""

import os
import signal
import subprocess
import time

import pytest
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from ros2bag_mcap import bag, qos, schema
import workspace_testing as wt
import yaml


def ros2bag(*args, timeout=60):
    return subprocess.run([wt.executable('ros2bag_mcap', 'ros2bag'), *args],
                          capture_output=True, text=True, timeout=timeout)


def test_schema_text_has_rosbag2_layout():
    text = schema.message_definition('geometry_msgs/msg/TwistStamped')
    parts = text.split('\n' + '=' * 80 + '\n')
    assert parts[0] == schema.msg_file_text('geometry_msgs', 'TwistStamped')
    names = [p.split('\n', 1)[0] for p in parts[1:]]
    # Depth-first, dependencies sorted, each once.
    assert names == ['MSG: geometry_msgs/Twist', 'MSG: geometry_msgs/Vector3',
                     'MSG: std_msgs/Header', 'MSG: builtin_interfaces/Time']
    assert parts[1].split('\n', 1)[1] == schema.msg_file_text('geometry_msgs', 'Twist')


def test_schema_parses_with_mcap_ros2_for_every_hb50_and_pnd_type():
    from mcap.records import Schema
    from mcap_ros2.decoder import DecoderFactory
    from rclpy.serialization import serialize_message
    for type_name in ('hb50_commons/msg/BridgeData', 'hb50_commons/msg/RobotState',
                      'hb50_commons/msg/JointCommand', 'pnd_adam/msg/LowState'):
        cls = schema.message_class(type_name)
        decode = DecoderFactory().decoder_for('cdr', Schema(
            id=1, name=type_name, encoding='ros2msg',
            data=schema.message_definition(type_name).encode()))
        decoded = decode(serialize_message(cls()))
        assert set(cls.get_fields_and_field_types()) <= set(decoded.__slots__)


def test_unknown_type_is_a_clear_error():
    with pytest.raises(schema.DefinitionNotFound):
        schema.message_definition('no_such_pkg/msg/Nothing')


def test_qos_round_trip_and_matching():
    p = QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT,
                   durability=DurabilityPolicy.VOLATILE, history=HistoryPolicy.KEEP_LAST)
    d = qos.to_dict(p)
    assert d['reliability'] == 'best_effort' and d['history'] == 'keep_last'
    back = qos.from_dict(d)
    assert (back.reliability, back.depth, back.history) == (p.reliability, 1, p.history)
    # v8 integers are accepted too.
    assert qos.from_dict({'reliability': 2}).reliability == ReliabilityPolicy.BEST_EFFORT
    reliable = QoSProfile(depth=10)
    m = qos.matching_profile([reliable, p], 1000)
    assert m.reliability == ReliabilityPolicy.BEST_EFFORT and m.depth == 1000
    assert qos.matching_profile([reliable], 5).reliability == ReliabilityPolicy.RELIABLE
    assert qos.parse_profiles(qos.dump_profiles([p]))[0].reliability == p.reliability


def test_overrides_file(tmp_path):
    good = tmp_path / 'o.yaml'
    good.write_text('/a:\n  reliability: best_effort\n  depth: 3\n'
                    '/b:\n  durability: transient_local\n'
                    '  deadline:\n    sec: 1\n    nsec: 5\n')
    o = qos.load_overrides(str(good))
    assert o['/a'].reliability == ReliabilityPolicy.BEST_EFFORT and o['/a'].depth == 3
    assert o['/b'].durability == DurabilityPolicy.TRANSIENT_LOCAL
    assert o['/b'].deadline.nanoseconds == 1_000_000_005
    bad = tmp_path / 'bad.yaml'
    bad.write_text('/a:\n  reliability: sometimes\n')
    with pytest.raises(ValueError, match='reliability'):
        qos.load_overrides(str(bad))
    r = ros2bag('record', '-a', '-o', str(tmp_path / 'x'),
                '--qos-profile-overrides-path', str(bad))
    assert r.returncode == 2 and r.stderr.strip().startswith('error:')
    assert len(r.stderr.strip().splitlines()) == 1 and 'Traceback' not in r.stderr
    assert not (tmp_path / 'x').exists()


def test_split_by_duration_and_read_back(tmp_path):
    from rclpy.serialization import serialize_message
    from std_msgs.msg import String
    w = bag.BagWriter(str(tmp_path / 'b'), max_bag_duration=1.0)
    w.add_topic('/s', 'std_msgs/msg/String', [QoSProfile(depth=7)])
    t0 = 1_700_000_000_000_000_000
    for i in range(30):
        w.write('/s', serialize_message(String(data=str(i))), t0 + i * 100_000_000)
    w.close()
    meta = bag.read_metadata(str(tmp_path / 'b'))
    assert meta['relative_file_paths'] == ['b_0.mcap', 'b_1.mcap', 'b_2.mcap']
    assert [f['message_count'] for f in meta['files']] == [10, 10, 10]
    assert meta['message_count'] == 30
    assert meta['duration']['nanoseconds'] == 29 * 100_000_000
    data = [d for _, _, d, _, _ in bag.read_messages(str(tmp_path / 'b'))]
    assert data == [serialize_message(String(data=str(i))) for i in range(30)]
    r = ros2bag('info', str(tmp_path / 'b'))
    assert r.returncode == 0 and 'Count: 30' in r.stdout


def test_bad_bag_path_is_one_line_error(tmp_path):
    for verb in ('info', 'play'):
        r = ros2bag(verb, str(tmp_path / 'none'))
        assert r.returncode != 0
        assert 'Traceback' not in r.stderr + r.stdout
        assert 'error' in (r.stderr + r.stdout)


def _publisher(rate_hz):
    import rclpy
    from std_msgs.msg import String
    ctx = rclpy.Context()
    ctx.init()
    node = rclpy.create_node('bag_test_pub', context=ctx, start_parameter_services=False)
    pub = node.create_publisher(String, '/bag_test/chatter', 10)
    return ctx, node, pub


# SIGINT: test_bag_hb50's recording; SIGTERM takes the same path (node_runtime.stop).
@pytest.mark.parametrize('sig', [signal.SIGKILL])
def test_interrupted_and_killed_recordings(tmp_path, sig):
    from std_msgs.msg import String
    wt.isolate()
    ctx, node, pub = _publisher(200)
    uri = str(tmp_path / 'rec')
    rec = wt.start([wt.executable('ros2bag_mcap', 'ros2bag'), 'record', '/bag_test/chatter',
                    '-o', uri])
    try:
        assert wt.wait_for(lambda: pub.get_subscription_count() > 0, 20), 'no recorder'
        time.sleep(0.5)
        sent = 0
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline:
            pub.publish(String(data='x' * 200 + str(sent)))
            sent += 1
            time.sleep(0.005)
        code, out, _ = wt.stop(rec, first=sig)
    finally:
        node.destroy_node()
        ctx.try_shutdown()
    r = ros2bag('info', uri)
    if sig == signal.SIGKILL:
        assert r.returncode == 1
        assert 'was not closed cleanly' in r.stdout and 'ros2 bag reindex' in r.stdout
        rr = ros2bag('reindex', uri)
        assert rr.returncode == 0, rr.stderr
        r = ros2bag('info', uri)
        assert r.returncode == 0, r.stdout
        meta = bag.read_metadata(uri)
        n = meta['topics_with_message_count'][0]['message_count']
        assert 0 < n <= sent
        assert n == sum(1 for _ in bag.read_messages(uri))
    else:
        assert code == 0 and 'Traceback' not in out, out
        assert '/bag_test/chatter: ' in out
        assert r.returncode == 0, r.stdout
        with open(os.path.join(uri, 'metadata.yaml')) as f:
            meta = yaml.safe_load(f)['rosbag2_bagfile_information']
        assert meta['topics_with_message_count'][0]['message_count'] == sent
