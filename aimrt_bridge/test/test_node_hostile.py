# SPDX-License-Identifier: Apache-2.0
"""
The bridge node against hostile AimRT bodies, and stopped by signals at any moment.

* Property test (hypothesis, derandomized) through the node's own handler: any topic,
  type name, content type and body gives 200 with exactly one ROS 2 message published,
  or a 4xx with nothing published; never 500; the answer's text is bounded.
* SIGINT / SIGTERM during imports, during start-up and in steady state: exit 0, no
  traceback.
"""

import json
import signal
import socket
import time

from aimrt_bridge.bridge_node import AimrtBridge
from aimrt_protocols_py import codec
from aimrt_protocols_py.messages import ImuState, JointState, TouchState
from hypothesis import given, HealthCheck, settings
from hypothesis import strategies as st
import pytest
import rclpy
import workspace_testing as wt

EXE = wt.executable('aimrt_bridge', 'aimrt_bridge_node')
WAIT = 60.0  # upper bound for start-up on a loaded machine, not a budget
TYPES = {'joint_state': JointState, 'imu_state': ImuState, 'touch_state': TouchState}


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


def _wait_for_handlers(proc):
    """Wait until the process catches SIGINT and SIGTERM (SigCgt in /proc/PID/status)."""
    want = (1 << (signal.SIGINT - 1)) | (1 << (signal.SIGTERM - 1))
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        assert proc.poll() is None
        with open('/proc/%d/status' % proc.pid) as f:
            caught = [int(line.split()[1], 16) for line in f if line.startswith('SigCgt:')]
        if caught and caught[0] & want == want:
            return
        time.sleep(0.002)
    pytest.fail('the launcher never installed its signal handlers')


def _free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


@pytest.mark.parametrize('sig, moments', [
    (signal.SIGINT, ('imports', 'steady')), (signal.SIGTERM, ('start-up', 'steady'))])
def test_signal_at_any_moment_exits_0_without_traceback(domain_id, sig, moments):
    # 'imports': right after the launcher installed its handlers (its first lines);
    # 'start-up': 0.4 s later; 'steady': once the HTTP server accepts connections.
    for moment in moments:
        port = _free_port()
        proc = wt.start([EXE, '--ros-args', '-p', 'http_port:=%d' % port],
                        env=wt.localhost_env(domain_id))
        _wait_for_handlers(proc)
        if moment == 'start-up':
            time.sleep(0.4)
        elif moment == 'steady':
            def up():
                try:
                    socket.create_connection(('127.0.0.1', port), timeout=0.5).close()
                    return True
                except OSError:
                    return proc.poll() is not None
            assert wt.wait_for(up, WAIT) and proc.poll() is None, proc.output()
        result = wt.stop(proc, timeout=WAIT, first=sig)
        assert result.signal == sig, ('bridge ignored %s at %s' % (sig.name, moment),
                                      result.output[-2000:])
        assert result.returncode == 0, (moment, result.returncode, result.output[-2000:])
        assert 'Traceback' not in result.output, (moment, result.output[-2000:])
