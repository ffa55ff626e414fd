# SPDX-License-Identifier: Apache-2.0
"""
ros2doctor's test_cli.py, transcribed (HelloVerb for one emit period on a single host).

Plus the command line: `ros2 doctor` and its `wtf` alias, the options, `hello` with its
summary table, SIGINT, and bad input (argparse errors: usage and one line, exit 2).
"""

from argparse import Namespace
import os
import re
import shutil
import signal
import unittest.mock as mock

from conftest import ros2_path
from conftest import wait_output
import pytest
from ros2doctor.verb.hello import HelloVerb
from ros2doctor.verb.hello import SummaryTable
import workspace_testing as wt


@pytest.fixture
def own_domain():
    """Yield a domain of the test's own; this process joins it for the in-process verb."""
    domain = wt.allocate_domain()
    saved = os.environ.get('ROS_DOMAIN_ID')
    os.environ['ROS_DOMAIN_ID'] = str(domain)
    try:
        yield domain
    finally:
        if saved is None:
            os.environ.pop('ROS_DOMAIN_ID', None)
        else:
            os.environ['ROS_DOMAIN_ID'] = saved
        wt.release_domain(domain)


def _generate_expected_summary_table():
    """Return the summary of one emit period on a single host: 1 published, 1 sent."""
    expected = SummaryTable()
    expected.increment_pub()
    expected.increment_send()
    return expected


def test_hello_single_host(own_domain, capsys):
    args = Namespace(topic='/canyouhearme', emit_period=0.1, print_period=1.0, ttl=None,
                     once=True)
    with mock.patch('socket.gethostname', return_value='!nv@lid-n*de-n4me'):
        summary = SummaryTable()
        HelloVerb().main(args=args, summary_table=summary)
        expected = _generate_expected_summary_table()
        assert summary._pub == expected._pub
        assert summary._sub == expected._sub
        assert summary._send == expected._send
        assert summary._receive == expected._receive
    out = capsys.readouterr().out
    assert out.startswith('MULTIMACHINE COMMUNICATION SUMMARY\n'
                          'Topic: /canyouhearme, Published Msg Count: 1\n'
                          'Subscribed from:\n'), out
    assert 'Multicast Group/Port: 225.0.0.1/49150, Sent Msg Count: 1\n' in out, out
    assert out.endswith('-' * 60 + '\n'), out


def test_summary_counts_per_host():
    summary = SummaryTable()
    for host in ('a', 'b', 'a'):
        summary.increment_sub(host)
        summary.increment_receive(host)
    assert summary._sub == {'a': 2, 'b': 1} == summary._receive
    summary.reset()
    assert (summary._pub, summary._send, summary._sub, summary._receive) == (0, 0, {}, {})


def test_doctor_and_wtf(ros2):
    doctor, wtf, excluded = ros2.many(('doctor',), ('wtf',), ('doctor', '-ep', '-iw'))
    for result in (doctor, wtf):
        assert result.code == 0 and 'Traceback' not in result.err, result
        assert re.search(r'\n(All \d+ checks passed|\d+/\d+ check\(s\) failed)\n', result.out)
    # -ep leaves the package check out: one check fewer
    counts = [int(re.search(r'(\d+) checks passed|/(\d+) check', r.out).group(
        1 if 'passed' in r.out else 2)) for r in (doctor, excluded)]
    assert counts[1] == counts[0] - 1, (doctor, excluded)


def test_report_options(ros2):
    report, failed, excluded = ros2.many(('doctor', '--report'), ('doctor', '-rf', '-iw'),
                                         ('doctor', '-r', '-ep'))
    assert report.code == 0, report
    for name in ('PLATFORM INFORMATION', 'ROS 2 INFORMATION', 'NETWORK CONFIGURATION',
                 'RMW MIDDLEWARE', 'TOPIC LIST', 'QOS COMPATIBILITY LIST', 'PACKAGE VERSIONS'):
        assert f'\n   {name}\n' in report.out, (name, report)
    assert re.search(r'\ndistribution name +: (kilted|jazzy)\n', report.out), report
    assert re.search(r'\nrclpy +: kilted=[\d.]+, jazzy=[\d.]+, local=[\d.]+\n', report.out)
    assert re.search(r'\ndds interfaces +: lo \(discovery range LOCALHOST', report.out)
    assert failed.code == 0 and 'Traceback' not in failed.err, failed
    assert 'PACKAGE VERSIONS' not in excluded.out and 'TOPIC LIST' in excluded.out, excluded


def test_hello_cli(ros2):
    once = ros2('doctor', 'hello', '-1', '-t', '/doctor_hello', '-ep', '0.2')
    assert once.code == 0 and 'Traceback' not in once.err, once
    assert once.out.startswith('MULTIMACHINE COMMUNICATION SUMMARY\n'
                               'Topic: /doctor_hello, Published Msg Count: 1\n'), once
    assert '{:<15} {:<20} {:<10}'.format('', 'Hostname', 'Msg Count /1.0s') in once.out
    running = ros2.start('doctor', 'hello', '-pp', '0.5')
    try:
        out = wait_output(ros2, running, lambda o: o.count('MULTIMACHINE') >= 2, 30)
        assert re.search(r'Published Msg Count: [1-9]', out), out
    finally:
        code = ros2.stop(running, signal.SIGINT)
    _, err = ros2.output(running)
    assert code == 0 and 'Traceback' not in err, err


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which('unshare'),
                    reason='a second host name needs a UTS namespace (root, unshare)')
def test_hello_two_hosts(ros2):
    """A hello in a UTS namespace named 'otherhost': heard on the topic and by multicast."""
    here = ros2.start('doctor', 'hello', '-t', '/doctor_two_hosts')
    other = wt.start(['unshare', '--uts', 'sh', '-c',
                      f'hostname otherhost && exec {ros2_path()} doctor hello '
                      '-t /doctor_two_hosts'], env=ros2.env, separate_stderr=True)
    heard = re.compile(r'Subscribed from:\n.*\n +otherhost +[1-9]\d* *\n(.|\n)*'
                       r'Received from:\n.*\n +otherhost +[1-9]\d* *\n')
    try:
        out = wait_output(ros2, here, heard.search, 30)
        assert heard.search(out), out
    finally:
        codes = [ros2.stop(proc) for proc in (here, other)]
    assert codes == [0, 0], [ros2.output(proc) for proc in (here, other)]


@pytest.mark.parametrize('argv, message', [
    (('doctor', '--no-such-option'), 'unrecognized arguments: --no-such-option'),
    (('doctor', '-r', '-rf'), 'argument --report-failed/-rf: not allowed with argument '
                              '--report/-r'),
    (('doctor', 'hello', '-ep', '0'), 'argument -ep/--emit-period: value must be a positive '
                                      'float'),
    (('wtf', 'hello', '--ttl', 'x'), 'argument --ttl: value must be a positive int'),
])
def test_bad_input(ros2, argv, message):
    result = ros2(*argv)
    assert result.code == 2 and result.out == '', result
    lines = result.err.splitlines()
    assert lines[0].startswith('usage: ros2 ') and lines[-1].endswith(message), result
