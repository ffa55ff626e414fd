# SPDX-License-Identifier: Apache-2.0
"""
Cases of ros2cli's ros2action test_cli.py against fixtures/fibonacci_action_server.py.

info (unknown action, -t, -c), list (-t, -c), type (known, unknown), send_goal with and
without feedback (the exact lines of ros2cli's get_fibonacci_send_goal_output) and with an
invalid type. The commands run side by side; a graph answer that discovery under load
truncated is asked again, as ros2cli's tests retry.
"""

import re
import subprocess

import pytest
import yaml


@pytest.fixture(scope='module')
def server(ros2, fixture_script):
    proc = subprocess.Popen(fixture_script('fibonacci_action_server.py'), env=ros2.env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout.readline().strip() == 'action server ready'
        yield proc
    finally:
        proc.send_signal(subprocess.signal.SIGINT)
        code = proc.wait(15)
    assert code == 0


def send_goal_lines(order, with_feedback=0):
    """Return the lines ros2cli's test expects from send_goal of a Fibonacci goal."""
    lines = ['Waiting for an action server to become available...', 'Sending goal:',
             f'     order: {order}', '', re.compile('Goal accepted with ID: [a-f0-9]{32}'), '']
    sequence = [0, 1]
    for _ in range(order - 1):
        sequence.append(sequence[-1] + sequence[-2])
        if with_feedback > 0:
            lines += ['Feedback:'] + ('    ' + yaml.dump({'sequence': sequence})).splitlines()
            lines.append('')
            with_feedback -= 1
    lines += ['Result:'] + ('    ' + yaml.dump({'sequence': sequence})).splitlines()
    lines += ['', 'Goal finished with status: SUCCEEDED']
    return lines


def matches(expected, line):
    if isinstance(expected, str):
        return expected == line
    return expected.fullmatch(line) is not None


def in_order(expected, lines):
    """Whether ``expected`` appear in ``lines`` in order (launch_testing's strict=False)."""
    it = iter(lines)
    return all(any(matches(e, line) for line in it) for e in expected)


def exactly(expected, lines):
    return len(expected) == len(lines) and all(map(matches, expected, lines))


CASES = {
    'info unknown': ('action', 'info', '/not_an_action'),
    'info': ('action', 'info', '/fibonacci'),
    'info types': ('action', 'info', '-t', '/fibonacci'),
    'info count': ('action', 'info', '-c', '/fibonacci'),
    'list': ('action', 'list'),
    'list types': ('action', 'list', '-t'),
    'list count': ('action', 'list', '-c'),
    'type': ('action', 'type', '/fibonacci'),
    'type unknown': ('action', 'type', '/not_an_action'),
    'send goal': ('action', 'send_goal', '/fibonacci', 'test_msgs/action/Fibonacci',
                  '{order: 5}'),
    'send goal feedback': ('action', 'send_goal', '-f', '/fibonacci',
                           'test_msgs/action/Fibonacci', '{order: 5}'),
    'send goal bad type': ('action', 'send_goal', '/fibonacci', 'test_msgs/action/NoSuch',
                           '{order: 5}'),
}

# case -> (whether the output matches, given the output's lines)
EXPECT = {
    'info unknown': lambda x: exactly(
        ['Action: /not_an_action', 'Action clients: 0', 'Action servers: 0'], x),
    'info': lambda x: in_order(
        ['Action: /fibonacci', 'Action clients: 0', 'Action servers: 1',
         '    /fibonacci_action_server'], x),
    'info types': lambda x: in_order(
        ['Action: /fibonacci', 'Action clients: 0', 'Action servers: 1',
         '    /fibonacci_action_server [test_msgs/action/Fibonacci]'], x),
    'info count': lambda x: exactly(
        ['Action: /fibonacci', 'Action clients: 0', 'Action servers: 1'], x),
    'list': lambda x: x == ['/fibonacci'],
    'list types': lambda x: x == ['/fibonacci [test_msgs/action/Fibonacci]'],
    'list count': lambda x: x == ['1'],
    'type': lambda x: x == ['test_msgs/action/Fibonacci'],
    'type unknown': lambda x: x == [],
    'send goal': lambda x: exactly(send_goal_lines(5), x),
    'send goal feedback': lambda x: in_order(send_goal_lines(5, with_feedback=1), x),
    'send goal bad type': lambda x: x == [],
}

CODES = {'type unknown': 1, 'send goal bad type': 1}


def test_ros2action_cases(ros2, server):
    results = dict(zip(CASES, ros2.many(*CASES.values())))
    for name, argv in CASES.items():
        r = results[name]
        for _ in range(3):      # discovery under load: ask again, as ros2cli's retries
            if r.code == CODES.get(name, 0) and EXPECT[name](r.out.splitlines()):
                break
            r = ros2(*argv)
        assert r.code == CODES.get(name, 0), (name, r)
        assert EXPECT[name](r.out.splitlines()), (name, r)
    assert results['send goal bad type'].err == (
        "The passed action type is invalid: 'test_msgs/action/NoSuch'\n")
