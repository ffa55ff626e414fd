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


def output(r):
    """Return the stdout of a successful echo."""
    assert r.code == 0, r
    assert 'Traceback' not in r.err
    return r.out


def echoes(ros2, *argvs):
    """
    Return the stdouts of several echoes, run side by side (they only read).

    All at once: the talker leaves both cores to them (no HB50 stack in this module).
    """
    return [output(r) for r in ros2.many(*(('topic', 'echo', *argv) for argv in argvs),
                                         timeout=90, workers=len(argvs))]


def test_echo_yaml_layout(ros2, talker):
    status, command, latched = echoes(
        ros2, ('--once', '/ros2cli_test/status'), ('/ros2cli_test/joint_command', '--once'),
        ('/ros2cli_test/latched', '--once', '--timeout', '20'))
    assert status == STATUS_YAML
    # best-effort publisher, no QoS flags: echo adapts and receives
    assert command == JOINT_COMMAND_YAML
    # transient local publisher: echo adapts its durability and gets the latched sample
    assert 'status: latched\n' in latched


def test_echo_options(ros2, talker):
    (three, flow, csv, no_arr, no_str, stamp, field, truncated, reliable, typed) = echoes(
        ros2,
        ('/ros2cli_test/status', '-n', '3'),
        ('/ros2cli_test/status', '--once', '--flow-style'),
        ('/ros2cli_test/status', '--once', '--csv'),
        ('/ros2cli_test/joint_command', '--once', '--no-arr'),
        ('/ros2cli_test/status', '--once', '--no-str'),
        ('/ros2cli_test/status', '--once', '--field', 'header.stamp'),
        ('/ros2cli_test/status', '--once', '--field', 'reporting_node'),
        ('/ros2cli_test/joint_command', '--once', '-l', '1'),
        ('/ros2cli_test/joint_command', '--qos-reliability', 'reliable', '--timeout', '3'),
        ('/ros2cli_test/status', 'hb50_commons/Status', '--once'))
    assert three == STATUS_YAML * 3
    # rosidl_runtime_py builds mapping nodes itself (flow style unset): only the sequences
    # switch to flow style
    assert flow == STATUS_YAML.replace('data:\n- "\\0"\n- A\n', 'data: ["\\0", A]\n')
    assert csv == "12,345,base,b'\\x03',talker,hello: world,b'\\x00',b'A'\n"
    assert no_arr == (
        "header:\n  stamp:\n    sec: 0\n    nanosec: 0\n  frame_id: ''\nsource_node: talker\n"
        "name: '<sequence type: string, length: 2>'\n"
        "kp: '<sequence type: float, length: 2>'\n"
        "ki: '<sequence type: float, length: 0>'\n"
        "kd: '<sequence type: float, length: 2>'\n"
        "t_pos: '<sequence type: float, length: 2>'\n"
        "t_vel: '<sequence type: float, length: 0>'\n"
        "t_trq: '<sequence type: float, length: 0>'\n"
        "brake: '<sequence type: boolean, length: 2>'\n---\n")
    assert "reporting_node: '<string length: <6>>'\n" in no_str
    assert "status: '<string length: <12>>'\n" in no_str
    assert "frame_id: '<string length: <4>>'\n" in no_str
    assert stamp == 'sec: 12\nnanosec: 345\n---\n'
    assert field == 'talker\n---\n'
    assert truncated == \
        JOINT_COMMAND_YAML.replace('- a\n- b\n', "- a\n- '...'\n").replace(
            '- 1.5\n- 0.10000000149011612\n', "- 1.5\n- '...'\n").replace(
            '- 0.0\n- -2.0\n', "- 0.0\n- '...'\n").replace(
            '- 3.0\n- 0.25\n', "- 3.0\n- '...'\n").replace(
            '- true\n- false\n', "- true\n- '...'\n").replace('talker', 't...')
    # --qos-reliability reliable cannot match a best-effort publisher: nothing within 3 s
    assert reliable == ''
    # an explicit type works too; the short form as in ros2cli
    assert typed == STATUS_YAML


def test_echo_streams_until_sigint(ros2, talker):
    # one stopped with SIGINT, one with SIGTERM (started together)
    procs = [ros2.start('topic', 'echo', '/ros2cli_test/status') for _ in range(2)]
    try:
        out = wait_output(ros2, procs[0], lambda o: o.count('---\n') >= 3, 60)
        assert ros2.stop(procs[0]) == 0
        out, err = ros2.output(procs[0])
        assert out.startswith(STATUS_YAML * 3)
        assert 'Traceback' not in err
        wait_output(ros2, procs[1], lambda o: '---' in o, 60)
        assert ros2.stop(procs[1], signal.SIGTERM) == 0
        assert 'Traceback' not in ros2.output(procs[1])[1]
    finally:
        for proc in procs:
            ros2.stop(proc)


