# SPDX-License-Identifier: Apache-2.0
"""
The bridge node against hostile AimRT bodies, and stopped by signals at any moment.

* Property test (hypothesis, derandomized) through the node's own handler: any topic,
  type name, content type and body gives 200 with exactly one ROS 2 message published,
  or a 4xx with nothing published; never 500; the answer's text is bounded.
* The same node over its HTTP server, with its real publishers: derandomized hostile
  requests plus megabyte strings (frame_id, joint name, JSON key, topic and type in the
  URL, garbage bodies) repeated well past the publishers' history: every answer is 200
  or 4xx, the process's RSS growth stays bounded, the node's log lines are short and few
  (rate-limited per reason); a valid message still works afterwards.
* SIGINT / SIGTERM during imports, during start-up and in steady state: exit 0, no
  traceback.
"""

import json
import os
import signal
import time

from aimrt_bridge.bridge_node import AimrtBridge
import aimrt_peer as peer
from aimrt_protocols_py import codec
from aimrt_protocols_py.messages import ImuState, JointState, TouchState
from hypothesis import given, HealthCheck, settings
from hypothesis import strategies as st
from node_runtime.bounded_text import RateLimiter
import pytest
import rclpy
import workspace_testing as wt
from workspace_testing.signals import wait_for_handlers

EXE = wt.executable('aimrt_bridge', 'aimrt_bridge_node')
WAIT = 60.0  # upper bound for start-up on a loaded machine, not a budget
TYPES = {'joint_state': JointState, 'imu_state': ImuState, 'touch_state': TouchState}
MAX_LOG_LINE = 600   # characters of one log line of the node, whatever the input
MB = 1 << 20
#: History of each ROS 2 publisher (default_qos): messages a publisher may keep.
PUBLISHER_DEPTH = 10
ROUNDS = 12          # each megabyte case, well past PUBLISHER_DEPTH


@pytest.fixture(scope='module')
def node(domain_id):
    context = rclpy.Context()
    rclpy.init(context=context, domain_id=domain_id, args=[
        '--ros-args', '-p', 'http_port:=0', '-p', 'command_addresses:=["127.0.0.1:9"]'])
    bridge = None
    try:
        bridge = _make_node(context)
        published = []
        for route in bridge._routes.values():
            route.publisher.publish = published.append
        bridge.published = published
        yield bridge
    finally:
        if bridge is not None:
            bridge.destroy_node()
        rclpy.try_shutdown(context=context)


def _make_node(context):
    # AimrtBridge creates its node in the default context; run it in ours instead.
    original = rclpy.node.Node.__init__

    def init(self, name, **kwargs):
        kwargs.setdefault('context', context)
        original(self, name, **kwargs)

    rclpy.node.Node.__init__ = init
    try:
        return AimrtBridge()
    finally:
        rclpy.node.Node.__init__ = original


def _valid_pb(cls, data):
    """Build a protobuf body of a plausible message (valid or not for the bridge)."""
    msg = cls()
    msg.header.time_stamp = data.draw(st.integers(0, 2 ** 64 - 1))
    msg.header.frame_id = data.draw(st.text(max_size=40))
    return codec.encode(msg)


BODIES = st.one_of(st.binary(max_size=600),
                   st.text(max_size=300).map(str.encode),
                   st.recursive(st.none() | st.booleans() | st.floats() | st.text(max_size=20),
                                lambda kids: st.lists(kids, max_size=4) |
                                st.dictionaries(st.text(max_size=10), kids, max_size=4),
                                max_leaves=12).map(lambda v: json.dumps(v).encode()))


