# SPDX-License-Identifier: Apache-2.0
"""20 s of the running HB50 stack recorded, read back independently, replayed and plotted."""

import os
import re
import time

from hb50_nodes.qos import profile_for
import numpy as np
import pytest
from rclpy.qos import ReliabilityPolicy
from ros2bag_mcap.schema import message_class
import workspace_testing as wt
from workspace_testing.hb50_stack import HB50_EXECUTABLES, published_counts, \
    start_hb50_stack
from workspace_testing.messages import plain_fields
from workspace_testing.probe import Probe
import yaml

HB50_TOPICS = {
    '/hb50/bridge_data': 'hb50_commons/msg/BridgeData',
    '/hb50/bridge_state': 'hb50_commons/msg/BridgeState',
    '/hb50/bridge_state_10hz': 'hb50_commons/msg/BridgeState',
    '/hb50/joint_command': 'hb50_commons/msg/JointCommand',
    '/hb50/robot_state': 'hb50_commons/msg/RobotState',
    '/hb50/robot_state_10hz': 'hb50_commons/msg/RobotState',
    '/hb50/status': 'hb50_commons/msg/Status',
    '/hb50/heartbeat': 'hb50_commons/msg/Status',
}
# 500 Hz topics -> node whose debug line counts them; a 10 Hz one carries the sample of each
# debug line (one per 100 ms slot).
FAST = {'/hb50/bridge_data': ('bridge_node', 1), '/hb50/bridge_state': ('bridge_node', 1),
        '/hb50/bridge_state_10hz': ('bridge_node', 50),
        '/hb50/joint_command': ('control_node', 1), '/hb50/robot_state': ('control_node', 1),
        '/hb50/robot_state_10hz': ('control_node', 50)}
RECORD_S = 20.0
# The topics the HB50 spec publishes RELIABLE (its 'Reliable' profile): the probe asks for
# the same, so it loses none of them.
RELIABLE_TOPICS = frozenset(
    t for t in HB50_TOPICS if profile_for(t).reliability == ReliabilityPolicy.RELIABLE)


def classes(topics):
    """{topic: generated class} of {topic: type name}."""
    return {t: message_class(n) for t, n in topics.items()}


def ros2bag():
    return wt.executable('ros2bag_mcap', 'ros2bag')


def stamp_ns(msg):
    return msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec


@pytest.fixture(scope='module')
def session(tmp_path_factory):
    wt.isolate()
    out = {'dir': tmp_path_factory.mktemp('bag')}
    bag = str(out['dir'] / 'hb50')
    stack = start_hb50_stack()
    # Raw: the probe shares the machine with the stack and the recorder, and deserializing
    # ~3000 messages/s here would take the CPU the recorder needs (the test deserializes later).
    probe = Probe(classes(HB50_TOPICS), raw=True, reliable=RELIABLE_TOPICS)
    try:
        assert wt.wait_for(lambda: probe.count('/hb50/robot_state') > 100, 20), \
            'the HB50 stack did not come up'
        base = {t: probe.node.count_subscribers(t) for t in FAST}
        # The live reference starts with the recorder: every HB50 topic is volatile, so
        # nothing published before the recorder started can be in the bag (and the samples
        # of before are not deserialized for nothing).
        probe.clear()
        rec = wt.start([ros2bag(), 'record', '-a', '-o', bag])
        # The 20 s count from the moment the recorder subscribed to every 500 Hz topic.
        assert wt.wait_for(
            lambda: all(probe.node.count_subscribers(t) > base[t] for t in FAST), 30)
        ready = time.time_ns()
        time.sleep(RECORD_S)
        stack_stop = time.time_ns()
        # The monitor first: it would report the others' shutdown as events.
        outputs = {name: wt.stop(stack[name]).output for name in reversed(list(stack))}
        time.sleep(0.5)
        rc, rec_out, _ = wt.stop(rec)
    finally:
        for p in stack.values():
            if p.poll() is None:
                wt.stop(p)
        probe.settle()      # the publishers are gone: the probe takes what it still queues
        probe.close()
    out.update(bag=bag, probe=probe, outputs=outputs, rec_rc=rc, rec_out=rec_out,
               ready=ready, stack_stop=stack_stop)
    # The replay test's playback runs while the tests before it analyse the recording.
    out['replay'] = _start_replay(bag)
    try:
        yield out
    finally:
        _finish_replay(out['replay'])


