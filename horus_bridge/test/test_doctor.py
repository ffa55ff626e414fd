# SPDX-License-Identifier: Apache-2.0
"""
`ros2 doctor`'s HORUS check and report (horus_bridge.doctor, ros2doctor's entry points).

No bridge and no HORUS_NAMESPACE: silent, the report says "not running". A bridge whose
HORUS topic a writer (horus_msg_py's, the layout of horus-robotics 0.4.1) publishes at 50 Hz:
every check passes. Then each broken link made real: the topic file missing, a topic of
another layout under the configured name, and a segment whose head stops moving; each gives
one line naming the cause and the fix.
"""

import importlib.metadata
import json
import os
import re
import signal
import threading
import uuid

from horus_bridge.doctor import HorusCheck, HorusReport
from horus_msg_py import Imu, LaserScan, shm
import pytest
import workspace_testing as wt

pytest.importorskip('ros2doctor.api')

BRIDGE = wt.executable('horus_bridge', 'horus_bridge')
ROUTE = 'LaserScan:lidar.scan:/doctor_scan:laser'


def _check(capsys):
    """Run the check, then the report; (errors, warnings, stderr lines, report items)."""
    result = HorusCheck().check()
    report = HorusReport().report()
    return result.error, result.warning, capsys.readouterr().err.splitlines(), report.items


@pytest.fixture
def horus_ns(monkeypatch):
    name = 'hbr_doctor_%d_%s' % (os.getpid(), uuid.uuid4().hex[:8])
    monkeypatch.delenv('HORUS_NAMESPACE', raising=False)
    yield name
    shm.remove_namespace(name)


@pytest.fixture
def bridge(tmp_path, domain_id, horus_ns):
    params = tmp_path / 'bridge.yaml'
    params.write_text(json.dumps({'horus_bridge': {'ros__parameters': {
        'horus_namespace': horus_ns, 'horus_to_ros': [ROUTE], 'ros_to_horus': [''],
        'poll_period_s': 0.005}}}))
    proc = wt.start([BRIDGE, '--ros-args', '--params-file', str(params)],
                    env=wt.localhost_env(domain_id))
    try:
        yield horus_ns
    finally:
        result = wt.stop(proc)
        assert (result.returncode, result.signal) == (0, signal.SIGINT), result.output
        assert 'Traceback' not in result.output, result.output


class Publisher:
    """A HORUS writer of LaserScan on lidar.scan sending at 50 Hz until paused or closed."""

    def __init__(self, namespace, msg_type=LaserScan):
        self.writer = shm.ShmTopicWriter(msg_type, 'lidar.scan', namespace)
        self.sample = msg_type()
        self.running = threading.Event()
        self.running.set()
        self.closed = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.closed.wait(0.02):
            if self.running.is_set():
                self.writer.send(self.sample)

    def close(self):
        self.closed.set()
        self.thread.join(5)
        self.writer.close(unlink=True)


def _until(capsys, done, tries=6):
    found = None
    for _ in range(tries):
        found = _check(capsys)
        if done(found):
            break
    return found


def test_registered_as_entry_points():
    groups = importlib.metadata.entry_points()
    assert 'horus_bridge.doctor:HorusCheck' in [
        ep.value for ep in groups.select(group='ros2doctor.checks')]
    assert 'horus_bridge.doctor:HorusReport' in [
        ep.value for ep in groups.select(group='ros2doctor.report')]


def test_silent_without_a_bridge(domain_id, monkeypatch, capsys):
    monkeypatch.delenv('HORUS_NAMESPACE', raising=False)
    errors, warnings, lines, items = _check(capsys)
    assert (errors, warnings, lines) == (0, 0, [])
    assert items == [('status', 'not running (no horus_bridge node, no HORUS_NAMESPACE)')]


def test_healthy_link_passes(bridge, capsys):
    publisher = Publisher(bridge)
    try:
        errors, warnings, lines, items = _until(capsys, lambda r: r[0] == 0 and r[3][0][0] ==
                                                'bridge')
    finally:
        publisher.close()
    assert (errors, warnings, lines) == (0, 0, []), lines
    report = dict(items)
    assert report['bridge'] == '/horus_bridge'
    assert re.fullmatch(r'head \d+, \d+\.\d msg/s', report['lidar.scan (LaserScan)']), report


def test_topic_file_missing(bridge, capsys):
    errors, _, lines, _ = _until(capsys, lambda r: r[0] > 0)
    assert errors == 1 and len(lines) == 1, lines
    assert lines[0].endswith(
        f'ERROR: HORUS: HORUS topic lidar.scan (LaserScan, namespace {bridge}) has no '
        f'shared-memory file /dev/shm/horus_{bridge}/topics/lidar.scan: start the HORUS '
        'publisher of that topic.'), lines


def test_other_layout_under_the_name(bridge, capsys):
    publisher = Publisher(bridge, Imu)
    try:
        errors, _, lines, _ = _until(capsys, lambda r: r[0] > 0)
    finally:
        publisher.close()
    assert errors == 1 and len(lines) == 1, lines
    assert f'ERROR: HORUS: HORUS topic lidar.scan (LaserScan, namespace {bridge}) does not ' \
           'match the LaserScan layout: ' in lines[0], lines
    assert '304-byte messages' in lines[0] and lines[0].endswith(
        'publish it with the matching type (horus_msg_py layouts, horus-robotics 0.4.1).')


def test_segment_that_stops_moving(bridge, capsys):
    publisher = Publisher(bridge)
    try:
        _until(capsys, lambda r: r[0] == 0)
        publisher.running.clear()
        errors, _, lines, _ = _until(capsys, lambda r: r[0] > 0)
    finally:
        publisher.close()
    assert errors == 1 and len(lines) == 1, lines
    assert re.search(rf'ERROR: HORUS: HORUS topic lidar\.scan \(LaserScan, namespace {bridge}\): '
                     r'head stuck at \d+ for 1 s: its publisher has stopped or stalled: '
                     r'restart it\.$', lines[0]), lines
