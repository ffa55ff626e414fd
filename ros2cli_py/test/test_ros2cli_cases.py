# SPDX-License-Identifier: Apache-2.0
"""
Cases of ros2cli's own CLI tests (ros2topic, ros2node, ros2service, ros2interface test_cli.py).

Written from those tests' expectations against fixture nodes of our own (fixtures/graph_nodes.py):
hidden names shown only with the include-hidden flags and this tool's own node never, topic
find / service find, pub's -p counting and its wait messages, hz with a filter and over several
topics, bw's whole-byte sizes, node info's duplicate-name warning, interface package -m/-s.
The long-running verbs start first and the one-shot commands run side by side meanwhile.
"""

import re
import subprocess
import time

from conftest import wait_output
import pytest


@pytest.fixture(scope='module')
def graph(ros2, fixture_script):
    proc = subprocess.Popen(fixture_script('graph_nodes.py'), env=ros2.env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout.readline().strip() == 'graph nodes ready'
        yield proc
    finally:
        proc.send_signal(subprocess.signal.SIGINT)
        code = proc.wait(15)
    assert code == 0


def until(ros2, argv, accept, first, tries=3):
    """Return the first result that ``accept``s, re-running ``argv`` (discovery under load)."""
    r = first
    for _ in range(tries):
        if accept(r):
            return r
        r = ros2(*argv)
    return r


ONE_SHOT = {
    'topic list': ('topic', 'list'),
    'topic list hidden': ('topic', 'list', '--include-hidden-topics'),
    'type hidden': ('topic', 'type', '/_hidden_chatter'),
    'type hidden shown': ('topic', 'type', '/_hidden_chatter', '--include-hidden-topics'),
    'find log': ('topic', 'find', 'rcl_interfaces/msg/Log'),
    'find none': ('topic', 'find', 'rcl_interfaces/msg/NotAMessageTypeName'),
    'node list': ('node', 'list'),
    'node list all': ('node', 'list', '-a'),
    'info hidden': ('node', 'info', '/_hidden_node'),
    'info hidden shown': ('node', 'info', '/_hidden_node', '--include-hidden'),
    'info dup': ('node', 'info', '/dup'),
    'service list': ('service', 'list'),
    'service list hidden': ('service', 'list', '--include-hidden-services'),
    'service type unknown': ('service', 'type', '/not_a_service'),
    'service find': ('service', 'find', 'std_srvs/srv/Trigger'),
    'service find hidden': ('service', 'find', 'std_srvs/srv/Trigger',
                            '--include-hidden-services'),
    'pub print 2': ('topic', 'pub', '-t', '4', '-p', '2', '-r', '20', '-w', '0',
                    '/ros2cli_cases/pub_print', 'std_msgs/msg/String', 'data: hello'),
    'pub max wait alone': ('topic', 'pub', '--max-wait-time-secs', '1',
                           '/ros2cli_cases/pub_wait', 'std_msgs/msg/String'),
    'pub timed out': ('topic', 'pub', '-t', '5', '--max-wait-time-secs', '1',
                      '/ros2cli_cases/pub_wait', 'std_msgs/msg/String', 'data: hello'),
    'pub sim time': ('topic', 'pub', '-s', '-1', '-w', '0', '/ros2cli_cases/pub_sim',
                     'std_msgs/msg/String'),
}


def test_ros2cli_cases(ros2, graph):
    long_running = {
        'hz filter': ros2.start('topic', 'hz', '/chatter', '--filter',
                                "m.data.startswith('Hello World')"),
        'hz many': ros2.start('topic', 'hz', '/chatter', '/_hidden_chatter'),
        'bw': ros2.start('topic', 'bw', '/chatter'),
        'service echo': ros2.start('service', 'echo', '/trigger', 'std_srvs/srv/Trigger'),
    }
    try:
        r = dict(zip(ONE_SHOT, ros2.many(*ONE_SHOT.values())))

        def settled(name, accept):
            return until(ros2, ONE_SHOT[name], accept, r[name])

        lines = settled('topic list', lambda x: '/hidden_node_topic' in x.out
                        and '/chatter' in x.out).out.splitlines()
        assert '/chatter' in lines and '/hidden_node_topic' in lines
        assert '/_hidden_chatter' not in lines
        lines = settled('topic list hidden', lambda x: '/_hidden_chatter' in x.out).out
        assert '/_hidden_chatter' in lines.splitlines()
        assert (r['type hidden'].code, r['type hidden'].out) == (1, ''), r['type hidden']
        x = settled('type hidden shown', lambda x: x.code == 0)
        assert x.out == 'std_msgs/msg/String\n', x
        x = settled('find log', lambda x: x.out)
        assert (x.code, x.out) == (0, '/rosout\n'), x
        assert (r['find none'].code, r['find none'].out) == (0, ''), r['find none']

        nodes = settled('node list', lambda x: '/server' in x.out and '/talker' in x.out)
        nodes = nodes.out.splitlines()
        assert '/talker' in nodes and '/server' in nodes and '/_hidden_node' not in nodes
        every = settled('node list all', lambda x: '/_hidden_node' in x.out).out.splitlines()
        assert '/_hidden_node' in every
        x = r['info hidden']
        assert (x.code, x.err) == (1, "Unable to find node '/_hidden_node'\n"), x
        x = settled('info hidden shown', lambda x: '/hidden_node_topic' in x.out)
        assert x.code == 0 and '    /hidden_node_topic: std_msgs/msg/String\n' in x.out, x
        x = settled('info dup', lambda x: 'There are 2 nodes' in x.err)
        assert x.code == 0 and x.out.startswith('/dup\n'), x
        assert ('There are 2 nodes in the graph with the exact name "/dup". You are seeing '
                'information about only one of them.') in x.err, x

        services = settled('service list', lambda x: '/trigger\n' in x.out).out.splitlines()
        assert '/trigger' in services and '/_hidden_trigger' not in services
        services = settled('service list hidden', lambda x: '/_hidden_trigger' in x.out
                           and '/trigger\n' in x.out).out.splitlines()
        assert '/_hidden_trigger' in services and '/trigger' in services
        assert not [s for s in services if s.startswith('/_ros2cli_py')], services
        x = r['service type unknown']
        assert (x.code, x.out, x.err) == (1, '', ''), x
        x = settled('service find', lambda x: x.out)
        assert (x.code, x.out) == (0, '/trigger\n'), x
        x = settled('service find hidden', lambda x: x.out.count('trigger') == 2)
        assert x.out == '/_hidden_trigger\n/trigger\n', x

        x = r['pub print 2']
        assert x.code == 0 and x.out == (
            'publisher: beginning loop\n'
            "publishing #2: std_msgs.msg.String(data='hello')\n\n"
            "publishing #4: std_msgs.msg.String(data='hello')\n\n"), x
        x = r['pub max wait alone']
        assert (x.code, x.out, x.err) == (1, '', (
            '--max-wait-time-secs option is only effective with '
            '--wait-matching-subscriptions, --once or --times\n')), x
        x = r['pub timed out']
        assert x.code == 1 and x.out == 'Waiting for at least 1 matching subscription(s)...\n' * 2
        assert x.err.startswith('Timed out waiting for subscribers'), x
        x = r['pub sim time']
        assert x.code == 0 and x.out.startswith('publisher: beginning loop\n'), x

        rate = re.compile(r'average rate: \d+\.\d{3}\n\tmin: \d+\.\d{3}s max: \d+\.\d{3}s '
                          r'std dev: \d+\.\d{5}s window: \d+\n')
        out = wait_output(ros2, long_running['hz filter'], rate.search, 30)
        assert rate.search(out), out
        # ros2topic's test_multiple_topics_hz: the subscriptions, then a table of both
        hz_many = [re.compile(line) for line in (
            r'Subscribed to \[/chatter\]$', r'Subscribed to \[/_hidden_chatter\]$',
            r'\s+topic\s+rate\s+min_delta\s+max_delta\s+std_dev\s+window',
            r'=+$',
            r'/chatter\s+(\d+.\d{3})\s+\d+.\d{3}\s+\d+.\d{3}\s+\d+.\d{5}\s+\d+\s+',
            r'/_hidden_chatter\s+(\d+.\d{3})\s+\d+.\d{3}\s+\d+.\d{3}\s+\d+.\d{5}\s+\d+\s+')]
        out = wait_output(ros2, long_running['hz many'], lambda o: len(o.splitlines()) >= 6, 30)
        lines = out.splitlines()
        assert len(lines) >= 6 and all(p.match(x) for p, x in zip(hz_many, lines)), out
        assert 5.0 < float(hz_many[4].match(lines[4]).group(1)) < 15.0, out     # 10 Hz
        bw = re.compile(r'\d+ B/s from \d+ messages\n\tMessage size mean: \d+ B min: \d+ B '
                        r'max: \d+ B\n')
        out = wait_output(ros2, long_running['bw'], bw.search, 30)
        assert bw.search(out), out
        # a call while `service echo` listens: the server's received and sent events
        call = until(ros2, ('service', 'call', '/trigger', 'std_srvs/srv/Trigger'),
                     lambda x: x.code == 0, ros2('service', 'call', '/trigger',
                                                 'std_srvs/srv/Trigger'))
        assert call.code == 0, call
        out = wait_output(ros2, long_running['service echo'],
                          lambda o: 'message: triggered' in o, 30)
        # ros2service's test_echo: the event type by its constant's name
        assert 'info:\n  event_type: REQUEST_RECEIVED\n' in out, out
        assert 'info:\n  event_type: RESPONSE_SENT\n' in out, out
        assert 'response:\n- success: true\n  message: triggered\n' in out, out
    finally:
        codes = {name: ros2.stop(proc) for name, proc in long_running.items()}
    for name, proc in long_running.items():
        _, err = ros2.output(proc)
        assert codes[name] == 0 and 'Traceback' not in err and 'FATAL' not in err, (name, err)


def test_interface_package_kinds(ros2):
    srvs, msgs, actions = ros2.many(('interface', 'package', 'std_srvs', '-s'),
                                    ('interface', 'package', 'std_srvs', '-m'),
                                    ('interface', 'package', 'std_srvs', '-a'))
    assert srvs.code == 0 and 'std_srvs/srv/Trigger' in srvs.out.splitlines(), srvs
    assert all(line.startswith('std_srvs/srv/') for line in srvs.out.splitlines())
    assert (msgs.code, msgs.out) == (0, ''), msgs
    assert (actions.code, actions.out) == (0, ''), actions


def test_param_load(ros2, graph, tmp_path):
    """ros2param's test_verb_load cases, against /talker (unknown parameters are refused)."""
    params = tmp_path / 'talker.yaml'
    params.write_text('/talker:\n  ros__parameters:\n    use_sim_time: false\n'
                      '    not_declared: 3\n/**:\n  ros__parameters:\n    wildcard_only: 1\n')
    wildcard = tmp_path / 'wildcard.yaml'
    wildcard.write_text('/**:\n  ros__parameters:\n    use_sim_time: false\n')
    assert ros2('daemon', 'start').code == 0
    (loaded, no_wildcard, missing, invalid_node, invalid_ns, timeout, timed_load,
     wildcard_none, wildcard_only) = ros2.many(
        ('param', 'load', '/talker', str(params)),
        ('param', 'load', '--no-use-wildcard', '/talker', str(params)),
        ('param', 'load', '/talker', 'invalid_path'),
        ('param', 'load', 'invalid_node', str(params)),
        ('param', 'load', 'invalid_ns/talker', str(params)),
        ('param', 'load', 'invalid_node', 'invalid_path', '--timeout', '2'),
        ('param', 'load', '/talker', str(params), '--timeout', '3'),
        ('param', 'load', '/talker', str(wildcard), '--no-use-wildcard', '--timeout', '3'),
        ('param', 'load', '/talker', str(wildcard)))
    # successes on stdout, refusals on stderr (ros2param's load_parameter_file)
    assert loaded.code == 0 and loaded.out == 'Set parameter use_sim_time successful\n', loaded
    assert any(x.startswith('Set parameter not_declared failed')
               for x in loaded.err.splitlines()), loaded
    assert any(x.startswith('Set parameter wildcard_only failed')
               for x in loaded.err.splitlines()), loaded
    assert 'wildcard_only' not in no_wildcard.err and no_wildcard.code == 0, no_wildcard
    assert missing.code != 0 and 'No such file or directory' in missing.err, missing
    assert not missing.out, missing
    for result in (invalid_node, invalid_ns, timeout):
        assert (result.code, result.out, result.err) == (1, '', 'Node not found\n'), result
    assert timed_load.code == 0 and timed_load.out.splitlines(), timed_load
    assert wildcard_none.code != 0, wildcard_none
    assert 'Param file does not contain selected parameters' in wildcard_none.err, wildcard_none
    assert (wildcard_only.code, wildcard_only.out) == (
        0, 'Set parameter use_sim_time successful\n'), wildcard_only


def test_topic_echo_no_publisher(ros2, graph):
    """ros2topic's test_topic_echo_no_publisher: with the daemon up, an error at once."""
    assert ros2('daemon', 'start').code == 0
    started = time.monotonic()
    result = ros2('topic', 'echo', '/this_topic_has_no_pub', timeout=2)
    assert time.monotonic() - started < 2.0, result
    assert result.code != 0 and result.out == '', result
    assert result.err == 'Could not determine the type for the passed topic\n', result


def test_topic_echo_once(ros2, graph):
    """ros2topic's test_echo_once: a 1 Hz publisher; echo --once prints one message, exits."""
    started = time.monotonic()
    result = ros2('topic', 'echo', '--once', '/clitest/topic/echo_once', 'std_msgs/msg/String',
                  timeout=8)
    assert time.monotonic() - started < 8.0, result
    assert (result.code, result.out) == (0, 'data: hello\n---\n'), result