REPLAY_TOPICS = ['/hb50/bridge_data', '/hb50/robot_state', '/hb50/joint_command',
                 '/hb50/bridge_state', '/hb50/heartbeat']
REPLAY_OFFSET = 14.0


def _start_replay(bag):
    """
    Start playing the bag's last seconds to a probe; return what test_replay_... checks.

    Player and receiver run at SCHED_FIFO (when permitted): the check is about the player's
    order and count, not about how loaded the test machine is, so the playback runs while
    the other tests of the recording use the CPU (the receiver's queues, depth 5000, keep
    what its thread has not taken yet). Returns once the player's publishers are seen in the
    graph (during its --delay), with the QoS they offer.
    """
    import rclpy  # noqa: F401  (the probe creates its own context)
    probe = Probe(classes({t: HB50_TOPICS[t] for t in REPLAY_TOPICS}), raw=True, depth=5000,
                  rt_priority=10, reliable=RELIABLE_TOPICS)
    player = None
    offered = {}
    try:
        player = wt.start([ros2bag(), 'play', bag, '--topics', *REPLAY_TOPICS,
                           '--start-offset', str(REPLAY_OFFSET), '--delay', '4',
                           '--rt-priority', '10'])

        # The QoS the player offers, seen in the graph during its --delay.
        def player_publishers():
            for topic in REPLAY_TOPICS:
                for i in probe.node.get_publishers_info_by_topic(topic):
                    if i.node_name == 'ros2bag_mcap_player':
                        offered[topic] = i.qos_profile
            return len(offered) == len(REPLAY_TOPICS)
        wt.wait_for(player_publishers, 30)
    except BaseException:
        _finish_replay({'player': player, 'probe': probe})
        raise
    return {'player': player, 'probe': probe, 'offered': offered}


def _finish_replay(replay):
    """Stop the player (if still running) and the probe; once."""
    if replay.get('finished'):
        return
    replay['finished'] = True
    if replay['player'] is not None:
        wt.stop(replay['player'])
    replay['probe'].close()


@pytest.fixture(scope='module')
def bag_messages(session):
    """{topic: [(log_time, deserialized)]} read with rosbags (the recorder writes with mcap)."""
    from pathlib import Path

    from rosbags.highlevel import AnyReader
    from rosbags.typesys import get_typestore, Stores
    msgs = {}
    with AnyReader([Path(session['bag'])],
                   default_typestore=get_typestore(Stores.EMPTY)) as reader:
        for conn, t, raw in reader.messages():
            msgs.setdefault(conn.topic, []).append((t, reader.deserialize(raw, conn.msgtype)))
    return msgs


def test_recorder_closes_cleanly_and_reports_counts(session, bag_messages):
    assert session['rec_rc'] == 0, session['rec_out']
    assert 'Traceback' not in session['rec_out']
    # The counts the recorder reports are those of metadata.yaml and of the files.
    reported = {t: int(n) for t, n in re.findall(
        r'\[INFO\]   (\S+): (\d+) messages written', session['rec_out'])}
    with open(os.path.join(session['bag'], 'metadata.yaml')) as f:
        info = yaml.safe_load(f)
    meta = {t['topic_metadata']['name']: t['message_count']
            for t in info['rosbag2_bagfile_information']['topics_with_message_count']}
    assert reported == meta
    assert reported == {t: len(bag_messages.get(t, [])) for t in meta}
    for topic in HB50_TOPICS:
        if topic != '/hb50/status':
            assert reported[topic] > 0, topic
    rc = wt.start([ros2bag(), 'info', session['bag']])
    rc.wait(60)
    code, text, _ = wt.stop(rc)
    assert code == 0, text
    assert 'Topic: /hb50/bridge_data | Type: hb50_commons/msg/BridgeData' in text


