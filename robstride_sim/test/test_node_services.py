# SPDX-License-Identifier: Apache-2.0
"""
The node's topics and service semantics, through ROS only (node in a subprocess).

Every test runs in both bus modes: simulated motors in-process ('sim') and python-can's
virtual bus with the simulated motors as a bus peer ('can').
"""
import pytest
from robstride_interfaces.srv import GetDataFromRobstride, SetDataToRobstride

from robstride_sim.client import RequestRejectedError, RobstrideClient
from robstride_sim.params import ParamError
from rs_harness import MODES, Monitor, sim_node


@pytest.fixture(scope='module', params=MODES)
def rig(ros, request):
    with sim_node(mode=request.param) as (proc, prefix):
        client = RobstrideClient(prefix, timeout_sec=5.0)
        mon = Monitor(prefix)
        try:
            yield client, mon, proc
        finally:
            mon.close()
            client.close()


def raw_set(client, can_id, item, value):
    """Set without the client's local validation (to test the node's own checks)."""
    req = SetDataToRobstride.Request(id=can_id, item_name=item, item_data=value)
    return client._call(SetDataToRobstride, 'set_data_to_robstride', req).result


def test_state_topic_has_parallel_arrays_in_joint_order(rig):
    _, mon, _ = rig
    mon.wait_for(lambda m: m.state is not None and list(m.state.run_state) == [2, 2],
                 what='both motors torqued')
    s = mon.state
    assert s.comm_state == 0
    assert list(s.id) == [1, 2] and list(s.enabled) == [True, True]
    assert list(s.fault_bits) == [0, 0]
    mon.wait_for(lambda m: m.joints is not None, what='joint_states')
    js = mon.joints
    assert list(js.name) == ['joint_1', 'joint_2']
    assert len(js.position) == len(js.velocity) == len(js.effort) == 2


def test_state_is_published_every_cycle(rig):
    _, mon, _ = rig
    mon.states.clear()
    mon.spin_for(1.0)
    stamps = [s.header.stamp.sec + s.header.stamp.nanosec * 1e-9 for s in mon.states]
    assert len(stamps) > 100                      # default 500 Hz; loose for a shared VM
    assert all(b > a for a, b in zip(stamps, stamps[1:]))


def test_get_items(rig):
    client, _, _ = rig
    assert client.get(1, 'temperature') == pytest.approx(25.0, abs=1.0)
    assert client.get(1, 'run_state') == 2.0
    assert client.get(2, 'fault_bits') == 0.0
    for item in ('position', 'velocity', 'torque', 'effort'):
        assert abs(client.get(1, item)) < 1.0
    assert client.get(1, 'position', timeout_sec=30.0) == pytest.approx(
        client.get(1, 'position'), abs=0.01)      # timeout_sec accepted, no waiting
    with pytest.raises(RequestRejectedError):
        client.get(9, 'position')
    with pytest.raises(RequestRejectedError):
        client.get(1, 'voltage')
    req = GetDataFromRobstride.Request(id=1, item_name='0x7019')
    assert client._call(GetDataFromRobstride, 'get_data_from_robstride', req).result is False


def test_set_rejects_unknown_read_only_and_out_of_range(rig):
    client, _, _ = rig
    assert raw_set(client, 1, '0x7019', 0.0) is False      # mechPos read-only
    assert raw_set(client, 1, '0x7099', 0.0) is False      # unknown index
    assert raw_set(client, 1, '0x700B', 18.0) is False     # RS02 limit_torque max 17
    assert raw_set(client, 1, 'banana', 1.0) is False
    assert raw_set(client, 1, 'kp', 600.0) is False        # RS02 kp max 500
    assert raw_set(client, 9, 'kp', 1.0) is False          # unknown id
    assert raw_set(client, 2, 'kp', 600.0) is True         # RS03 kp max 5000
    with pytest.raises(ParamError):
        client.set_data(1, 'banana', 1.0)                       # client checks locally too


def test_commands_move_joint_and_joint_states_follow(rig):
    client, mon, _ = rig
    mon.command_until(['joint_1'], [0.5],
                      lambda m: m.joints and abs(m.joints.position[0] - 0.5) < 0.01,
                      what='joint_1 at 0.5')
    assert client.get(1, 'position') == pytest.approx(0.5, abs=0.01)


def test_set_zero_makes_current_position_zero(rig):
    client, mon, _ = rig
    mon.command_until(['joint_1'], [0.8],
                      lambda m: m.joints and abs(m.joints.position[0] - 0.8) < 0.01,
                      what='joint_1 at 0.8')
    client.set_zero(1)
    mon.wait_for(lambda m: abs(m.joints.position[0]) < 0.005, what='position zeroed')
    mon.spin_for(0.3)
    assert abs(client.get(1, 'position')) < 0.01          # stays where it is
    with pytest.raises(RequestRejectedError):
        client.set_zero(42)


def test_parameter_writes_change_the_motor(rig):
    client, mon, _ = rig
    client.set_data(2, '0x7005', 5)                    # run_mode CSP
    client.set_data(2, str(0x7016), 1.2)               # loc_ref as a decimal index
    mon.wait_for(lambda m: abs(m.joints.position[1] - 1.2) < 0.01, what='CSP at loc_ref')
    client.set_data(2, '0x7005', 0)                    # back to motion mode, hold where it is
    mon.command_until(['joint_2'], [1.2], lambda m: abs(m.joints.position[1] - 1.2) < 0.01)


