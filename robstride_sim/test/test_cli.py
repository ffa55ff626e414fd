# SPDX-License-Identifier: Apache-2.0
"""
robstride_cli against a node in the default namespace, all through ROS.

Each exit status (0 done, 1 rejected, 2 bad usage, 3 unreachable) and both output streams
are checked on the installed executable, started as a user would (`cli`). The other verbs
run the same main() in this process (`cli_here`), through this test's rclpy context: a
new process would spend seconds on start-up and DDS discovery for each verb.
"""
import contextlib
import io

import pytest
from rclpy.utilities import get_default_context

from robstride_sim import cli as robstride_cli
from rs_harness import Monitor, node_executable, sim_node
from workspace_testing import start, stop


@pytest.fixture(scope='module')
def node(ros):
    with sim_node(namespace='/robstride') as (proc, prefix):
        assert prefix == '/robstride/robstride_hardware_interface'
        mon = Monitor(prefix)
        try:
            yield mon
        finally:
            mon.close()


def cli(*args, timeout=60):
    # A generous --timeout: discovery on a loaded machine can take seconds.
    if '--timeout' not in args:
        args = ('--timeout', '15') + args
    proc = start([node_executable('robstride_cli'), *args], separate_stderr=True)
    try:
        proc.wait(timeout)
    finally:
        result = stop(proc)
    return result.returncode, result.output.strip(), proc.errors().strip()


def cli_here(*args):
    """robstride_cli's main() in this process; returns (status, stdout, stderr) like cli()."""
    if '--timeout' not in args:
        args = ('--timeout', '15') + args
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = robstride_cli.main(list(args), context=get_default_context())
        except SystemExit as exc:       # argparse: bad usage
            rc = exc.code
    return rc, out.getvalue().strip(), err.getvalue().strip()


def test_get_prints_value(node):
    rc, out, err = cli('get', '1', 'temperature')             # the executable: stdout, 0
    assert rc == 0 and float(out) == pytest.approx(25.0, abs=1.0) and err == ''
    rc, out, _ = cli_here('get', '2', 'run_state')
    assert rc == 0 and float(out) == 2.0


def test_set_param_and_gains(node):
    assert cli_here('set', '1', '0x7005', '5')[0] == 0
    assert cli_here('set', '1', '0x7016', '1.5')[0] == 0
    node.wait_for(lambda m: m.joints and abs(m.joints.position[0] - 1.5) < 0.01,
                  what='CSP move by CLI')
    assert cli_here('set', '1', '0x7005', '0')[0] == 0
    assert cli_here('set', '1', 'kp', '40')[0] == 0


def test_rejections_and_usage_errors(node):
    rc, _, err = cli('set', '1', '0x7019', '1')                # the executable: 1, stderr
    assert rc == 1 and 'rejected' in err
    assert cli_here('get', '7', 'position')[0] == 1
    rc, _, err = cli('set', '1', 'banana', '1')                # the executable: 2, stderr
    assert rc == 2 and 'banana' in err
    rc, _, err = cli_here('get', '300', 'position')
    assert rc == 2 and '300' in err


def test_zero_reboot_torque_state(node):
    assert cli_here('zero', '1')[0] == 0
    node.wait_for(lambda m: m.joints and abs(m.joints.position[0]) < 0.005, what='zeroed')
    assert cli_here('reboot', '1')[0] == 0
    rc, out, _ = cli_here('torque', 'off')
    assert rc == 0 and out == 'torque off'
    node.wait_for(lambda m: m.state and list(m.state.run_state) == [0, 0])
    assert cli_here('torque', 'on')[0] == 0
    node.wait_for(lambda m: list(m.state.run_state) == [2, 2])
    rc, out, _ = cli_here('state')
    assert rc == 0 and 'comm_state 0' in out
    assert out.splitlines()[2].split()[:3] == ['1', 'True', '2']


def test_sim_parameter_and_reactivate(node):
    assert cli_here('sim', 'sim.bus_voltage', '10')[0] == 0
    node.wait_for(lambda m: list(m.state.fault_bits) == [4, 4], what='under-voltage by CLI')
    assert cli_here('sim', 'sim.bus_voltage', '48')[0] == 0
    assert cli_here('reboot', '1')[0] == 0 and cli_here('reboot', '2')[0] == 0
    node.wait_for(lambda m: list(m.state.run_state) == [2, 2])
    rc, out, _ = cli_here('reactivate')
    assert rc == 0 and out == 'reactivated'
    assert cli_here('sim', 'sim.hung', '[true]')[0] == 1       # wrong length: node rejects


def test_unreachable_node(ros):
    rc, _, err = cli('--prefix', '/nobody/here', '--timeout', '0.5', 'get', '1', 'position')
    assert rc == 3 and 'not available' in err


def test_every_verb_in_hardware_mode(ros):
    """The node on python-can's virtual bus (fake motors in its process): each verb once."""
    with sim_node(mode='can') as (proc, prefix):
        mon = Monitor(prefix)
        try:
            pre = ('--prefix', prefix)
            mon.wait_for(lambda m: m.state and list(m.state.run_state) == [2, 2])
            rc, out, _ = cli_here(*pre, 'get', '2', 'run_state')
            assert rc == 0 and float(out) == 2.0
            assert cli_here(*pre, 'set', '1', 'kp', '40')[0] == 0
            assert cli_here(*pre, 'set', '1', '0x7016', '0.5')[0] == 0
            assert cli_here(*pre, 'set', '1', '0x7019', '1')[0] == 1
            assert cli_here(*pre, 'zero', '1')[0] == 0
            assert cli_here(*pre, 'sim', 'sim.inject_fault_bits', '[16384, 0]')[0] == 0
            mon.wait_for(lambda m: m.state.fault_bits[0] == 1 << 14, what='stall fault')
            assert cli_here(*pre, 'reboot', '1')[0] == 0
            mon.wait_for(lambda m: list(m.state.run_state) == [2, 2], what='re-enabled')
            assert cli_here(*pre, 'torque', 'off') == (0, 'torque off', '')
            mon.wait_for(lambda m: list(m.state.run_state) == [0, 0], what='torque off')
            assert cli_here(*pre, 'torque', 'on')[0] == 0
            mon.wait_for(lambda m: list(m.state.run_state) == [2, 2], what='torque on')
            rc, out, _ = cli_here(*pre, 'state')
            assert rc == 0 and 'comm_state 0' in out
            assert cli_here(*pre, 'reactivate')[:2] == (0, 'reactivated')
        finally:
            mon.close()
