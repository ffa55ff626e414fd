# SPDX-License-Identifier: Apache-2.0
"""
`ros2 doctor`'s AimRT check and report (aimrt_bridge.doctor, ros2doctor's entry points).

No bridge: silent, the report says "not running". A bridge whose command target (an AimRT
http-channel subscriber) listens and to which an AimRT publisher POSTs joint states: every
check passes, and the report gives each command channel's last successful forward (from the
bridge's /diagnostics). A bridge whose target refuses connections and to which nothing POSTs:
one line for each, naming the cause and the fix. A target that answers the forwards with an
HTTP error: one line naming it.
"""

import importlib.metadata
import json
import os
import re
import threading

from aimrt_bridge.doctor import AimrtCheck, AimrtReport
import aimrt_peer as peer
from ament_index_python.packages import get_package_prefix
import pytest
import workspace_testing as wt
from workspace_testing.http_sink import HttpSink

pytest.importorskip('ros2doctor.api')

WAIT_SEC = 60.0
STATE_TYPE = 'pb:aimrt.protocols.sensor.JointState'
JOINT_STATE = peer.field_bytes(2, peer.field_bytes(1, 'j1') + peer.field_double(2, 0.5))


def _check(capsys):
    """Run the check, then the report; (errors, warnings, stderr lines, report items)."""
    result = AimrtCheck().check()
    report = AimrtReport().report()
    return result.error, result.warning, capsys.readouterr().err.splitlines(), report.items


def _start(tmp_path, domain, namespace, command_address):
    port = wt.free_port()
    params = {'http_port': port, 'state_aimrt_topics': ['joint_state'],
              'state_types': ['JointState'], 'state_ros_topics': ['joint_states'],
              'command_ros_topics': ['joint_command'], 'command_aimrt_topics': ['joint_command'],
              'command_addresses': [command_address]}
    cfg = tmp_path / f'{namespace}.yaml'
    cfg.write_text(json.dumps({'/**': {'ros__parameters': params}}))
    proc = wt.start([wt.executable('aimrt_bridge', 'aimrt_bridge_node'), '--ros-args',
                     '--params-file', str(cfg), '-r', f'__ns:=/{namespace}'],
                    env=wt.localhost_env(domain))
    wt.wait_for(lambda: proc.poll() is not None or wt.accepting(port), WAIT_SEC)
    assert proc.poll() is None and wt.accepting(port), proc.output()
    return proc, port


class Poster:
    """An AimRT publisher POSTing joint states to a bridge at 50 Hz until closed."""

    def __init__(self, port):
        self.port = port
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stop.wait(0.02):
            peer.post(self.port, 'joint_state', STATE_TYPE, JOINT_STATE, 'application/protobuf')

    def close(self):
        self.stop.set()
        self.thread.join(5)


def _commander(domain, topic):
    """`ros2 topic pub` of a JointCommand on ``topic`` at 50 Hz (a process: stop it)."""
    ros2 = os.path.join(get_package_prefix('ros2cli_py'), 'bin', 'ros2')
    return wt.start([ros2, 'topic', 'pub', '-r', '50', topic,
                     'aimrt_protocols_msgs/msg/JointCommand', '{name: [hip], position: [0.1]}'],
                    env=dict(wt.localhost_env(domain), ROS2CLI_PY_NO_DELEGATE='1'))


def test_registered_as_entry_points():
    groups = importlib.metadata.entry_points()
    assert 'aimrt_bridge.doctor:AimrtCheck' in [
        ep.value for ep in groups.select(group='ros2doctor.checks')]
    assert 'aimrt_bridge.doctor:AimrtReport' in [
        ep.value for ep in groups.select(group='ros2doctor.report')]


def test_silent_without_a_bridge(domain_id, capsys):
    errors, warnings, lines, items = _check(capsys)
    assert (errors, warnings, lines) == (0, 0, [])
    assert items == [('status', 'not running (no aimrt_bridge node)')]


def test_healthy_link_passes(domain_id, tmp_path, capsys):
    target = HttpSink()
    proc, port = _start(tmp_path, domain_id, 'healthy', f'127.0.0.1:{target.port}')
    poster = Poster(port)
    commander = _commander(domain_id, '/healthy/joint_command')
    try:
        wt.wait_for(lambda: not target.requests.empty(), WAIT_SEC)
        found = None
        for _ in range(3):
            found = _check(capsys)
            if found[:3] == (0, 0, []) and dict(found[3]).get('bridge'):
                break       # (a loaded host may discover the bridge only on a later try)
        errors, warnings, lines, items = found
    finally:
        wt.stop(commander)
        poster.close()
        assert wt.stop(proc).returncode == 0
        target.close()
    assert (errors, warnings, lines) == (0, 0, []), lines
    report = dict(items)
    assert report.get('bridge') == '/healthy/aimrt_bridge', items
    assert report['bridge server'].startswith(f'http://127.0.0.1:{port}: answers (404 ')
    assert report[f'target 127.0.0.1:{target.port}'] == 'joint_command: reachable'
    assert report['state /healthy/joint_states'] != '0.0 msg/s from AimRT'
    # forwarded within the last diagnostics period or two
    assert re.fullmatch(r'1 publisher\(s\), \d+\.\d msg/s to forward; last forward: '
                        r'[0-2]\.\d s ago', report['command /healthy/joint_command']), report


def test_target_answering_an_error(domain_id, tmp_path, capsys):
    target = HttpSink(status=404)   # e.g. an AimRT process without that topic's subscriber
    proc, port = _start(tmp_path, domain_id, 'refused', f'127.0.0.1:{target.port}')
    commander = _commander(domain_id, '/refused/joint_command')
    try:
        wt.wait_for(lambda: not target.requests.empty(), WAIT_SEC)
        lines = []
        for _ in range(3):
            _, _, lines, items = _check(capsys)
            if any('the forwards fail' in x for x in lines):
                break
    finally:
        wt.stop(commander)
        assert wt.stop(proc).returncode == 0
        target.close()
    assert any(re.search(
        r'ERROR: AimRT: /refused/joint_command -> joint_command: the forwards fail \(last POST '
        r'refused: answered HTTP 404; 0 sent, 0 failed, \d+ refused\): check the AimRT target '
        'at that address, its channel and message type.$', x) for x in lines), lines
    assert dict(items)['command /refused/joint_command'].endswith('last forward: never')


def test_refusing_target_and_absent_peer(domain_id, tmp_path, capsys):
    dead = wt.free_port()      # nothing listens there
    proc, port = _start(tmp_path, domain_id, 'broken', f'127.0.0.1:{dead}')
    try:
        lines = []
        for _ in range(3):
            errors, _, lines, _ = _check(capsys)
            if errors >= 2:
                break
    finally:
        assert wt.stop(proc).returncode == 0
    assert errors == 2 and len(lines) == 2, lines
    assert any(x.endswith(
        f'ERROR: AimRT: AimRT target 127.0.0.1:{dead} of /broken/joint_command -> joint_command '
        'is not reachable (connection refused (nothing listens there)): start the AimRT '
        'process whose http channel subscriber listens there, or fix command_addresses.')
        for x in lines), lines
    assert any(x.endswith(
        'ERROR: AimRT: no AimRT state reaches ROS through /broken/aimrt_bridge in 1 s '
        f'(/broken/joint_states): no AimRT publisher POSTs to http://127.0.0.1:{port}: put it '
        "in the AimRT http channel backend's server_url_list.") for x in lines), lines
