# SPDX-License-Identifier: Apache-2.0
"""
The node's parameters as `ros2 param describe` / `ros2 param set` see them.

Through the node's own describe_parameters and set_parameters services (what the ros2 CLI
calls): every parameter has a description and the right read_only flag, ranges are in the
descriptors, a start-up parameter cannot be set, a sim.* one takes effect; a bad start-up
value stops the node with one line naming the parameter.
"""
import contextlib
import subprocess
import time

import pytest
from rcl_interfaces.msg import ParameterType
from rcl_interfaces.srv import DescribeParameters, ListParameters, SetParameters
from rclpy.parameter import Parameter

from robstride_sim.client import RequestRejectedError
from robstride_sim.node import sim_parameters, STARTUP_PARAMETERS
from rs_harness import node_executable, sim_rig
from workspace_testing import start, stop


@pytest.fixture(scope='module')
def rig(ros):
    with sim_rig() as rig:
        yield rig


def describe(client, names):
    return client._call(DescribeParameters, 'describe_parameters',
                        DescribeParameters.Request(names=names)).descriptors


def test_every_parameter_is_described(rig):
    client, _ = rig
    listed = client._call(ListParameters, 'list_parameters',
                          ListParameters.Request()).result.names
    ours = {p.name: p for p in STARTUP_PARAMETERS + sim_parameters(2)}
    assert set(ours) <= set(listed)
    for d in describe(client, sorted(ours)):
        assert d.description == ours[d.name].description
        assert d.read_only == ours[d.name].read_only, d.name
    startup = {p.name for p in STARTUP_PARAMETERS} | {'sim.initial_positions'}
    assert {n for n, p in ours.items() if p.read_only} == startup

    rate, host, state, load = describe(client, ['update_rate_hz', 'host_id',
                                                'sim.bus_state', 'sim.load_torque'])
    assert '[Hz]' in rate.description
    assert (rate.floating_point_range[0].from_value,
            rate.floating_point_range[0].to_value) == (0.0, 2000.0)
    assert (host.integer_range[0].from_value, host.integer_range[0].to_value) == (0, 255)
    assert state.additional_constraints == 'one of: ok, not_open, send_fail'
    assert load.type == ParameterType.PARAMETER_DOUBLE_ARRAY and '[N*m]' in load.description


def test_set_of_a_start_up_parameter_is_refused(rig):
    client, _ = rig
    for name, value in (('kp', [80.0, 100.0]), ('update_rate_hz', 100.0),
                        ('sim.initial_positions', [1.0, 1.0])):
        results = client._call(SetParameters, 'set_parameters', SetParameters.Request(
            parameters=[Parameter(name, value=value).to_parameter_msg()])).results
        assert not results[0].successful, name
        assert 'read-only' in results[0].reason


def test_run_time_parameters_take_effect_or_are_refused_with_a_reason(rig):
    client, mon = rig
    mon.wait_for(lambda m: m.joints is not None and m.state is not None
                 and list(m.state.run_state) == [2, 2], what='motors enabled')
    # An external load on joint_2: the motor holds against it (effort ~ the load).
    client.set_parameters({'sim.load_torque': [0.0, 10.0]})
    mon.wait_for(lambda m: abs(m.joints.effort[1]) > 8.0, what='joint_2 holding 10 N*m')
    client.set_parameters({'sim.load_torque': [0.0, 0.0]})
    mon.wait_for(lambda m: abs(m.joints.effort[1]) < 2.0, what='load removed')
    with pytest.raises(RequestRejectedError, match='out of range'):
        client.set_parameters({'sim.bus_voltage': -1.0})
    with pytest.raises(RequestRejectedError, match="'sim.bus_state': 'off' is not one of"):
        client.set_parameters({'sim.bus_state': 'off'})
    with pytest.raises(RequestRejectedError, match='needs 2 entries'):
        client.set_parameters({'sim.load_torque': [1.0]})
    # Bit 6 is reserved: no feedback flag carries it, so the host would read "no fault"
    # while the motor stayed latched.
    with pytest.raises(RequestRejectedError, match='only the defined fault bits'):
        client.set_parameters({'sim.inject_fault_bits': [1 << 6, 0]})
    assert list(mon.state.fault_bits) == [0, 0]      # nothing refused was applied


BAD_START_UP = [
    ('sim.bus_state:=broken', "parameter 'sim.bus_state': 'broken' is not one of"),
    ('update_rate_hz:=5000.0', "parameter 'update_rate_hz': Parameter update_rate_hz out of"),
    ('update_rate_hz:=500', "parameter 'update_rate_hz': wrong type"),
]


@pytest.fixture(scope='module')
def bad_start_ups(ros):
    """Start the node once with each bad value, all side by side; map arg -> Stopped."""
    procs = {arg: start([node_executable('robstride_sim_node'), '--ros-args',
                         '-r', f'__ns:=/bad_param_{i}', '-p', arg])
             for i, (arg, _) in enumerate(BAD_START_UP)}
    end = time.monotonic() + 30.0
    results = {}
    try:
        for proc in procs.values():
            with contextlib.suppress(subprocess.TimeoutExpired):   # the test shows it ran on
                proc.wait(max(0.0, end - time.monotonic()))
    finally:
        for arg, proc in procs.items():
            results[arg] = stop(proc)
    return results


@pytest.mark.parametrize('arg, message', BAD_START_UP)
def test_bad_start_up_value_exits_2_with_one_line(bad_start_ups, arg, message):
    result = bad_start_ups[arg]
    out = result.output
    assert (result.returncode, result.signal) == (2, None), out
    lines = [line for line in out.splitlines() if 'configuration error' in line]
    assert len(lines) == 1 and message in lines[0], out
    assert 'Traceback' not in out