def test_none_lost_against_publisher_counts(session, bag_messages):
    """
    Compare with the 500 Hz nodes' own counts.

    Debug lines `published n=N t_ns=T`: the first N samples were stamped before T, sample
    N+1 after. Messages with a header are placed by their stamp (exact); BridgeState has no
    header, so its samples are placed by the recorder's receive time, which can move a
    sample still in flight at a window edge across it (counted from bridge_data).
    """
    for topic, (node, every) in FAST.items():
        marks = published_counts(session['outputs'][node])
        msgs = bag_messages[topic]
        has_header = hasattr(msgs[0][1], 'header')
        times = np.array([stamp_ns(m) if has_header else t for t, m in msgs], dtype=np.int64)
        # The window starts at a count mark after the recorder's first message of the topic.
        start = next((n, t) for n, t in marks if t > times.min())
        end = marks[-1]
        assert end[1] - start[1] > 15e9, f'{node}: count window shorter than 15 s'
        # A fast topic has every sample counted by n; a slow one has one per count line.
        expected = end[0] - start[0] if every == 1 else marks.index(end) - marks.index(start)
        got = int(np.count_nonzero((times > start[1]) & (times <= end[1])))
        if has_header:
            assert got == expected, f'{topic}: {expected - got} of {expected} lost'
            assert len(np.unique(times)) == len(times), f'{topic}: duplicates'
        else:
            # A sample is misplaced only if it was in flight across a mark: as many as the
            # bridge_data samples of the same ticks that were (stamp before, receipt after).
            data = bag_messages['/hb50/bridge_data']
            stamp = np.array([stamp_ns(m) for _, m in data], dtype=np.int64)
            recv = np.array([t for t, _ in data], dtype=np.int64)
            tol = 1 + sum(int(np.count_nonzero((stamp <= mark) & (recv > mark))) // every
                          for mark in (start[1], end[1]))
            assert abs(got - expected) <= tol, \
                f'{topic}: {expected - got} of {expected} lost (placement tolerance {tol})'


EVENT_LINE = re.compile(r'^\[(?:INFO|WARN|ERROR)\] \[(\d+)\.(\d+)\] \[[^\]]+\]: '
                        r'\[(?:OK|WARN|ERROR|STALE)\] (.*)$', re.M)


def _heartbeat_period_ns(node):
    """1 / heartbeat_rate of `node` in the installed parameters file the stack ran with."""
    from ament_index_python.packages import get_package_share_directory
    path = os.path.join(get_package_share_directory('hb50_nodes'), 'config', 'hb50.yaml')
    with open(path) as f:
        params = yaml.safe_load(f)
    (section,) = [v for k, v in params.items() if k.strip('/').split('/')[-1] == node]
    return 1e9 / section['ros__parameters']['heartbeat_rate']


