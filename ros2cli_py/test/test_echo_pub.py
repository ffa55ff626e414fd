# SPDX-License-Identifier: Apache-2.0
"""
`ros2 topic echo` output format and options, `ros2 topic pub`, against a fixture talker.

Expected texts are written by hand from ros2cli's rules (rosidl_runtime_py.message_to_yaml:
fields in order, PyYAML block style with its quoting, bytes as strings of their code points,
float32 values as the double they widen to, '---' after each message).
"""

import signal
import subprocess

from conftest import wait_output
import pytest

STATUS_YAML = """\
header:
  stamp:
    sec: 12
    nanosec: 345
  frame_id: base
level: "\\x03"
reporting_node: talker
status: 'hello: world'
data:
- "\\0"
- A
---
"""

JOINT_COMMAND_YAML = """\
header:
  stamp:
    sec: 0
    nanosec: 0
  frame_id: ''
source_node: talker
name:
- a
- b
kp:
- 1.5
- 0.10000000149011612
ki: []
kd:
- 0.0
- -2.0
t_pos:
- 3.0
- 0.25
t_vel: []
t_trq: []
brake:
- true
- false
---
"""


@pytest.fixture(scope='module')
def talker(ros2, fixture_script):
    proc = subprocess.Popen(fixture_script('talker.py'), env=ros2.env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout.readline().strip() == 'talker ready'
        yield proc
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(15)
    assert code == 0


def echo(ros2, *argv):
    r = ros2('topic', 'echo', *argv, timeout=90)
    assert r.code == 0, r
    assert 'Traceback' not in r.err
    return r.out


def test_echo_yaml_layout(ros2, talker):
    assert echo(ros2, '--once', '/ros2cli_test/status') == STATUS_YAML
    # best-effort publisher, no QoS flags: echo adapts and receives
    assert echo(ros2, '/ros2cli_test/joint_command', '--once') == JOINT_COMMAND_YAML
    # transient local publisher: echo adapts its durability and gets the latched sample
    out = echo(ros2, '/ros2cli_test/latched', '--once', '--timeout', '20')
    assert 'status: latched\n' in out


def test_echo_options(ros2, talker):
    out = echo(ros2, '/ros2cli_test/status', '-n', '3')
    assert out == STATUS_YAML * 3
    # rosidl_runtime_py builds mapping nodes itself (flow style unset): only the sequences
    # switch to flow style
    assert echo(ros2, '/ros2cli_test/status', '--once', '--flow-style') == \
        STATUS_YAML.replace('data:\n- "\\0"\n- A\n', 'data: ["\\0", A]\n')
    assert echo(ros2, '/ros2cli_test/status', '--once', '--csv') == \
        "12,345,base,b'\\x03',talker,hello: world,b'\\x00',b'A'\n"
    assert echo(ros2, '/ros2cli_test/joint_command', '--once', '--no-arr') == (
        "header:\n  stamp:\n    sec: 0\n    nanosec: 0\n  frame_id: ''\nsource_node: talker\n"
        "name: '<sequence type: string, length: 2>'\n"
        "kp: '<sequence type: float, length: 2>'\n"
        "ki: '<sequence type: float, length: 0>'\n"
        "kd: '<sequence type: float, length: 2>'\n"
        "t_pos: '<sequence type: float, length: 2>'\n"
        "t_vel: '<sequence type: float, length: 0>'\n"
        "t_trq: '<sequence type: float, length: 0>'\n"
        "brake: '<sequence type: boolean, length: 2>'\n---\n")
    out = echo(ros2, '/ros2cli_test/status', '--once', '--no-str')
    assert "reporting_node: '<string length: <6>>'\n" in out
    assert "status: '<string length: <12>>'\n" in out
    assert "frame_id: '<string length: <4>>'\n" in out
    assert echo(ros2, '/ros2cli_test/status', '--once', '--field', 'header.stamp') == \
        'sec: 12\nnanosec: 345\n---\n'
    assert echo(ros2, '/ros2cli_test/status', '--once', '--field', 'reporting_node') == \
        'talker\n---\n'
    assert echo(ros2, '/ros2cli_test/joint_command', '--once', '-l', '1') == \
        JOINT_COMMAND_YAML.replace('- a\n- b\n', "- a\n- '...'\n").replace(
            '- 1.5\n- 0.10000000149011612\n', "- 1.5\n- '...'\n").replace(
            '- 0.0\n- -2.0\n', "- 0.0\n- '...'\n").replace(
            '- 3.0\n- 0.25\n', "- 3.0\n- '...'\n").replace(
            '- true\n- false\n', "- true\n- '...'\n").replace('talker', 't...')
    # --qos-reliability reliable cannot match a best-effort publisher: nothing within 3 s
    out = echo(ros2, '/ros2cli_test/joint_command', '--qos-reliability', 'reliable',
               '--timeout', '3')
    assert out == ''
    # an explicit type works too; the short form as in ros2cli
    assert echo(ros2, '/ros2cli_test/status', 'hb50_commons/Status', '--once') == STATUS_YAML


def test_echo_streams_until_sigint(ros2, talker):
    proc = ros2.start('topic', 'echo', '/ros2cli_test/status')
    out = wait_output(ros2, proc, lambda o: o.count('---\n') >= 3, 60)
    assert ros2.stop(proc) == 0
    out, err = ros2.output(proc)
    assert out.startswith(STATUS_YAML * 3)
    assert 'Traceback' not in err
    proc = ros2.start('topic', 'echo', '/ros2cli_test/status')
    wait_output(ros2, proc, lambda o: '---' in o, 60)
    assert ros2.stop(proc, signal.SIGTERM) == 0
    assert 'Traceback' not in ros2.output(proc)[1]


def test_echo_bad_input(ros2, talker):
    def fails(*argv, code=1):
        r = ros2('topic', 'echo', *argv)
        assert r.code == code and 'Traceback' not in r.err, r
        return r.err.strip().splitlines()[-1]
    assert fails('/no/such/topic') == 'Could not determine the type for the passed topic'
    assert fails('/ros2cli_test/status', 'nopkg/msg/Nope').startswith(
        'The passed message type is invalid')
    assert fails('bad topic name!').startswith("Invalid topic name 'bad topic name!'")
    assert "Invalid field 'nope'" in fails('/ros2cli_test/status', '--field', 'nope', '--once')
    assert 'invalid choice' in fails('/x', '--qos-reliability', 'sometimes', code=2)
    assert 'positive integer' in fails('/x', '--qos-depth', '0', code=2)


def test_pub_reaches_a_subscriber(ros2, talker):
    proc = ros2.start('topic', 'echo', '/ros2cli_test/in', 'hb50_commons/msg/Status',
                      '--qos-reliability', 'reliable')
    r = ros2('topic', 'pub', '--once', '/ros2cli_test/in', 'hb50_commons/msg/Status',
             '{header: {frame_id: f}, level: 2, reporting_node: me, data: [1, 65]}')
    assert r.code == 0, r
    assert r.out.startswith('Waiting for at least 1 matching subscription(s)...\n'
                            'publisher: beginning loop\npublishing #1: hb50_commons.msg.Status(')
    out = wait_output(ros2, proc, lambda o: '---' in o, 30)
    ros2.stop(proc)
    assert out == ('header:\n  stamp:\n    sec: 0\n    nanosec: 0\n  frame_id: f\n'
                   'level: "\\x02"\nreporting_node: me\nstatus: \'\'\ndata:\n- "\\x01"\n- A\n'
                   '---\n')
    # --times with --rate, 'auto' header stamped at publish time
    proc = ros2.start('topic', 'echo', '/ros2cli_test/in2', 'hb50_commons/msg/Status')
    r = ros2('topic', 'pub', '-t', '3', '-r', '20', '/ros2cli_test/in2',
             'hb50_commons/Status', '{header: auto}')
    assert r.code == 0 and r.out.count('publishing #') == 3, r
    out = wait_output(ros2, proc, lambda o: o.count('---') >= 3, 30)
    ros2.stop(proc)
    assert out.count('---') == 3 and '    sec: 0\n' not in out


@pytest.mark.parametrize('values, message', [
    ('{level: [1', 'The passed value is not valid YAML'),
    ('[1, 2]', 'The passed value needs to be a dictionary in YAML format'),
    ('{nope: 1}', "Failed to populate field: 'Status' has no field 'nope'"),
    ('{level: 300}', 'Failed to populate field: level'),
    ('{header: {stamp: {sec: x}}}', 'Failed to populate field: header.stamp.sec: expected an '
                                    'integer'),
    ('{reporting_node: [1]}', 'Failed to populate field: reporting_node'),
    ('{data: [256]}', 'Failed to populate field: data[0]'),
    ('{header: 5}', 'Failed to populate field: '),
])
def test_pub_bad_values(ros2, values, message):
    r = ros2('topic', 'pub', '--once', '/ros2cli_test/bad', 'hb50_commons/msg/Status', values)
    assert r.code == 1 and 'Traceback' not in r.err, r
    assert len(r.err.strip().splitlines()) == 1, r
    assert r.err.startswith(message), r
    assert 'publishing' not in r.out


def test_pub_bad_type_and_rate(ros2):
    r = ros2('topic', 'pub', '/x', 'hb50_commons/msg/Nope', '{}')
    assert r.code == 1 and r.err.startswith('The passed message type is invalid'), r
    r = ros2('topic', 'pub', '-r', '0', '/x', 'hb50_commons/msg/Status')
    assert r.code == 2 and 'positive float' in r.err, r
