# SPDX-License-Identifier: Apache-2.0
"""The hardware-interface read/write logic over the simulated bus, without ROS."""
import pytest

from robstride_sim import protocol as proto
from robstride_sim.bus import BUS_NOT_OPEN, BUS_SEND_FAIL, SimBus
from robstride_sim.hardware import (COMM_STATE_BUS_NOT_OPEN, COMM_STATE_OK,
                                    COMM_STATE_SEND_FAIL, CommandError, CommandIgnoredError,
                                    JointConfig, ReactivationError, RobstrideHardware,
                                    UnknownItemError, UnknownMotorError)
from robstride_sim.models import MODELS
from robstride_sim.motor import SimMotor
from robstride_sim.params import ParamError

DT = 0.002


class Rig:
    """Two motors, a bus and the hardware interface driven by a fake clock."""

    def __init__(self, timeout=0.5, freeze=True, directions=(1, 1)):
        self.joints = [JointConfig('a', 1, MODELS['RS02'], directions[0], 20.0, 1.0),
                       JointConfig('b', 2, MODELS['RS03'], directions[1], 100.0, 4.0)]
        self.motors = [SimMotor(j.can_id, j.model) for j in self.joints]
        self.bus = SimBus(self.motors, log_tx=True)
        self.logs = []
        self.hw = RobstrideHardware(self.joints, self.bus, error_timeout_s=timeout,
                                    freeze_on_joint_loss=freeze,
                                    log=lambda lvl, msg: self.logs.append((lvl, msg)))
        self.t = 0.0
        self.hw.activate(self.t)

    def cycle(self, n=1):
        for _ in range(n):
            self.t += DT
            self.bus.step(DT, self.t)
            self.hw.read(self.t)
            self.hw.write(self.t)

    def run(self, seconds):
        self.cycle(int(round(seconds / DT)))

    def sent(self, can_id, kind, since=0.0):
        return [(t, f) for t, f in self.bus.tx_log
                if f.dest == can_id and f.comm_type == kind and t > since]


def test_startup_enables_every_motor_and_holds_position():
    rig = Rig()
    rig.motors[0].position = 0.7
    rig.cycle(3)
    assert [j.run_state for j in rig.hw.joints] == [2, 2]
    assert rig.hw.comm_state == COMM_STATE_OK
    rig.run(0.5)
    assert rig.hw.get_item(1, 'position') == pytest.approx(0.7, abs=1e-3)


def test_get_items_and_unknowns():
    rig = Rig(directions=(-1, 1))
    rig.motors[0].position = 0.5
    rig.motors[0].temperature = 33.3
    rig.cycle(3)
    assert rig.hw.get_item(1, 'position') == pytest.approx(-0.5, abs=1e-3)   # direction
    assert rig.hw.get_item(1, 'temperature') == pytest.approx(33.3, abs=0.1)
    assert rig.hw.get_item(1, 'run_state') == 2.0
    assert rig.hw.get_item(1, 'fault_bits') == 0.0
    assert rig.hw.get_item(1, 'torque') == rig.hw.get_item(1, 'effort')
    with pytest.raises(UnknownMotorError):
        rig.hw.get_item(9, 'position')
    for bad in ('voltage', 'EFFORT', ' torque ', 'torque\0', 'Position', ''):
        with pytest.raises(UnknownItemError):
            rig.hw.get_item(1, bad)


def test_gains_apply_on_next_write_not_before():
    rig = Rig()
    rig.cycle(3)
    before = len(rig.sent(1, proto.CommType.MOTION))
    rig.hw.set_item(1, 'kp', 123.0, rig.t)
    rig.hw.set_item(1, 'kd', 2.5, rig.t)
    assert rig.hw.joints[0].kp == 20.0 and rig.hw.joints[0].kd == 1.0    # not yet
    assert len(rig.sent(1, proto.CommType.MOTION)) == before             # nothing sent
    rig.cycle(1)
    assert (rig.hw.joints[0].kp, rig.hw.joints[0].kd) == (123.0, 2.5)
    _, frame = rig.sent(1, proto.CommType.MOTION)[-1]
    _, _, kp, kd, _ = proto.decode_motion(MODELS['RS02'], frame)
    assert kp == pytest.approx(123.0, abs=0.01) and kd == pytest.approx(2.5, abs=1e-3)
    with pytest.raises(ParamError):
        rig.hw.set_item(1, 'kp', 501.0, rig.t)                           # RS02 kp max 500


def test_parameter_set_by_index_validates_then_changes_motor():
    rig = Rig()
    rig.cycle(3)
    rig.hw.set_item(2, '0x7005', 5, rig.t)            # CSP
    rig.hw.set_item(2, str(0x7016), 1.0, rig.t)       # loc_ref, decimal index
    rig.run(3.0)
    assert rig.hw.get_item(2, 'position') == pytest.approx(1.0, abs=0.01)
    n = len(rig.bus.tx_log)
    for item, value in (('0x7019', 0.0), ('0x7099', 0.0), ('0x700B', 61.0), ('speed', 1.0)):
        with pytest.raises(ParamError):
            rig.hw.set_item(2, item, value, rig.t)
    assert len(rig.bus.tx_log) == n                   # nothing sent for a rejected Set
    with pytest.raises(UnknownMotorError):
        rig.hw.set_item(7, 'kp', 1.0, rig.t)


