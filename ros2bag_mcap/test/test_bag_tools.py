# SPDX-License-Identifier: Apache-2.0
"""Schema text, QoS, file splitting, bad input, stopped/killed recordings, play -r/--loop, plot."""

import os
import re
import signal
import subprocess
import time

import pytest
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from ros2bag_mcap import bag, qos, schema
import workspace_testing as wt


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


def _publisher():
    """Return a transient-local publisher (a recorder matching it subscribes so too)."""
    import rclpy
    from std_msgs.msg import String
    ctx = rclpy.Context()
    ctx.init()
    node = rclpy.create_node('bag_test_pub', context=ctx, start_parameter_services=False)
    pub = node.create_publisher(String, '/bag_test/chatter', QoSProfile(
        depth=10, durability=DurabilityPolicy.TRANSIENT_LOCAL))
    return ctx, node, pub


def _recorder_subscription(node, topic):
    infos = [i for i in node.get_subscriptions_info_by_topic(topic)
             if i.node_name == 'ros2bag_mcap_recorder']
    return infos[0].qos_profile if infos else None


# SIGINT: test_bag_hb50's recording. The SIGTERM recording also runs `--max-bag-duration`
# and `--qos-profile-overrides-path` through the CLI.
@pytest.mark.parametrize('sig', [signal.SIGTERM, signal.SIGKILL])
def test_interrupted_and_killed_recordings(tmp_path, sig):
    from std_msgs.msg import String
    wt.isolate()
    ctx, node, pub = _publisher()
    uri = str(tmp_path / 'rec')
    options = []
    if sig == signal.SIGTERM:
        overrides = tmp_path / 'qos.yaml'
        # Volatile where matching the publisher would give transient local.
        overrides.write_text('/bag_test/chatter:\n  reliability: reliable\n'
                             '  durability: volatile\n  depth: 500\n')
        options = ['--max-bag-duration', '1', '--qos-profile-overrides-path', str(overrides)]
    rec = wt.start([wt.executable('ros2bag_mcap', 'ros2bag'), 'record', '/bag_test/chatter',
                    '-o', uri, *options])
    try:
        assert wt.wait_for(lambda: pub.get_subscription_count() > 0, 20), 'no recorder'
        assert wt.wait_for(lambda: _recorder_subscription(node, '/bag_test/chatter'), 10)
        subscribed = _recorder_subscription(node, '/bag_test/chatter')
        time.sleep(0.5)
        sent = []
        deadline = time.monotonic() + 2.2     # three files at --max-bag-duration 1
        while time.monotonic() < deadline:
            sent.append('x' * 200 + str(len(sent)))
            pub.publish(String(data=sent[-1]))
            time.sleep(0.005)
        code, out, stopped_by = wt.stop(rec, first=sig)
    finally:
        node.destroy_node()
        ctx.try_shutdown()
    assert subscribed.reliability == ReliabilityPolicy.RELIABLE
    r = ros2bag('info', uri)
    meta = bag.read_metadata(uri)
    if sig == signal.SIGKILL:
        # No override: the subscription matches the publisher.
        assert subscribed.durability == DurabilityPolicy.TRANSIENT_LOCAL
        assert r.returncode == 1
        assert 'was not closed cleanly' in r.stdout and 'ros2 bag reindex' in r.stdout
        rr = ros2bag('reindex', uri)
        assert rr.returncode == 0, rr.stderr
        r = ros2bag('info', uri)
        assert r.returncode == 0, r.stdout
        meta = bag.read_metadata(uri)
        n = meta['topics_with_message_count'][0]['message_count']
        assert 0 < n <= len(sent)
        assert n == sum(1 for _ in bag.read_messages(uri))
        return
    # SIGTERM: a clean end on the first signal, nothing lost, the reported counts are the
    # bag's, the override was the subscription's QoS, the bag is split.
    assert code == 0 and stopped_by == signal.SIGTERM and 'Traceback' not in out, out
    assert r.returncode == 0, r.stdout
    assert subscribed.durability == DurabilityPolicy.VOLATILE
    # metadata.yaml keeps the publisher's offered profile, as rosbag2_transport does
    # (Recorder::subscribe_topics: offered_qos_profiles_for_topic of the publishers).
    (topic,) = meta['topics_with_message_count']
    (offered,) = topic['topic_metadata']['offered_qos_profiles']
    assert offered['durability'] == 'transient_local'
    from rclpy.serialization import deserialize_message
    assert [deserialize_message(d, String).data
            for _, _, d, _, _ in bag.read_messages(uri)] == sent
    reported = re.search(r'/bag_test/chatter: (\d+) messages written', out)
    assert reported and int(reported.group(1)) == topic['message_count'] == len(sent)
    files = sorted(f for f in os.listdir(uri) if f.endswith('.mcap'))
    assert len(files) >= 2, files
    assert sorted(meta['relative_file_paths']) == files
    assert [f['path'] for f in meta['files']] == meta['relative_file_paths']
    assert sum(f['message_count'] for f in meta['files']) == len(sent)
    assert f'{len(sent)} messages in {len(files)} file(s)' in out
    for f in meta['files']:
        assert f['duration']['nanoseconds'] < 1_000_000_000