def test_gains_change_behaviour(rig):
    client, mon, _ = rig
    client.set_data(1, 'kp', 0.0)
    client.set_data(1, 'kd', 0.0)
    client.set_data(1, '0x7006', 0.0)
    # No stiffness: a constant effort command now accelerates the joint away.
    start = mon.joints.position[0]
    end_time = 5.0
    mon.wait_for(lambda m: (m.command([], [0.0, 1.2], [0.0, 0.0], [0.5, 0.0]) or True)
                 and m.joints.position[0] - start > 0.5, timeout=end_time,
                 what='joint_1 pushed by feed-forward effort')
    client.set_data(1, 'kp', 30.0)
    client.set_data(1, 'kd', 1.0)
    mon.command_until(['joint_1'], [0.0], lambda m: abs(m.joints.position[0]) < 0.02,
                      what='joint_1 back to 0 with gains restored')


def test_reboot_without_fault_reenables(rig):
    client, mon, _ = rig
    mon.wait_for(lambda m: m.state.run_state[0] == 2)
    mon.states.clear()
    client.reboot(1)
    mon.wait_for(lambda m: any(s.run_state[0] == 0 for s in m.states), what='stop seen')
    mon.wait_for(lambda m: m.state.run_state[0] == 2 and m.state.enabled[0],
                 what='re-enabled')
    with pytest.raises(RequestRejectedError):
        client.reboot(99)


def test_under_voltage_latches_and_reboot_clears(rig):
    client, mon, _ = rig
    client.set_parameters({'sim.bus_voltage': 10.0})
    # The fault report and the feedback showing the stop may land one cycle apart.
    mon.wait_for(lambda m: list(m.state.fault_bits) == [4, 4]
                 and list(m.state.run_state) == [0, 0], what='under-voltage, motors stopped')
    assert list(mon.state.enabled) == [False] * 2
    client.set_parameters({'sim.bus_voltage': 48})
    mon.spin_for(0.5)
    assert list(mon.state.fault_bits) == [4, 4]            # latched
    assert client.get(1, 'fault_bits') == 4.0
    client.reboot(1)
    mon.wait_for(lambda m: m.state.fault_bits[0] == 0 and m.state.run_state[0] == 2,
                 what='joint_1 cleared and re-enabled')
    assert mon.state.fault_bits[1] == 4 and mon.state.run_state[1] == 0
    client.reboot(2)
    mon.wait_for(lambda m: list(m.state.run_state) == [2, 2], what='both re-enabled')


def test_injected_fault_bits(rig):
    client, mon, _ = rig
    # The fault frame and the feedback showing the stop may land one cycle apart.
    client.set_parameters({'sim.inject_fault_bits': [0, 1 << 7]})
    mon.wait_for(lambda m: m.state.fault_bits[1] == 1 << 7 and m.state.run_state[1] == 0,
                 what='encoder fault, motor stopped')
    client.reboot(2)
    mon.wait_for(lambda m: m.state.fault_bits[1] == 0 and m.state.run_state[1] == 2)
    # Stall/overload (bit 14): the fault frame carries the exact bit, not a summary flag.
    client.set_parameters({'sim.inject_fault_bits': [1 << 14, 0]})
    mon.wait_for(lambda m: m.state.fault_bits[0] == 1 << 14 and m.state.run_state[0] == 0,
                 what='stall fault')
    assert client.get(1, 'fault_bits') == float(1 << 14)
    client.reboot(1)
    mon.wait_for(lambda m: m.state.fault_bits[0] == 0 and m.state.run_state[0] == 2)
    with pytest.raises(RequestRejectedError, match='2 entries'):
        client.set_parameters({'sim.inject_fault_bits': [1]})


def test_calibration_shows_run_state_1_then_the_motor_is_enabled_again(rig):
    client, mon, _ = rig
    mon.wait_for(lambda m: list(m.state.run_state) == [2, 2], what='both torqued')
    client.set_parameters({'sim.calibrate': [False, True]})
    mon.wait_for(lambda m: list(m.state.run_state) == [2, 1], what='motor 2 calibrating')
    # After its 1 s the motor is in reset with no fault; the node enables it again.
    mon.wait_for(lambda m: list(m.state.run_state) == [2, 2] and m.state.fault_bits[1] == 0,
                 what='motor 2 torqued again')


def test_set_torque_off_and_on(rig):
    client, mon, _ = rig
    client.set_torque(False)
    mon.wait_for(lambda m: list(m.state.run_state) == [0, 0], what='torque off')
    mon.spin_for(0.5)
    assert list(mon.state.enabled) == [False, False]       # no re-enable while off
    client.set_torque(True)
    mon.wait_for(lambda m: list(m.state.run_state) == [2, 2], what='torque on')


def test_comm_state_reflects_bus(rig):
    client, mon, _ = rig
    client.set_parameters({'sim.bus_state': 'send_fail'})
    mon.wait_for(lambda m: m.state.comm_state == -2, what='SEND_FAIL')
    client.set_parameters({'sim.bus_state': 'not_open'})
    mon.wait_for(lambda m: m.state.comm_state == -1, what='BUS_NOT_OPEN')
    client.set_parameters({'sim.bus_state': 'ok'})
    mon.wait_for(lambda m: m.state.comm_state == 0, what='OK')
    with pytest.raises(RequestRejectedError):
        client.set_parameters({'sim.bus_state': 'broken'})