def test_commands_move_joint_and_bad_commands_apply_nothing():
    rig = Rig(directions=(-1, 1))
    rig.cycle(3)
    rig.hw.command(['a'], [0.8], [], [])
    rig.run(2.0)
    assert rig.hw.get_item(1, 'position') == pytest.approx(0.8, abs=0.01)
    assert rig.motors[0].position == pytest.approx(-0.8, abs=0.01)       # motor side
    targets = [(j.target_position, j.target_velocity) for j in rig.hw.joints]
    for bad in ((['a', 'x'], [0.0, 0.0], [], []),           # unknown joint
                (['a', 'b'], [0.0], [], []),                # length mismatch
                (['a', 'b'], [0.1, float('nan')], [], []),  # not finite
                (['a'], [], [45.0], []),                    # over RS02 v_max
                (['b', 'b'], [0.1, 0.2], [], [])):          # duplicate
        with pytest.raises(CommandError):
            rig.hw.command(*bad)
    assert [(j.target_position, j.target_velocity) for j in rig.hw.joints] == targets
    rig.hw.command([], [0.1, 0.2], [0.0, 0.0], [0.0, 0.0])  # no names: joint order
    assert [j.target_position for j in rig.hw.joints] == [0.1, 0.2]


def test_command_safety_refuses_whole_and_counts():
    rig = Rig()
    rig.cycle(3)
    rig.hw.command(['a', 'b'], [0.2, 0.3], [], [])
    targets = [(j.target_position, j.target_velocity, j.target_effort) for j in rig.hw.joints]
    cases = (
        ((['a', 'b'], [0.1, float('inf')], [], []), 'non_finite'),
        ((['a'], [], [], [float('nan')]), 'non_finite'),
        ((['a'], [13.0], [], []), 'out_of_range'),             # beyond +-4*pi
        ((['b'], [], [20.5], []), 'out_of_range'),             # RS03 v_max 20
        ((['a', 'b'], [0.0, 0.0], [], [0.0, 61.0]), 'out_of_range'),   # RS03 t_max 60
        ((['a', 'x' * 10000], [0.0, 0.0], [], []), 'invalid'),
    )
    for args, reason in cases:
        before = rig.hw.refused.get(reason, 0)
        with pytest.raises(CommandError) as exc:
            rig.hw.command(*args)
        assert exc.value.reason == reason and rig.hw.refused[reason] == before + 1
        assert len(str(exc.value)) < 200                   # untrusted text clipped
    assert [(j.target_position, j.target_velocity, j.target_effort)
            for j in rig.hw.joints] == targets
    # Stale feedback: joint b's motor stops answering; after 100 ms commands naming b are
    # refused whole (a's part too), commands for a alone still work.
    rig.motors[1].hung = True
    rig.run(0.15)
    with pytest.raises(CommandError) as exc:
        rig.hw.command(['a', 'b'], [0.4, 0.4], [], [])
    assert exc.value.reason == 'stale' and rig.hw.refused['stale'] == 1
    assert rig.hw.joints[0].target_position == 0.2
    rig.hw.command(['a'], [0.4], [], [])
    assert rig.hw.joints[0].target_position == 0.4
    # Gains are range-checked too; kp/kd never reach a frame outside the model's range.
    with pytest.raises(ParamError):
        rig.hw.set_item(1, 'kp', float('nan'), rig.t)
    with pytest.raises(ParamError):
        rig.hw.set_item(1, 'kd', 5.5, rig.t)


def test_commands_before_any_feedback_are_refused():
    rig = Rig()
    for j in rig.motors:
        j.hung = True
    rig.cycle(2)
    with pytest.raises(CommandError, match='no feedback yet'):
        rig.hw.command(['a'], [0.1], [], [])


def test_unsafe_motion_fields_are_never_encoded():
    rig = Rig()
    rig.cycle(3)
    rig.hw.joints[0].target_velocity = float('nan')   # bypassing command(): the last guard
    n = len(rig.sent(1, proto.CommType.MOTION))
    rig.cycle(5)
    assert len(rig.sent(1, proto.CommType.MOTION)) == n
    assert rig.hw.refused['unsafe_frame'] == 5
    assert len(rig.sent(2, proto.CommType.MOTION)) > 0


def test_enable_resent_at_most_every_200_ms():
    rig = Rig()
    for _ in range(500):          # 1 s of write() with no feedback read: never confirmed
        rig.t += DT
        rig.hw.write(rig.t)
    times = [t for t, _ in rig.sent(1, proto.CommType.ENABLE)]
    assert len(times) == 5
    assert all(b - a >= 0.2 - 1e-9 for a, b in zip(times, times[1:]))


def test_set_zero_moves_zero_and_target_together():
    rig = Rig()
    rig.cycle(3)
    rig.hw.command(['a'], [1.0], [], [])
    rig.run(2.0)
    rig.hw.set_zero(1, rig.t)
    rig.cycle(2)
    assert rig.hw.get_item(1, 'position') == pytest.approx(0.0, abs=1e-3)
    rig.run(0.5)
    assert rig.hw.get_item(1, 'position') == pytest.approx(0.0, abs=5e-3)  # no jump back