@settings(derandomize=True, max_examples=120, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(topic=st.sampled_from(sorted(TYPES) + ['nope', '']), data=st.data(),
       content_type=st.sampled_from(['application/protobuf', 'application/json',
                                     'application/json; charset=utf-8', 'text/html', '',
                                     'application/protobuf' + 'x' * 5000]))
def test_any_body_is_published_once_with_200_or_refused_with_4xx(
        node, topic, data, content_type):
    cls = TYPES.get(topic, JointState)
    msg_type = data.draw(st.sampled_from([
        'pb:' + cls.DESCRIPTOR.full_name, 'pb:aimrt.protocols.sensor.ImuState',
        'pb:nonexistent.Type', 'x' * 3000]))
    if data.draw(st.booleans()):
        body = _valid_pb(cls, data)
    else:
        body = data.draw(BODIES)
    before = len(node.published)
    status, reason = node._on_http_message(topic, msg_type, content_type, body)
    published = len(node.published) - before
    if status == 200:
        assert published == 1
    else:
        assert status in (400, 404, 415, 422), (status, reason)
        assert published == 0
    assert len(reason) < 400


@pytest.mark.parametrize('sig, moments', [
    (signal.SIGINT, ('imports', 'steady')), (signal.SIGTERM, ('start-up', 'steady'))])
def test_signal_at_any_moment_exits_0_without_traceback(domain_id, sig, moments):
    # 'imports': right after the launcher installed its handlers (its first lines);
    # 'start-up': 0.4 s later; 'steady': once the HTTP server accepts connections.
    for moment in moments:
        port = wt.free_port()
        proc = wt.start([EXE, '--ros-args', '-p', 'http_port:=%d' % port],
                        env=wt.localhost_env(domain_id))
        wait_for_handlers(proc, WAIT)
        if moment == 'start-up':
            time.sleep(0.4)
        elif moment == 'steady':
            def up():
                return wt.accepting(port) or proc.poll() is not None
            assert wt.wait_for(up, WAIT) and proc.poll() is None, proc.output()
        result = wt.stop(proc, timeout=WAIT, first=sig)
        assert result.signal == sig, ('bridge ignored %s at %s' % (sig.name, moment),
                                      result.output[-2000:])
        assert result.returncode == 0, (moment, result.returncode, result.output[-2000:])
        assert 'Traceback' not in result.output, (moment, result.output[-2000:])


def _rss_mb(pid):
    with open('/proc/%d/status' % pid) as f:
        for line in f:
            if line.startswith('VmRSS:'):
                return int(line.split()[1]) / 1024.0
    raise AssertionError('no VmRSS for %d' % pid)


def _joint_state(frame_id='base', name='j0'):
    msg = JointState()
    msg.header.time_stamp = 1
    msg.header.frame_id = frame_id
    joint = msg.joints.add()
    joint.name = name
    joint.position = 0.5
    return codec.encode(msg)


def _megabyte_cases(i):
    """(topic, type name, content type, body, expected status) with megabyte strings."""
    big = chr(ord('a') + i % 26) * MB
    js = 'pb:' + JointState.DESCRIPTOR.full_name
    pb, js_json = 'application/protobuf', 'application/json'
    return [
        ('joint_state', js, pb, _joint_state(frame_id=big), 200),    # published
        ('joint_state', js, pb, _joint_state(name=big), 200),        # published
        ('joint_state', js, js_json, json.dumps({big: 1}).encode(), 200),  # key dropped
        ('imu_state', 'pb:' + ImuState.DESCRIPTOR.full_name, pb, bytes([0xff]) * MB, 400),
        ('joint_state', js, js_json, b'[' * MB, 400),
        (big[:60000], js, pb, b'', 404),
        ('joint_state', big[:60000], pb, b'', 400),
    ]


def _post_case(port, case):
    topic, msg_type, content_type, body, _ = case
    return peer.post(port, topic, msg_type, body, content_type)[0]


def test_hostile_http_input_keeps_memory_and_log_bounded(node, capfd):
    # The module's node, with its HTTP server and (for this test) its real publishers:
    # what the process keeps is what the node keeps (hypothesis runs in the same process,
    # its first examples ran in the test above).
    port = node._server.port
    routes = list(node._routes.values())
    for route in routes:
        del route.publisher.publish      # the fixture's recorder: back to rclpy's publish
    try:
        # warm-up: every case once, so that the baseline has the pools they need
        for k, case in enumerate(_megabyte_cases(0)):
            assert _post_case(port, case) == case[4], k
        capfd.readouterr()
        with node._limiter_lock:    # forget the reasons the test above reported
            node._limiter = RateLimiter(period_s=node._limiter.period)
        rss0 = _rss_mb(os.getpid())
        statuses = []

        @settings(derandomize=True, max_examples=60, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(topic=st.sampled_from(sorted(TYPES) + ['nope', '%00', 'a' * 300]),
               msg_type=st.sampled_from(['pb:' + c.DESCRIPTOR.full_name
                                         for c in TYPES.values()] + ['json:x', 'x' * 3000]),
               content_type=st.sampled_from(['application/protobuf', 'application/json',
                                             'text/html', 'x' * 3000]),
               body=BODIES)
        def post_hostile(topic, msg_type, content_type, body):
            statuses.append(peer.post(port, topic, msg_type, body, content_type)[0])

        post_hostile()
        for i in range(1, ROUNDS + 1):
            for k, case in enumerate(_megabyte_cases(i)):
                assert _post_case(port, case) == case[4], (i, k)
        rss1 = _rss_mb(os.getpid())
        assert len(statuses) == 60
        assert all(s == 200 or 400 <= s < 500 for s in statuses), sorted(set(statuses))
        # a valid message still works
        assert peer.post(port, 'joint_state', 'pb:' + JointState.DESCRIPTOR.full_name,
                         _joint_state(), 'application/protobuf')[0] == 200
    finally:
        for route in routes:
            route.publisher.publish = node.published.append
    # What may stay: each publisher's history (PUBLISHER_DEPTH messages, the joint_state
    # ones up to a megabyte each, serialized and as Python objects) plus the heap's
    # slack; ROUNDS * 7 MB of input went through.
    assert rss1 - rss0 <= 2.0 * PUBLISHER_DEPTH + 30.0, (rss0, rss1)
    log = capfd.readouterr().err
    assert max(map(len, log.splitlines()), default=0) <= MAX_LOG_LINE, log[-3000:]
    # Rate-limited per reason (log_period_sec 5 s): about one line per topic and HTTP
    # status (the second one of a reason if the test took over 5 s), not one per request.
    lines = [line for line in log.splitlines() if 'rejected message' in line]
    assert 3 <= len(lines) <= 30, log[-3000:]
    assert len(log.splitlines()) <= 40, log[-3000:]