def test_play_rate_and_loop(tmp_path):
    """`play -r 2 --loop`: each pass takes about half the recorded span, the passes repeat."""
    from rclpy.serialization import serialize_message
    from std_msgs.msg import String
    from workspace_testing.probe import Probe
    wt.isolate()
    topic = '/bag_test/replay'
    uri = str(tmp_path / 'src')
    w = bag.BagWriter(uri)
    w.add_topic(topic, 'std_msgs/msg/String', [QoSProfile(depth=10)])
    n, period = 81, 25_000_000      # 2 s recorded
    t0 = 1_700_000_000_000_000_000
    sent = [serialize_message(String(data=f'message {i:03d}')) for i in range(n)]
    for i, data in enumerate(sent):
        w.write(topic, data, t0 + i * period)
    w.close()
    probe = Probe({topic: String}, raw=True, reliable={topic})

    def complete_passes():
        with probe.lock:
            data = [bytes(d) for _, d in probe.records[topic]]
        return (len(data) - data.index(sent[0])) // n if sent[0] in data else 0
    try:
        player = wt.start([wt.executable('ros2bag_mcap', 'ros2bag'), 'play', uri, '-r', '2',
                           '--loop', '--delay', '1'])
        two_passes = wt.wait_for(lambda: complete_passes() >= 2, 60, period=0.2)
        code, out, _ = wt.stop(player)
    finally:
        probe.close()
    assert two_passes, f'{probe.count(topic)} messages received: {out}'
    assert code == 0 and 'Traceback' not in out, out
    got = probe.records[topic]
    data = [bytes(d) for _, d in got]
    # Reliable: from the first complete pass on (discovery on a loaded machine may cost the
    # head of the first pass or more), the passes follow each other in order, none lost.
    i0 = data.index(sent[0])
    assert i0 < n and data[:i0] == sent[n - i0:]
    assert len(data) - i0 >= 2 * n
    assert data[i0:] == (sent * (len(data) // n + 1))[:len(data) - i0]
    # The factor: a pass spans about half the recorded time at the receiver.
    span = (got[i0 + n - 1][0] - got[i0][0]) / ((n - 1) * period)
    assert 0.35 <= span <= 0.7, f'pass took {span:.2f} of the recorded span at -r 2'


def test_pnd_lowstate_plot(tmp_path):
    """bag_plot's PND LowState figure shows the bag's q/dq/tau_est with titles, units, legend."""
    import numpy as np
    from pnd_adam.msg import LowState, MotorState
    from rclpy.serialization import serialize_message
    from ros2bag_mcap.plot import plot_bag, RATE_BIN
    uri = str(tmp_path / 'pnd')
    w = bag.BagWriter(uri)
    w.add_topic('/lowstate', 'pnd_adam/msg/LowState', [QoSProfile(depth=10)])
    n, motors = 40, 19
    rng = np.random.default_rng(11)
    values = rng.uniform(-3.0, 3.0, size=(n, motors, 3)).astype(np.float32)
    t0 = 1_700_000_000_000_000_000
    times = [t0 + i * 2_000_000 + int(rng.integers(0, 500_000)) for i in range(n)]
    for i in range(n):
        msg = LowState(tick=i, motor_state=[
            MotorState(q=float(q), dq=float(dq), tau_est=float(tau)) for q, dq, tau in values[i]])
        w.write('/lowstate', serialize_message(msg), times[i])
    w.close()
    out = tmp_path / 'plots'
    written = plot_bag(uri, str(out))
    path = str(out / 'pnd_lowstate_lowstate.png')
    assert set(written) == {path, str(out / 'topic_rates.png')}
    for p in written:
        assert os.path.getsize(p) > 10_000
        with open(p, 'rb') as f:
            assert f.read(8) == b'\x89PNG\r\n\x1a\n'
    axes = written[path]
    expect_t = (np.asarray(times, dtype=np.int64) - times[0]) / 1e9
    figures = (('position q', 'rad'), ('velocity dq', 'rad/s'), ('torque tau_est', 'N·m'))
    assert list(axes) == [f'PND lowstate {label} (/lowstate)' for label, _ in figures]
    for k, (label, unit) in enumerate(figures):
        ax = axes[f'PND lowstate {label} (/lowstate)']
        assert ax.ylabel == f'{label} [{unit}]'
        assert ax.legend == [f'motor {j}' for j in range(motors)]
        for j in range(motors):
            x, y = ax[f'motor {j}']
            np.testing.assert_allclose(x, expect_t, rtol=0, atol=1e-9)
            np.testing.assert_array_equal(y, values[:, j, k].astype(np.float64))
    assert axes['PND lowstate torque tau_est (/lowstate)'].xlabel == 'time since bag start [s]'
    (rates,) = written[str(out / 'topic_rates.png')].values()
    assert rates.ylabel == 'rate [messages/s]' and rates.legend == ['/lowstate']
    x, y = rates['/lowstate']
    assert int(round(y.sum() * RATE_BIN)) == n