def test_echo_bad_input(ros2, talker):
    cases = ((('/no/such/topic',), 1), (('/ros2cli_test/status', 'nopkg/msg/Nope'), 1),
             (('bad topic name!',), 1), (('/ros2cli_test/status', '--field', 'nope', '--once'), 1),
             (('/x', '--qos-reliability', 'sometimes'), 2), (('/x', '--qos-depth', '0'), 2))
    results = ros2.many(*(('topic', 'echo', *argv) for argv, _ in cases), workers=len(cases))
    last = []
    for (_, code), r in zip(cases, results):
        assert r.code == code and 'Traceback' not in r.err, r
        last.append(r.err.strip().splitlines()[-1])
    assert last[0] == 'Could not determine the type for the passed topic'
    assert last[1].startswith('The passed message type is invalid')
    assert last[2].startswith("Invalid topic name 'bad topic name!'")
    assert "Invalid field 'nope'" in last[3]
    assert 'invalid choice' in last[4]
    assert 'positive integer' in last[5]


def test_pub_reaches_a_subscriber(ros2, talker):
    # two pairs of echo and pub on their own topics, side by side
    proc = ros2.start('topic', 'echo', '/ros2cli_test/in', 'hb50_commons/msg/Status',
                      '--qos-reliability', 'reliable')
    proc2 = ros2.start('topic', 'echo', '/ros2cli_test/in2', 'hb50_commons/msg/Status')
    try:
        r, r2 = ros2.many(
            ('topic', 'pub', '--once', '/ros2cli_test/in', 'hb50_commons/msg/Status',
             '{header: {frame_id: f}, level: 2, reporting_node: me, data: [1, 65]}'),
            # --times with --rate, 'auto' header stamped at publish time
            ('topic', 'pub', '-t', '3', '-r', '20', '/ros2cli_test/in2',
             'hb50_commons/Status', '{header: auto}'))
        out = wait_output(ros2, proc, lambda o: '---' in o, 30)
        out2 = wait_output(ros2, proc2, lambda o: o.count('---') >= 3, 30)
    finally:
        ros2.stop(proc)
        ros2.stop(proc2)
    assert r.code == 0, r
    # --once waits for the echo's subscription: said when it is not matched yet (echo with a
    # type subscribes at once, so it may already be)
    waiting = 'Waiting for at least 1 matching subscription(s)...\n'
    assert r.out[len(waiting) if r.out.startswith(waiting) else 0:].startswith(
        'publisher: beginning loop\npublishing #1: hb50_commons.msg.Status('), r
    assert out == ('header:\n  stamp:\n    sec: 0\n    nanosec: 0\n  frame_id: f\n'
                   'level: "\\x02"\nreporting_node: me\nstatus: \'\'\ndata:\n- "\\x01"\n- A\n'
                   '---\n')
    assert r2.code == 0 and r2.out.count('publishing #') == 3, r2
    assert out2.count('---') == 3 and '    sec: 0\n' not in out2


BAD_VALUES = [
    ('{level: [1', 'The passed value is not valid YAML'),
    ('[1, 2]', 'The passed value needs to be a dictionary in YAML format'),
    ('{nope: 1}', "Failed to populate field: 'Status' has no field 'nope'"),
    ('{level: 300}', 'Failed to populate field: level'),
    ('{header: {stamp: {sec: x}}}', 'Failed to populate field: header.stamp.sec: expected an '
                                    'integer'),
    ('{reporting_node: [1]}', 'Failed to populate field: reporting_node'),
    ('{data: [256]}', 'Failed to populate field: data[0]'),
    ('{header: 5}', 'Failed to populate field: '),
]
BAD_TYPE = ('topic', 'pub', '/x', 'hb50_commons/msg/Nope', '{}')
BAD_RATE = ('topic', 'pub', '-r', '0', '/x', 'hb50_commons/msg/Status')


@pytest.fixture(scope='module')
def refused(ros2):
    """Results of the refused `pub` commands below, all run at once; by argv."""
    commands = [('topic', 'pub', '--once', '/ros2cli_test/bad', 'hb50_commons/msg/Status',
                 values) for values, _ in BAD_VALUES] + [BAD_TYPE, BAD_RATE]
    return dict(zip(commands, ros2.many(*commands, workers=len(commands))))


@pytest.mark.parametrize('values, message', BAD_VALUES)
def test_pub_bad_values(refused, values, message):
    r = refused[('topic', 'pub', '--once', '/ros2cli_test/bad', 'hb50_commons/msg/Status',
                 values)]
    assert r.code == 1 and 'Traceback' not in r.err, r
    assert len(r.err.strip().splitlines()) == 1, r
    assert r.err.startswith(message), r
    assert 'publishing' not in r.out


def test_pub_bad_type_and_rate(refused):
    r = refused[BAD_TYPE]
    assert r.code == 1 and r.err.startswith('The passed message type is invalid'), r
    r = refused[BAD_RATE]
    assert r.code == 2 and 'positive float' in r.err, r
