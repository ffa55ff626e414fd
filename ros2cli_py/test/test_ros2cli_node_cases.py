# SPDX-License-Identifier: Apache-2.0
"""
ros2node's test_cli.py list cases, and the daemon counted once per domain (issue 38).

As upstream: a domain of its own with the daemon restarted, a node /complex_node and a hidden
/_hidden_complex_node. `node list -a` lists the daemon's node too (upstream's test filters
lines naming ros2cli), `-c -a` counts it: fixtures plus the daemon. A daemon started from
another environment in the same domain (stale, on its idle timeout) is replaced when this
environment's daemon starts, so neither its node nor its publishers are counted twice.
"""

import signal
import subprocess

from conftest import Ros2
import pytest
import workspace_testing as wt


def _filtered(result):
    """Output lines without the ones naming ros2cli (upstream's output filter)."""
    return [line for line in result.out.splitlines() if 'ros2cli' not in line]


@pytest.fixture(scope='module')
def node_graph(fixture_script):
    domain = wt.allocate_domain()
    ros2 = Ros2(domain)
    # a daemon of another environment in this domain (another key: CYCLONEDDS_URI, which Fast
    # DDS ignores), as a stale daemon of another workspace or shell would be
    stale_env = dict(ros2.env, CYCLONEDDS_URI='<CycloneDDS/>')
    nodes = []
    try:
        assert ros2('daemon', 'start', env=stale_env).code == 0
        assert ros2('daemon', 'stop').code == 0
        assert ros2('daemon', 'start').code == 0
        for name in ('complex_node', '_hidden_complex_node'):
            nodes.append(subprocess.Popen(
                fixture_script('lone_node.py') + [name, '_ros2cli_py_daemon'], env=ros2.env,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True))
        for node in nodes:
            assert node.stdout.readline().strip() == 'lone node ready'
        yield ros2, stale_env
    finally:
        for node in nodes:
            node.send_signal(signal.SIGINT)
        codes = [node.wait(15) for node in nodes]
        ros2('daemon', 'stop', env=stale_env)
        ros2('daemon', 'stop')
        wt.release_domain(domain)
    assert codes == [0] * len(codes)


def _retry(ros2, argv, accept, times=5):
    """Return the first accepted result of up to ``times`` runs (upstream's retry_on_failure)."""
    result = None
    for _ in range(times):
        result = ros2(*argv)
        if accept(result):
            return result
    return result


def test_stale_daemon_replaced(node_graph):
    ros2, stale_env = node_graph
    assert ros2('daemon', 'status', env=stale_env).out == 'The daemon is not running\n'
    assert ros2('daemon', 'status').out == 'The daemon is running\n'


def test_list_nodes(node_graph):
    ros2, _ = node_graph
    result = _retry(ros2, ('node', 'list'), lambda r: r.out == '/complex_node\n')
    assert (result.code, result.out, result.err) == (0, '/complex_node\n', ''), result


def test_list_all_nodes(node_graph):
    ros2, _ = node_graph
    expected = ['/_hidden_complex_node', '/complex_node']
    result = _retry(ros2, ('node', 'list', '-a'), lambda r: _filtered(r) == expected)
    assert result.code == 0 and _filtered(result) == expected, result
    # no warning about shared names: one daemon of this domain, one node each
    assert result.err == '', result
    daemons = [line for line in result.out.splitlines() if 'ros2cli' in line]
    assert len(daemons) == 1 and daemons[0].startswith('/_ros2cli_py_daemon_'), result


def test_list_node_count(node_graph):
    ros2, _ = node_graph
    result = _retry(ros2, ('node', 'list', '-c'), lambda r: r.out == '1\n')
    assert (result.code, result.out) == (0, '1\n'), result


def test_list_all_nodes_count(node_graph):
    """All fixture nodes plus the daemon's node."""
    ros2, _ = node_graph
    result = _retry(ros2, ('node', 'list', '-c', '-a'), lambda r: r.out == '3\n')
    assert (result.code, result.out) == (0, '3\n'), result


def test_parameter_events_publishers_counted_once(node_graph):
    """`topic list -v`: one /parameter_events publisher per node, the daemon's included."""
    ros2, _ = node_graph
    line = ' * /parameter_events [rcl_interfaces/msg/ParameterEvent] 3 publishers'
    result = _retry(ros2, ('topic', 'list', '-v'), lambda r: line in r.out.splitlines())
    assert result.code == 0 and line in result.out.splitlines(), result
