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
import random
import signal
import subprocess
import sys
import time
import uuid

from ament_index_python.packages import get_package_prefix
from horus_msg_py import MESSAGE_TYPES, SENSOR_TYPES, shm
from horus_msg_py.ros_conversions import CONVERTERS
from horus_msg_py.testing import peer_samples
import pytest
import rclpy

PEER = [sys.executable, '-m', 'horus_msg_py.testing.horus_peer']
BRIDGE = os.path.join(get_package_prefix('horus_bridge'), 'lib', 'horus_bridge', 'horus_bridge')
TIMEOUT = 60.0


@pytest.fixture(scope='module', autouse=True)
def ros_env():
    saved = {k: os.environ.get(k) for k in ('ROS_DOMAIN_ID', 'ROS_AUTOMATIC_DISCOVERY_RANGE')}
    os.environ['ROS_DOMAIN_ID'] = str(random.randint(70, 79))
    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    rclpy.init()
    try:
        yield
    finally:
        rclpy.try_shutdown()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.fixture
def horus_ns(monkeypatch):
    name = 'hbr_test_%d_%s' % (os.getpid(), uuid.uuid4().hex[:8])
    monkeypatch.setenv('HORUS_NAMESPACE', name)
    yield name
    shm.remove_namespace(name)


def _stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _start_bridge(tmp_path, horus_to_ros=(), ros_to_horus=()):
    params = tmp_path / 'bridge.yaml'
    params.write_text(json.dumps({'horus_bridge': {'ros__parameters': {
        'horus_to_ros': list(horus_to_ros) or [''], 'ros_to_horus': list(ros_to_horus) or [''],
        'horus_start': 'oldest', 'poll_period_s': 0.005}}}))  # JSON is YAML
    return subprocess.Popen([BRIDGE, '--ros-args', '--params-file', str(params)],
                            env=dict(os.environ), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


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


def test_horus_publisher_to_ros_subscriber(tmp_path, horus_ns):
    peer = subprocess.Popen([*PEER, 'publish', 'peer.', '0.05', *SENSOR_TYPES],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ))
    bridge = None
    node = rclpy.create_node('horus_bridge_e2e_sub')
    try:
        assert peer.stdout.readline().strip() == 'READY'
        bridge = _start_bridge(tmp_path, horus_to_ros=[
            '%s:peer.%s:/h2r/%s:frame_%s' % (t, t, t.lower(), t.lower()) for t in SENSOR_TYPES])
        got = {}
        for t in SENSOR_TYPES:
            node.create_subscription(CONVERTERS[t].ros_type, '/h2r/' + t.lower(),
                                     lambda msg, t=t: got.setdefault(t, msg), 10)
        deadline = time.monotonic() + TIMEOUT
        while len(got) < len(SENSOR_TYPES) and time.monotonic() < deadline:
            rclpy.spin_once(node, timeout_sec=0.1)
            assert bridge.poll() is None, bridge.stderr.read()
        assert sorted(got) == sorted(SENSOR_TYPES)
        for t in SENSOR_TYPES:
            expected = CONVERTERS[t].to_ros(_horus_sample(t), frame_id='frame_' + t.lower())
            ros_equal(got[t], expected, t)
            assert got[t].header.stamp.nanosec == peer_samples.SAMPLES[t]['timestamp_ns'] % 10**9
    finally:
        node.destroy_node()
        if bridge is not None:
            _stop(bridge)
        peer.stdin.close()
        try:
            peer.wait(timeout=10)
        except subprocess.TimeoutExpired:
            peer.kill()
            peer.wait()


def test_ros_publisher_to_horus_subscriber(tmp_path, horus_ns):
    bridge = _start_bridge(tmp_path, ros_to_horus=[
        '%s:/r2h/%s:back.%s' % (t, t.lower(), t) for t in SENSOR_TYPES])
    node = rclpy.create_node('horus_bridge_e2e_pub')
    sub = None
    try:
        # The bridge creates its HORUS topics at start-up.
        deadline = time.monotonic() + TIMEOUT
        while not all(os.path.exists(shm.topic_path('back.' + t)) for t in SENSOR_TYPES):
            assert time.monotonic() < deadline, 'bridge did not create its HORUS topics'
            assert bridge.poll() is None, bridge.stderr.read()
            time.sleep(0.05)
        pubs = {t: node.create_publisher(CONVERTERS[t].ros_type, '/r2h/' + t.lower(), 10)
                for t in SENSOR_TYPES}
        msgs = {t: CONVERTERS[t].to_ros(_horus_sample(t), frame_id='f') for t in SENSOR_TYPES}
        sub = subprocess.Popen([*PEER, 'subscribe', 'back.', str(TIMEOUT), *SENSOR_TYPES],
                               stdout=subprocess.PIPE, text=True, env=dict(os.environ))
        while sub.poll() is None:
            for t, pub in pubs.items():
                pub.publish(msgs[t])
            rclpy.spin_once(node, timeout_sec=0.1)
        got = json.loads(sub.stdout.read().strip().splitlines()[-1])
    finally:
        if sub is not None and sub.poll() is None:
            sub.kill()
            sub.wait()
        node.destroy_node()
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
