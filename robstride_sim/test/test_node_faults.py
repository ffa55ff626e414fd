# SPDX-License-Identifier: Apache-2.0
"""Fault and staleness injection, joint loss, freeze and reactivation; start-up config."""
import os
import time

from ament_index_python.packages import get_package_share_directory
import pytest

from robstride_sim.client import RequestRejectedError, RobstrideClient
from rs_harness import MODES, Monitor, node_executable, sim_node, sim_rig
from workspace_testing import start, stop

STARTUP_S = 20.0        # start-up and discovery on a loaded machine (as sim_node waits)


@pytest.fixture(params=MODES)
def node_factory(ros, request):
    """Start a node with given parameters in each bus mode; returns (client, monitor)."""
    stack = []

    def start_node(params=None, **kwargs):
        cm = sim_node(params, mode=request.param, **kwargs)
        proc, prefix = cm.__enter__()
        client = RobstrideClient(prefix, timeout_sec=5.0)
        mon = Monitor(prefix)
        stack.append((cm, client, mon))
        return client, mon
    yield start_node
    for cm, client, mon in reversed(stack):
        mon.close()
        client.close()
        cm.__exit__(None, None, None)


@pytest.fixture(scope='module', params=MODES)
def no_freeze_node(ros, request):
    """
    One node per bus mode: 300 ms error timeout, no freeze on joint loss.

    Shared by two tests, in file order: the joint-loss one leaves both motors enabled;
    the over-temperature one, last, leaves joint_2 latched. Returns (client, monitor).
    """
    params = {'error_timeout_ms': 300, 'freeze_on_joint_loss': False}
    with sim_rig(params, mode=request.param, timeout_sec=5.0) as rig:
        yield rig


def test_hung_motor_lost_freeze_and_reactivate(node_factory):
    client, mon = node_factory({'error_timeout_ms': 1500})
    mon.command_until(['joint_2'], [0.3], lambda m: m.joints
                      and abs(m.joints.position[1] - 0.3) < 0.01, what='joint_2 at 0.3')
    client.set_parameters({'sim.hung': [True, False]})
    hung_at = time.monotonic()
    # Not lost before error_timeout_ms: commands still work.
    mon.command_until(['joint_2'], [0.4], lambda m: abs(m.joints.position[1] - 0.4) < 0.01,
                      timeout=1.0, what='command before the timeout')
    mon.spin_for(hung_at + 2.0 - time.monotonic())      # past the 1.5 s timeout
    # Frozen: commands ignored, joint_2 holds where it was.
    mon.command(['joint_2'], [1.0])
    for _ in range(20):
        mon.command(['joint_2'], [1.0])
        mon.spin_for(0.05)
    assert abs(mon.joints.position[1] - 0.4) < 0.02
    with pytest.raises(RequestRejectedError, match='joint_1'):
        client.reactivate()
    # The motor answers again but stays disabled (lost) until reactivation.
    client.set_parameters({'sim.hung': [False, False]})
    mon.wait_for(lambda m: m.state.run_state[0] == 0, what='lost joint sent Disable')
    mon.spin_for(0.5)
    assert mon.state.run_state[0] == 0
    client.reactivate()
    mon.wait_for(lambda m: list(m.state.run_state) == [2, 2], what='re-enabled')
    mon.command_until(['joint_2'], [1.0], lambda m: abs(m.joints.position[1] - 1.0) < 0.01,
                      what='commands accepted again')


def test_without_freeze_other_joints_keep_working(no_freeze_node):
    client, mon = no_freeze_node
    client.set_parameters({'sim.hung': [True, False]})
    mon.spin_for(0.8)
    mon.command_until(['joint_2'], [0.6], lambda m: m.joints
                      and abs(m.joints.position[1] - 0.6) < 0.01, what='joint_2 moves')
    client.set_parameters({'sim.hung': [False, False]})
    mon.wait_for(lambda m: m.state.run_state[0] == 0, what='lost joint disabled')
    client.reactivate()
    mon.wait_for(lambda m: list(m.state.run_state) == [2, 2])


def test_sustained_torque_overheats_to_over_temperature(no_freeze_node):
    client, mon = no_freeze_node
    mon.wait_for(lambda m: m.state and list(m.state.run_state) == [2, 2])
    client.set_parameters({'sim.heat_gain': 3000.0})
    client.set_parameters({'sim.load_torque': [0.0, 40.0]})      # joint_2 holds 40 N*m
    mon.wait_for(lambda m: m.state.fault_bits[1] & 1 and m.state.run_state[1] == 0,
                 timeout=15.0, what='over-temperature on joint_2')
    assert client.get(2, 'temperature') > 100.0
    assert mon.state.fault_bits[0] == 0 and mon.state.run_state[0] == 2
    # Still hot: Reboot clears, the motor re-latches at once and stays off.
    client.reboot(2)
    mon.spin_for(0.5)
    assert mon.state.fault_bits[1] & 1 and mon.state.run_state[1] == 0


def test_installed_params_file_namespace_and_custom_joints(node_factory, tmp_path):
    config = os.path.join(get_package_share_directory('robstride_sim'), 'config',
                          'robstride_sim.yaml')
    # Both nodes start side by side (wait=False); their topics show when each is up.
    client, mon = node_factory(namespace='/custom_ns_a',
                               extra_args=['--params-file', config], wait=False)
    client3, mon3 = node_factory({
        'joint_names': ['hip', 'knee', 'ankle'], 'can_ids': [11, 12, 13],
        'models': ['RS04', 'RS06', 'RS00'], 'directions': [1, -1, 1],
        'kp': [50.0, 50.0, 10.0], 'kd': [2.0, 2.0, 0.5], 'update_rate_hz': 200.0,
        'sim.initial_positions': [0.1, 0.2, 0.3]}, wait=False)
    mon.wait_for(lambda m: m.state is not None and m.joints is not None, timeout=STARTUP_S,
                 what='the params-file node publishing')
    assert list(mon.state.id) == [1, 2] and list(mon.joints.name) == ['joint_1', 'joint_2']
    assert client.prefix == '/custom_ns_a/robstride_hardware_interface'
    mon3.wait_for(lambda m: m.state is not None and m.joints is not None
                  and list(m.state.run_state) == [2, 2, 2], timeout=STARTUP_S,
                  what='the 3-joint node publishing, motors enabled')
    assert list(mon3.state.id) == [11, 12, 13]
    assert list(mon3.joints.name) == ['hip', 'knee', 'ankle']
    assert client3.get(12, 'position') == pytest.approx(0.2, abs=0.01)
    assert client3.set_torque(False) == 'torque off'


def test_inconsistent_config_exits_with_reason(ros):
    proc = start([node_executable('robstride_sim_node'), '--ros-args', '-r', '__ns:=/bad_cfg',
                  '-p', 'joint_names:=[a, b, c]'])
    try:
        proc.wait(30)
    finally:
        result = stop(proc)
    out = result.output
    assert (result.returncode, result.signal) == (2, None), out
    assert 'can_ids has 2 entries, joint_names has 3' in out