def _timer_periods(stamps, period):
    """
    Return the index of the timer period each stamp was sent in.

    The on-time phase is where most stamps sit: the offset (modulo the period) with the
    most stamps in the 5 % of a period after it. Lateness up to 95 % of a period keeps a
    stamp in its own period.
    """
    period = int(period)
    offsets = (stamps - stamps[0]) % period
    on_time = [np.count_nonzero((offsets - o) % period < period // 20) for o in offsets]
    phase = stamps[0] + offsets[int(np.argmax(on_time))]
    return ((stamps - phase) // period).tolist()


def test_heartbeat_and_status_none_lost(session, bag_messages):
    """
    /hb50/heartbeat and /hb50/status against what their publishers sent.

    Heartbeats carry no count (Status has no sequence field): each node sends one per timer
    period, stamped when sent. An rcl timer keeps its phase: a callback can be late (a
    starved process) but never early, and a late one does not move the later ones. So each
    stamp falls in its own period, counted from the on-time phase, and a lost heartbeat is a
    period with none. (Neither a count over the span nor the gap between neighbours is exact
    on a loaded machine: a stamp 300 ms late moves either by more than half a period.)
    Events: each node logs every event it publishes (`[LEVEL] text`, with the log time);
    every event logged while the recorder was subscribed is in the bag.
    """
    beats = {}
    for _, m in bag_messages['/hb50/heartbeat']:
        beats.setdefault(m.reporting_node, []).append(stamp_ns(m))
    assert set(beats) == set(HB50_EXECUTABLES)
    for node, stamps in beats.items():
        stamps = sorted(stamps)
        assert len(set(stamps)) == len(stamps), f'{node}: duplicate heartbeats'
        assert stamps[-1] - stamps[0] > 15e9, f'{node}: heartbeats span less than 15 s'
        periods = _timer_periods(np.array(stamps, dtype=np.int64), _heartbeat_period_ns(node))
        assert len(set(periods)) == len(periods), f'{node}: two heartbeats in one period'
        lost = sorted(set(range(periods[0], periods[-1] + 1)) - set(periods))
        assert not lost, f'{node}: no heartbeat in {len(lost)} of ' \
            f'{periods[-1] - periods[0] + 1} periods, the first at period {lost[0] - periods[0]}'
    recorded = [(stamp_ns(m), m.status) for _, m in bag_messages.get('/hb50/status', [])]
    logged = 0
    for node, output in session['outputs'].items():
        for sec, frac, text in EVENT_LINE.findall(output):
            t = int(sec) * 1_000_000_000 + int(frac.ljust(9, '0')[:9])
            if not session['ready'] < t < session['stack_stop']:
                continue
            logged += 1
            # Stamped just after the log line is written.
            assert any(s == text and t <= stamp < t + 1_000_000_000 for stamp, s in recorded), \
                f'{node}: event {text!r} logged at {t} is not in the bag'
    assert len(recorded) >= logged


def _equal(live, other):
    """Field-by-field equality of an rclpy message with a rosbags one."""
    return plain_fields(other, live) == plain_fields(live, live)


def _key(m):
    """Identify one sample: header stamp (+ reporting node), None without a header."""
    if hasattr(m, 'header'):
        return (stamp_ns(m), getattr(m, 'reporting_node', ''))
    return None


def test_independent_reader_equals_live_subscriber(session, bag_messages):
    """
    Every sample a live subscriber saw since recording began is in the bag, equal.

    The stack stopped before the recorder, so the bag's tail is complete up to the stop;
    the head is the recorder's first sample of the topic (by header stamp, or in order for
    BridgeState).
    """
    from rclpy.serialization import deserialize_message
    from ros2bag_mcap.schema import message_class
    probe = session['probe']
    for topic in HB50_TOPICS:
        recorded = [m for _, m in bag_messages.get(topic, [])]
        live = [deserialize_message(data, message_class(HB50_TOPICS[topic]))
                for _, data in probe.records[topic]]
        if not recorded:
            assert topic == '/hb50/status', f'{topic} not recorded'
            continue
        assert live, f'{topic}: the live subscriber saw nothing'
        if _key(live[0]) is None:
            # No header (BridgeState): from the first live sample that is also in the bag,
            # every live sample follows in the bag in order. (The probe, best-effort on a
            # loaded machine, may miss the recorder's first second: no fixed head is assumed.)
            rec_keys = [plain_fields(r, live[0]) for r in recorded]
            live_keys = [plain_fields(m, live[0]) for m in live]
            in_bag = set(rec_keys)
            first = next((i for i, k in enumerate(live_keys) if k in in_bag), None)
            assert first is not None, f'{topic}: no live sample is in the bag'
            i = 0
            for k in live_keys[first:]:
                while i < len(rec_keys) and rec_keys[i] != k:
                    i += 1
                assert i < len(rec_keys), f'{topic}: a live message is missing from the bag'
            assert len(live) - first > len(recorded) // 2, f'{topic}: too few live samples'
            continue
        by_key = {}
        for m in recorded:
            by_key.setdefault(_key(m), m)
        # Per publisher (reporting node): each one's writer matched the recorder on its own.
        first = {}
        for stamp, node in by_key:
            first[node] = min(stamp, first.get(node, stamp))
        checked = 0
        for m in live:
            # Reliable samples a node publishes while it shuts down (status events) may
            # die with it before every reader has them: only those sent before the stop.
            stamp, node = _key(m)
            if stamp < first.get(node, stamp + 1) or stamp > session['stack_stop']:
                continue
            assert _key(m) in by_key, f'{topic}: a live message is missing from the bag'
            assert _equal(m, by_key[_key(m)]), f'{topic}: contents differ at {_key(m)}'
            checked += 1
        assert checked > 0 or topic == '/hb50/status', f'{topic}: no live sample recorded'


def test_metadata_and_schema_layout(session):
    from mcap.reader import make_reader
    from mcap_ros2.decoder import DecoderFactory
    with open(os.path.join(session['bag'], 'metadata.yaml')) as f:
        meta = yaml.safe_load(f)
    info = meta['rosbag2_bagfile_information']
    # Keys and order of rosbag2_storage's YAML encoder (yaml.hpp), metadata version 9.
    assert list(info) == ['version', 'storage_identifier', 'duration', 'starting_time',
                          'message_count', 'topics_with_message_count', 'compression_format',
                          'compression_mode', 'relative_file_paths', 'files', 'custom_data',
                          'ros_distro']
    assert info['version'] == 9 and info['storage_identifier'] == 'mcap'
    assert info['ros_distro'] == os.environ['ROS_DISTRO']
    assert info['relative_file_paths'] == ['hb50_0.mcap']
    assert set(info['files'][0]) == {'path', 'starting_time', 'duration', 'message_count'}
    topics = {t['topic_metadata']['name']: t for t in info['topics_with_message_count']}
    tm = topics['/hb50/bridge_data']['topic_metadata']
    assert list(tm) == ['name', 'type', 'serialization_format', 'offered_qos_profiles',
                        'type_description_hash']
    assert tm['serialization_format'] == 'cdr'
    assert tm['type_description_hash'].startswith('RIHS01_')
    assert tm['offered_qos_profiles'][0]['reliability'] == 'best_effort'
    assert topics['/hb50/heartbeat']['topic_metadata'][
        'offered_qos_profiles'][0]['reliability'] == 'reliable'
    assert info['message_count'] == sum(t['message_count'] for t in topics.values())
    with open(os.path.join(session['bag'], 'hb50_0.mcap'), 'rb') as f:
        reader = make_reader(f)
        assert reader.get_header().profile == 'ros2'
        summary = reader.get_summary()
        schemas = {s.name: s for s in summary.schemas.values()}
        text = schemas['hb50_commons/msg/BridgeData'].data.decode()
        assert schemas['hb50_commons/msg/BridgeData'].encoding == 'ros2msg'
        for dep in ('std_msgs/Header', 'geometry_msgs/Quaternion', 'geometry_msgs/Vector3',
                    'builtin_interfaces/Time'):
            assert f'\n{"=" * 80}\nMSG: {dep}\n' in text
        assert text.count('MSG: geometry_msgs/Vector3') == 1
        for ch in summary.channels.values():
            assert ch.message_encoding == 'cdr'
            assert set(ch.metadata) == {'offered_qos_profiles', 'topic_type_hash'}
            assert yaml.safe_load(ch.metadata['offered_qos_profiles'])[0]['reliability']
        records = list(reader.iter_metadata())
        assert [r.name for r in records] == ['rosbag2']
        assert yaml.safe_load(records[0].metadata['serialized_metadata'])['version'] == 9
        # mcap-ros2-support decodes from the stored schema alone.
        _, channel, message = next(reader.iter_messages(topics=['/hb50/bridge_data']))
        decoded = DecoderFactory().decoder_for('cdr', schemas['hb50_commons/msg/BridgeData'])(
            message.data)
        assert list(decoded.joint_name)[0] == 'fr_j0'


def test_plots_show_the_bag_data(session, bag_messages, tmp_path):
    from ros2bag_mcap.plot import plot_bag, RATE_BIN
    written = plot_bag(session['bag'], str(tmp_path))
    names = {os.path.basename(p) for p in written}
    assert {'hb50_joints_hb50_bridge_data.png', 'topic_rates.png'} <= names
    for path in written:
        size = os.path.getsize(path)
        assert 20_000 < size < 5_000_000, f'{path}: {size} bytes'
        with open(path, 'rb') as f:
            assert f.read(8) == b'\x89PNG\r\n\x1a\n'
    lines = written[str(tmp_path / 'hb50_joints_hb50_bridge_data.png')]
    msgs = bag_messages['/hb50/bridge_data']
    t0 = min(t for ms in bag_messages.values() for t, _ in ms)
    expect_t = (np.array([t for t, _ in msgs], dtype=np.int64) - t0) / 1e9
    titles = {'joint_position': 'HB50 joint position (/hb50/bridge_data)',
              'joint_velocity': 'HB50 joint velocity (/hb50/bridge_data)',
              'joint_effort': 'HB50 joint torque (/hb50/bridge_data)'}
    units = {'joint_position': 'position [rad]', 'joint_velocity': 'velocity [rad/s]',
             'joint_effort': 'torque [N·m]'}
    for field, title in titles.items():
        assert lines[title].ylabel == units[field]
        assert lines[title].legend == list(msgs[0][1].joint_name)
        for j, name in enumerate(msgs[0][1].joint_name):
            x, y = lines[title][name]
            np.testing.assert_allclose(x, expect_t, rtol=0, atol=1e-9)
            np.testing.assert_array_equal(
                y, np.array([getattr(m, field)[j] for _, m in msgs], dtype=np.float64))
    rates = written[str(tmp_path / 'topic_rates.png')]
    (title, series), = rates.items()
    x, y = series['/hb50/bridge_data']
    assert int(round(y.sum() * RATE_BIN)) == len(msgs)
    assert x[-1] >= (max(t for t, _ in msgs) - t0) / 1e9 - RATE_BIN


def test_replay_count_and_contents(session):
    """
    Play the last seconds of the bag: every message, in order, byte for byte, recorded QoS.

    The playback started at the end of `session` (_start_replay) and has run meanwhile.
    """
    replay = session['replay']
    player, probe = replay['player'], replay['probe']
    from ros2bag_mcap.bag import read_messages, read_metadata
    start = read_metadata(session['bag'])['starting_time']['nanoseconds_since_epoch']
    recorded = {t: [] for t in REPLAY_TOPICS}
    for topic, _, data, log_time, _ in read_messages(session['bag'], topics=REPLAY_TOPICS):
        if log_time >= start + REPLAY_OFFSET * 1e9:
            recorded[topic].append((log_time, bytes(data)))
    try:
        player.wait(RECORD_S - REPLAY_OFFSET + 30)
        code, out, _ = wt.stop(player)
        time.sleep(0.3)
        probe.settle()      # the receiver takes what its queues still hold
    finally:
        _finish_replay(replay)
    assert code == 0, out
    assert 'Timing error' in out
    # Replayed with the recorded QoS: the reliability and durability the player offers are
    # those metadata.yaml holds for the topic's publishers (the policies that decide which
    # subscribers match; the graph reports no depth of a remote publisher).
    offered = replay['offered']
    assert set(offered) == set(REPLAY_TOPICS), f'player publishers seen: {sorted(offered)}'
    from ros2bag_mcap import qos
    recorded_qos = {t['topic_metadata']['name']: t['topic_metadata']['offered_qos_profiles']
                    for t in read_metadata(session['bag'])['topics_with_message_count']}
    for topic in REPLAY_TOPICS:
        got = qos.to_dict(offered[topic])
        for p in recorded_qos[topic]:
            for key in ('reliability', 'durability'):
                assert got[key] == p[key], f'{topic}: {key} {got[key]} != recorded {p[key]}'
    for topic in REPLAY_TOPICS:
        rec = recorded[topic]
        got = probe.records[topic]
        assert len(got) == len(rec), f'{topic}: replayed {len(got)} of {len(rec)}'
        assert [bytes(d) for _, d in got] == [d for _, d in rec], f'{topic}: contents differ'
    # How closely the replay keeps the recorded schedule is a figure, not a verdict: the
    # player prints it (checked above) and benchmarks/bag_record_bench.py measures it
    # beside the machine's own scheduling lateness.