def test_reboot_clears_fault_and_write_loop_reenables():
    rig = Rig()
    rig.cycle(3)
    rig.motors[0].vbus = 10.0
    rig.cycle(3)
    j = rig.hw.joints[0]
    assert j.fault_bits == proto.FAULT_UNDER_VOLTAGE and j.run_state == 0
    rig.run(0.5)
    assert j.run_state == 0                                  # faulted: no re-enable
    assert rig.sent(1, proto.CommType.STOP, since=rig.t - 0.1)   # sent Disable instead
    rig.motors[0].vbus = 48.0
    rig.run(0.5)
    assert j.fault_bits == proto.FAULT_UNDER_VOLTAGE         # still latched
    rig.hw.reboot(1, rig.t)
    rig.run(0.5)
    assert j.fault_bits == 0 and j.run_state == 2


def test_reboot_is_unconditional_even_without_fault():
    rig = Rig()
    rig.run(0.5)
    t0 = rig.t
    rig.hw.reboot(2, rig.t)
    (_, stop), = rig.sent(2, proto.CommType.STOP, since=t0 - 1e-9)
    assert stop.data[0] == 1
    rig.cycle(1)
    assert rig.hw.joints[1].run_state in (0, 2)
    rig.run(0.5)
    assert rig.hw.joints[1].run_state == 2
    assert rig.sent(2, proto.CommType.ENABLE, since=t0)


def test_enable_is_resent_at_most_every_200ms():
    rig = Rig(timeout=10.0)
    rig.motors[0].hung = True                 # never confirms
    rig.run(1.0)
    times = [t for t, _ in rig.sent(1, proto.CommType.ENABLE)]
    assert 4 <= len(times) <= 6
    assert all(b - a >= 0.2 - 1e-9 for a, b in zip(times, times[1:]))


def test_hung_motor_is_lost_then_freeze_and_reactivate():
    rig = Rig(timeout=0.5)
    rig.run(0.3)
    rig.hw.command(['b'], [0.5], [], [])
    rig.run(0.1)
    rig.motors[0].hung = True
    rig.run(0.45)
    assert not rig.hw.joints[0].lost
    rig.run(0.1)
    assert rig.hw.joints[0].lost and rig.hw.frozen
    assert any(lvl == 'error' and 'lost' in msg for lvl, msg in rig.logs)
    held = rig.hw.joints[1].target_position
    with pytest.raises(CommandIgnoredError):
        rig.hw.command(['b'], [1.5], [], [])
    rig.run(0.5)
    assert rig.hw.joints[1].target_position == held
    assert rig.sent(1, proto.CommType.STOP, since=rig.t - 0.1)      # lost joint: Disable
    with pytest.raises(ReactivationError, match='a'):
        rig.hw.reactivate(rig.t)                                    # still hung
    rig.motors[0].hung = False
    rig.run(0.1)
    assert rig.hw.joints[0].lost                                    # stays lost ...
    rig.hw.reactivate(rig.t)                                        # ... until reactivated
    rig.run(0.5)
    assert not rig.hw.frozen and [j.run_state for j in rig.hw.joints] == [2, 2]
    rig.hw.command(['b'], [1.5], [], [])
    rig.run(2.0)
    assert rig.hw.get_item(2, 'position') == pytest.approx(1.5, abs=0.01)


def test_without_freeze_other_joints_keep_accepting_commands():
    rig = Rig(timeout=0.2, freeze=False)
    rig.run(0.2)
    rig.motors[0].hung = True
    rig.run(0.5)
    assert rig.hw.joints[0].lost and not rig.hw.frozen
    rig.hw.command(['b'], [0.7], [], [])
    rig.run(2.0)
    assert rig.hw.get_item(2, 'position') == pytest.approx(0.7, abs=0.01)


def test_torque_off_disables_and_on_reenables_in_place():
    rig = Rig()
    rig.run(0.3)
    rig.hw.set_torque(False)
    rig.cycle(2)
    assert [j.run_state for j in rig.hw.joints] == [0, 0]
    rig.motors[1].position = 0.4          # moved by hand while limp
    rig.run(0.1)
    rig.hw.set_torque(True)
    rig.run(0.5)
    assert [j.run_state for j in rig.hw.joints] == [2, 2]
    assert rig.hw.get_item(2, 'position') == pytest.approx(0.4, abs=0.01)


def test_comm_state_follows_bus():
    rig = Rig()
    rig.cycle(2)
    rig.bus.state = BUS_SEND_FAIL
    rig.cycle(1)
    assert rig.hw.comm_state == COMM_STATE_SEND_FAIL
    rig.bus.state = BUS_NOT_OPEN
    rig.cycle(1)
    assert rig.hw.comm_state == COMM_STATE_BUS_NOT_OPEN
    rig.bus.state = 'ok'
    rig.cycle(1)
    assert rig.hw.comm_state == COMM_STATE_OK
