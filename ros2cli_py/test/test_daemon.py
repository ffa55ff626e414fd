# SPDX-License-Identifier: Apache-2.0
"""
`ros2 daemon start | stop | status` and the graph verbs answered by the daemon.

The daemon keys its socket by domain and discovery range: one started in a test's domain is
not seen from another domain or range. Every daemon a test starts is stopped by its fixture.
"""

import signal
import subprocess
import sys

from conftest import Ros2
from conftest import stop_daemon
import pytest
import workspace_testing as wt


@pytest.fixture
def other():
    """`ros2` in a fresh domain of its own (no daemon yet)."""
    runner = Ros2(wt.allocate_domain())
    yield runner
    stop_daemon(runner)


def lines(result):
    return result.out.splitlines()


def test_start_stop_status(other):
    steps = [('status', 'The daemon is not running'), ('start', 'The daemon has been started'),
             ('status', 'The daemon is running'), ('start', 'The daemon is already running'),
             ('stop', 'The daemon has been stopped'), ('status', 'The daemon is not running'),
             ('stop', 'The daemon is not running')]
    for verb, said in steps:
        r = other('daemon', verb)
        assert (r.code, r.out, r.err) == (0, said + '\n', ''), r


def test_isolated_by_domain_and_range(other):
    assert lines(other('daemon', 'start')) == ['The daemon has been started']
    elsewhere = Ros2(wt.allocate_domain())
    subnet = dict(other.env, ROS_AUTOMATIC_DISCOVERY_RANGE='SUBNET')
    assert lines(elsewhere('daemon', 'status')) == ['The daemon is not running']
    assert lines(other('daemon', 'status', env=subnet)) == ['The daemon is not running']
    assert lines(other('daemon', 'status')) == ['The daemon is running']


def test_first_graph_verb_starts_it_and_no_daemon_does_not(other):
    assert other('topic', 'list', '--no-daemon').code == 0
    assert lines(other('daemon', 'status')) == ['The daemon is not running']
    assert other('node', 'list').code == 0
    status = None
    for _ in range(20):     # it starts in the background
        status = lines(other('daemon', 'status'))
        if status == ['The daemon is running']:
            break
    assert status == ['The daemon is running']


@pytest.mark.parametrize('sig', [signal.SIGINT, signal.SIGTERM])
def test_stops_cleanly_on_signal(other, sig):
    from ros2cli_py import daemon
    proc = subprocess.Popen([sys.executable, '-S', '-c', daemon._LAUNCH], env=other.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd='/')
    try:
        for _ in range(50):
            if lines(other('daemon', 'status')) == ['The daemon is running']:
                break
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert (proc.returncode, out, err) == (0, '', '')
    assert lines(other('daemon', 'status')) == ['The daemon is not running']


def _until(ros2, argv, accept, tries=4):
    r = None
    for _ in range(tries):
        r = ros2(*argv)
        if accept(r):
            return r
    return r


def test_graph_change_and_same_answers(ros2, fixture_script):
    assert ros2('daemon', 'start').code == 0
    probe = subprocess.Popen(fixture_script('lone_node.py') + ['daemon_probe', '_ros2cli_py_d'],
                             env=ros2.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True)
    try:
        assert probe.stdout.readline().strip() == 'lone node ready'
        r = _until(ros2, ('node', 'list'), lambda r: '/daemon_probe' in lines(r))
        assert '/daemon_probe' in lines(r), r
        queries = [('node', 'list'), ('topic', 'list', '-t'), ('service', 'list', '-t'),
                   ('topic', 'find', 'std_msgs/msg/String'), ('node', 'info', '/daemon_probe'),
                   ('topic', 'type', '/daemon_probe/chatter'), ('param', 'list')]
        by_daemon = [ros2(*argv) for argv in queries]
        direct = ros2.many(*[argv + ('--no-daemon',) for argv in queries])
        for argv, answer, own in zip(queries, by_daemon, direct):
            if own.out != answer.out:     # direct discovery cut short under load: again
                own = _until(ros2, argv + ('--no-daemon',), lambda r: r.out == answer.out)
            assert (answer.code, answer.out) == (own.code, own.out), (argv, own)
    finally:
        probe.send_signal(signal.SIGINT)
        code = probe.wait(15)
    assert code == 0
    r = _until(ros2, ('node', 'list'), lambda r: '/daemon_probe' not in lines(r))
    assert r.code == 0 and '/daemon_probe' not in lines(r), r
    assert lines(ros2('daemon', 'status')) == ['The daemon is running']
