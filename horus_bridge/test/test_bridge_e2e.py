# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
End to end with the real peer (horus-robotics 0.4.1) in its own process.

* horus-robotics publisher -> horus_bridge -> rclpy subscriber (equal values);
* rclpy publisher -> horus_bridge -> horus-robotics subscriber (equal values).
"""

import json
import math
import os
import signal
import subprocess
import sys
import time
import uuid

from horus_msg_py import MESSAGE_TYPES, SENSOR_TYPES, shm
from horus_msg_py.ros_conversions import CONVERTERS
from horus_testing import peer_samples
import pytest
import rclpy
from rclpy.executors import SingleThreadedExecutor
import workspace_testing as wt

PEER = [sys.executable, '-m', 'horus_testing.horus_peer']
BRIDGE = wt.executable('horus_bridge', 'horus_bridge')
TIMEOUT = 60.0


@pytest.fixture(scope='module')
def context(domain_id):
    context = rclpy.Context()
    rclpy.init(context=context, domain_id=domain_id)
    yield context
    rclpy.try_shutdown(context=context)


@pytest.fixture
def ros_node(context):
    """Yield a node of the module's context and the executor spinning it."""
    node = rclpy.create_node('horus_bridge_e2e', context=context)
    executor = SingleThreadedExecutor(context=context)
    executor.add_node(node)
    yield node, executor
    executor.shutdown()
    node.destroy_node()


@pytest.fixture
def horus_ns(monkeypatch):
    name = 'hbr_test_%d_%s' % (os.getpid(), uuid.uuid4().hex[:8])
    monkeypatch.setenv('HORUS_NAMESPACE', name)
    yield name
    shm.remove_namespace(name)


def _stop(proc):
    """SIGINT (then SIGTERM, SIGKILL); the bridge must exit 0 on the first, no traceback."""
    result = wt.stop(proc)
    assert (result.returncode, result.signal) == (0, signal.SIGINT), result.output
    assert 'Traceback' not in result.output, result.output


def _start_bridge(tmp_path, domain_id, horus_to_ros=(), ros_to_horus=()):
    params = tmp_path / 'bridge.yaml'
    params.write_text(json.dumps({'horus_bridge': {'ros__parameters': {
        'horus_to_ros': list(horus_to_ros) or [''], 'ros_to_horus': list(ros_to_horus) or [''],
        'horus_start': 'oldest', 'poll_period_s': 0.005}}}))  # JSON is YAML
    # HORUS_NAMESPACE of the test (horus_ns) is in os.environ, which localhost_env copies
    return wt.start([BRIDGE, '--ros-args', '--params-file', str(params)],
                    env=wt.localhost_env(domain_id))


def ros_equal(a, b, path='msg'):
    """Field-by-field equality that treats NaN as equal to NaN."""
    if hasattr(a, 'get_fields_and_field_types'):
        return all(ros_equal(getattr(a, f), getattr(b, f), path + '.' + f)
                   for f in a.get_fields_and_field_types())
    if isinstance(a, float) and isinstance(b, float):
        assert a == b or (math.isnan(a) and math.isnan(b)), (path, a, b)
        return True
    if isinstance(a, str) or not hasattr(a, '__len__'):
        assert a == b, (path, a, b)
        return True
    assert len(a) == len(b), (path, len(a), len(b))
    return all(ros_equal(x, y, '%s[%d]' % (path, i)) for i, (x, y) in enumerate(zip(a, b)))


def _horus_sample(type_name):
    return MESSAGE_TYPES[type_name](**peer_samples.horus_fields(type_name))


def test_horus_publisher_to_ros_subscriber(tmp_path, horus_ns, ros_node, domain_id):
    node, executor = ros_node
    peer = wt.start([*PEER, 'publish', 'peer.', '0.05', *SENSOR_TYPES],
                    stdin=subprocess.PIPE, env=dict(os.environ))
    bridge = None
    try:
        assert peer.wait_for_output('READY', TIMEOUT), peer.output()
        bridge = _start_bridge(tmp_path, domain_id, horus_to_ros=[
            '%s:peer.%s:/h2r/%s:frame_%s' % (t, t, t.lower(), t.lower()) for t in SENSOR_TYPES])
        got = {}
        for t in SENSOR_TYPES:
            node.create_subscription(CONVERTERS[t].ros_type, '/h2r/' + t.lower(),
                                     lambda msg, t=t: got.setdefault(t, msg), 10)
        deadline = time.monotonic() + TIMEOUT
        while len(got) < len(SENSOR_TYPES) and time.monotonic() < deadline:
            executor.spin_once(timeout_sec=0.1)
            assert bridge.poll() is None, bridge.output()
        assert sorted(got) == sorted(SENSOR_TYPES)
        for t in SENSOR_TYPES:
            expected = CONVERTERS[t].to_ros(_horus_sample(t), frame_id='frame_' + t.lower())
            ros_equal(got[t], expected, t)
            assert got[t].header.stamp.nanosec == peer_samples.SAMPLES[t]['timestamp_ns'] % 10**9
    finally:
        if bridge is not None:
            _stop(bridge)
        peer.popen.stdin.close()        # the peer leaves its topics at EOF
        try:
            peer.wait(timeout=10)
        finally:
            wt.stop(peer)


def test_ros_publisher_to_horus_subscriber(tmp_path, horus_ns, ros_node, domain_id):
    node, executor = ros_node
    bridge = _start_bridge(tmp_path, domain_id, ros_to_horus=[
        '%s:/r2h/%s:back.%s' % (t, t.lower(), t) for t in SENSOR_TYPES])
    sub = None
    try:
        # The bridge creates its HORUS topics at start-up.
        assert wt.wait_for(lambda: bridge.poll() is not None or all(
            os.path.exists(shm.topic_path('back.' + t)) for t in SENSOR_TYPES), TIMEOUT)
        assert bridge.poll() is None, bridge.output()
        pubs = {t: node.create_publisher(CONVERTERS[t].ros_type, '/r2h/' + t.lower(), 10)
                for t in SENSOR_TYPES}
        msgs = {t: CONVERTERS[t].to_ros(_horus_sample(t), frame_id='f') for t in SENSOR_TYPES}
        sub = wt.start([*PEER, 'subscribe', 'back.', str(TIMEOUT), *SENSOR_TYPES],
                       env=dict(os.environ))
        while sub.poll() is None:
            for t, pub in pubs.items():
                pub.publish(msgs[t])
            executor.spin_once(timeout_sec=0.1)
        got = json.loads(sub.output().strip().splitlines()[-1])
    finally:
        if sub is not None:
            wt.stop(sub)
        _stop(bridge)
    assert sorted(got) == sorted(SENSOR_TYPES)
    for t in SENSOR_TYPES:
        expected = dict(peer_samples.SAMPLES[t])
        if t == 'NavSatFix':
            # ROS NavSatFix has no DOP/speed/heading/satellites: HORUS defaults arrive.
            expected.update(hdop=99.9000015258789, heading=0.0, speed=0.0, satellites_visible=0)
        if t == 'Odometry':
            assert got[t]['theta'] == pytest.approx(expected.pop('theta'), abs=1e-12)
        for key, value in expected.items():
            assert got[t][key] == value, (t, key, got[t][key], value)
    # The bridge, last participant, removed its HORUS topics on shutdown.
    assert not any(os.path.exists(shm.topic_path('back.' + t)) for t in SENSOR_TYPES)
