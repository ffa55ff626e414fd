# SPDX-License-Identifier: Apache-2.0
"""
ros2doctor's test_qos_compatibility.py, transcribed.

A best-effort talker and a reliable listener on /incompatible_chatter, a reliable pair on
/compatible_chatter (fixtures/ros2doctor, remapped from 'chatter' as upstream): `ros2 doctor`
fails the middleware module; `ros2 doctor -r/--report` lists both pairs with their status.
"""

import os
import signal
import subprocess
import sys
import time

from conftest import FIXTURES
from conftest import Ros2
import pytest
import workspace_testing as wt

FIXTURE_DIR = os.path.join(FIXTURES, 'ros2doctor')


@pytest.fixture(scope='module')
def qos_graph():
    domain = wt.allocate_domain()
    ros2 = Ros2(domain)
    assert ros2('daemon', 'stop').code == 0
    assert ros2('daemon', 'start').code == 0
    nodes = []
    try:
        for script, topic in (('talker_node_with_best_effort_qos.py', 'incompatible_chatter'),
                              ('listener_node_with_reliable_qos.py', 'incompatible_chatter'),
                              ('talker_node_with_reliable_qos.py', 'compatible_chatter'),
                              ('listener_node_with_reliable_qos.py', 'compatible_chatter')):
            nodes.append(subprocess.Popen(
                [sys.executable, os.path.join(FIXTURE_DIR, script),
                 '--ros-args', '-r', f'chatter:={topic}'],
                env=ros2.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True))
        for node in nodes:
            assert node.stdout.readline().endswith('ready\n')
        yield ros2
    finally:
        for node in nodes:
            node.send_signal(signal.SIGINT)
        codes = [node.wait(15) for node in nodes]
        ros2('daemon', 'stop')
        wt.release_domain(domain)
    assert codes == [0] * len(codes)


def _retry(run, accept, times=5, delay=1.0):
    """Return the first result ``accept``ed of up to ``times`` runs (upstream's retry)."""
    for _ in range(times):
        result = run()
        if accept(result):
            return result
        time.sleep(delay)
    return result


def test_check(qos_graph):
    result = _retry(lambda: qos_graph('doctor', timeout=30),
                    lambda r: 'middleware' in r.out)
    assert result.code == 0, result
    lines = [line for line in result.out.splitlines() if line]
    assert 'Failed modules' in lines[-1] and 'middleware' in lines[-1], result
    # the failing pair is named with the policy, in one line
    assert ("QoS compatibility error found on topic '/incompatible_chatter': Best effort "
            'publisher and reliable subscription') in result.err, result
    assert 'Traceback' not in result.err


COMPATIBLE = ('topic [type]            : /compatible_chatter [std_msgs/msg/String]\n'
              'publisher node          : talker_node\n'
              'subscriber node         : listener\n'
              'compatibility status    : OK')
INCOMPATIBLE = ('topic [type]            : /incompatible_chatter [std_msgs/msg/String]\n'
                'publisher node          : talker_node\n'
                'subscriber node         : listener\n'
                'compatibility status    : '
                'ERROR: Best effort publisher and reliable subscription;')


@pytest.mark.parametrize('argument', ['-r', '--report'])
def test_report(qos_graph, argument):
    result = _retry(lambda: qos_graph('doctor', argument, timeout=30),
                    lambda r: COMPATIBLE in r.out and INCOMPATIBLE in r.out)
    assert result.code == 0, result
    assert COMPATIBLE in result.out and INCOMPATIBLE in result.out, result
    assert 'Traceback' not in result.err
