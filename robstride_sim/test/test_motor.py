# SPDX-License-Identifier: Apache-2.0
"""The simulated motor: run-state machine, faults, parameter writes acting on the physics."""
import pytest

from robstride_sim import protocol as proto
from robstride_sim.models import MODELS
from robstride_sim.motor import OVERTEMP_C, SimMotor

HOST = 0xFD
RS02 = MODELS['RS02']
DT = 0.002


def make(model=RS02, can_id=1):
    return SimMotor(can_id, model)


def run(motor, seconds, t0=0.0, resend=None):
    """Step the motor; `resend` (a frame) is delivered every step, like a control loop."""
    t = t0
    for _ in range(int(round(seconds / DT))):
        t += DT
        if resend is not None:
            motor.handle(resend, t)
        motor.step(DT, t)
    return t


def fb(motor, replies):
    assert len(replies) == 1
    return proto.decode_feedback(motor.model, replies[0])


def test_enable_disable_state_machine_with_feedback():
    m = make()
    assert m.run_state == 0
    assert fb(m, m.handle(proto.encode_enable(HOST, 1), 0.0)).run_state == 2
    assert fb(m, m.handle(proto.encode_stop(HOST, 1), 0.0)).run_state == 0
    assert m.handle(proto.encode_enable(HOST, 2), 0.0) == []      # not our id


def test_latched_fault_refuses_enable_until_stop_with_clear():
    m = make()
    m.handle(proto.encode_enable(HOST, 1), 0.0)
    m.latch(proto.FAULT_ENCODER_UNCALIBRATED)
    assert m.run_state == 0
    r = fb(m, m.handle(proto.encode_enable(HOST, 1), 0.0))
    assert r.run_state == 0 and r.fault_flags != 0
    m.handle(proto.encode_stop(HOST, 1), 0.0)                     # plain stop keeps it
    assert m.faults == proto.FAULT_ENCODER_UNCALIBRATED
    r = fb(m, m.handle(proto.encode_stop(HOST, 1, clear_fault=True), 0.0))
    assert r.fault_flags == 0 and m.faults == 0
    assert fb(m, m.handle(proto.encode_enable(HOST, 1), 0.0)).run_state == 2


def test_motion_mode_pd_reaches_target_and_limit_torque_clips():
    m = make()
    m.handle(proto.encode_enable(HOST, 1), 0.0)
    cmd = proto.encode_motion(RS02, 1, 1.0, 0.0, 50.0, 2.0, 0.0)
    run(m, 2.0, resend=cmd)
    assert m.position == pytest.approx(1.0, abs=0.01)
    # Hold against a load: torque equals the load, unless limit_torque clips it.
    m.load_torque = -8.0
    run(m, 2.0, resend=cmd)
    assert m.torque == pytest.approx(8.0, abs=0.05)
    m.handle(proto.encode_param_write(HOST, 1, 0x700B, 3.0), 0.0)
    run(m, 0.5, resend=cmd)
    assert abs(m.torque) == pytest.approx(3.0, abs=1e-6)
    assert m.velocity < -1.0                                      # the load wins


def set_mode(m, mode):
    """Change run_mode as a real motor needs it: in reset, then enable again."""
    m.handle(proto.encode_stop(HOST, 1), 0.0)
    m.handle(proto.encode_param_write(HOST, 1, 0x7005, mode), 0.0)
    m.handle(proto.encode_enable(HOST, 1), 0.0)


def test_run_mode_velocity_current_and_csp():
    m = make()
    set_mode(m, 2)                                                  # velocity mode
    m.handle(proto.encode_param_write(HOST, 1, 0x700A, 3.0), 0.0)
    run(m, 1.0)
    assert m.velocity == pytest.approx(3.0, abs=0.05)
    set_mode(m, 5)                                                  # CSP: loc_ref is the target
    m.handle(proto.encode_param_write(HOST, 1, 0x7016, -2.0), 0.0)
    run(m, 3.0)
    assert m.position == pytest.approx(-2.0, abs=0.01)
    set_mode(m, 3)                                                  # current mode
    m.handle(proto.encode_param_write(HOST, 1, 0x7006, 2.0), 0.0)
    m.step(DT, 10.0)
    assert m.torque == pytest.approx(2.0 * RS02.kt)
    m.handle(proto.encode_param_write(HOST, 1, 0x7018, 1.0), 0.0)  # limit_cur caps it
    m.step(DT, 10.0)
    assert m.torque == pytest.approx(1.0 * RS02.kt)


def test_run_mode_write_refused_while_torqued():
    m = make()
    m.handle(proto.encode_enable(HOST, 1), 0.0)
    (reply,) = m.handle(proto.encode_param_write(HOST, 1, 0x7005, 2), 0.0)
    assert proto.decode_feedback(RS02, reply).run_state == 2       # answered, mode unchanged
    assert m.params[0x7005] == 0
    m.handle(proto.encode_stop(HOST, 1), 0.0)
    m.handle(proto.encode_param_write(HOST, 1, 0x7005, 2), 0.0)
    assert m.params[0x7005] == 2                                    # accepted in reset


def test_injected_fault_sends_fault_frame_with_that_bit():
    m = make()
    m.handle(proto.encode_enable(HOST, 1), 0.0)
    m.latch(proto.FAULT_STALL_OVERLOAD)
    (frame,) = m.step(DT, 0.1)
    assert frame.comm_type == proto.CommType.FAULT
    assert proto.decode_fault(frame) == 1 << 14 and m.run_state == 0
    assert m.step(DT, 0.15) == []                                   # once per new fault ...
    (frame,) = m.step(DT, 0.2)                                      # ... and every 100 ms
    assert proto.decode_fault(frame) == 1 << 14
    m.hung = True
    m.latch(proto.FAULT_ENCODER_UNCALIBRATED)
    assert m.step(DT, 0.3) == []                                    # hung: nothing sent
    m.hung = False
    (frame,) = m.step(DT, 0.31)                                     # reported when it answers
    assert proto.decode_fault(frame) == (1 << 14) | (1 << 7)


def test_fault_cleared_before_the_next_step_is_not_reported():
    m = make()
    m.latch(proto.FAULT_ENCODER_UNCALIBRATED | proto.FAULT_UNDER_VOLTAGE)
    m.handle(proto.encode_stop(HOST, 1, clear_fault=True), 0.0)     # before the next step
    assert m.step(DT, 0.002) == [] and m.step(DT, 0.5) == []        # nothing, ever
    m.latch(proto.FAULT_OVER_VOLTAGE)
    (frame,) = m.step(DT, 0.502)
    assert proto.decode_fault(frame) == proto.FAULT_OVER_VOLTAGE     # that fault's bits only


def test_calibration_run_state_and_end():
    m = make()
    m.latch(proto.FAULT_ENCODER_UNCALIBRATED)
    m.step(DT, 0.0)
    assert m.calibrate(0.0)
    assert m.run_state == 1
    assert fb(m, m.handle(proto.encode_enable(HOST, 1), 0.1)).run_state == 1   # refused
    m.step(DT, 0.5)
    assert m.run_state == 1
    m.step(DT, 1.1)
    assert m.run_state == 0 and m.faults == 0
    assert fb(m, m.handle(proto.encode_enable(HOST, 1), 1.2)).run_state == 2
    m.latch(proto.FAULT_OVER_VOLTAGE)
    assert not m.calibrate(2.0)                                     # other faults: refused


def test_device_id_and_failed_read_replies():
    m = make(can_id=5)
    (reply,) = m.handle(proto.encode_get_id(HOST, 5), 0.0)
    assert proto.decode_device_id_reply(reply) == (5, m.mcu_id)
    assert len(m.mcu_id) == 8 and make(can_id=6).mcu_id != m.mcu_id
    (reply,) = m.handle(proto.encode_param_read(HOST, 5, 0x7010), 0.0)   # cur_kp: unmodelled
    assert proto.decode_param_reply(reply) == (5, 0x7010, None)
    (reply,) = m.handle(proto.encode_param_read(HOST, 5, 0x7005), 0.0)
    assert proto.decode_param_reply(reply) == (5, 0x7005, 0.0)


def test_invalid_param_write_is_ignored_and_reads_report_values():
    m = make()
    assert m.handle(proto.encode_param_write(HOST, 1, 0x700B, 1000.0), 0.0) == []
    assert m.params[0x700B] == RS02.t_max
    m.vbus = 30.0
    (reply,) = m.handle(proto.encode_param_read(HOST, 1, 0x701C), 0.0)
    assert proto.decode_param(reply) == (0x701C, 30.0)


def test_set_zero_makes_current_position_zero():
    m = make()
    m.position = 2.5
    r = fb(m, m.handle(proto.encode_set_zero(HOST, 1), 0.0))
    assert m.position == 0.0 and r.position == pytest.approx(0.0, abs=4e-4)


def test_sustained_torque_overheats_and_latches_over_temperature():
    m = make()
    m.handle(proto.encode_enable(HOST, 1), 0.0)
    m.heat_gain = 200.0
    m.load_torque = -RS02.t_max
    hold = proto.encode_motion(RS02, 1, 0.0, 0.0, 500.0, 5.0, 0.0)
    t, frames = 0.0, []
    while m.faults == 0 and t < 30.0:
        t += DT
        m.handle(hold, t)
        frames += m.step(DT, t)
    assert m.faults & proto.FAULT_OVER_TEMPERATURE
    assert m.temperature > OVERTEMP_C and m.run_state == 0
    assert [proto.decode_fault(f) for f in frames] == [proto.FAULT_OVER_TEMPERATURE]


def test_under_voltage_latches_and_stays_latched():
    m = make()
    m.handle(proto.encode_enable(HOST, 1), 0.0)
    m.vbus = 10.0
    m.step(DT, 0.0)
    assert m.faults == proto.FAULT_UNDER_VOLTAGE and m.run_state == 0
    m.vbus = 48.0
    m.step(DT, 0.0)
    assert m.faults == proto.FAULT_UNDER_VOLTAGE


def test_hung_motor_answers_nothing():
    m = make()
    m.hung = True
    assert m.handle(proto.encode_enable(HOST, 1), 0.0) == []
    assert m.run_state == 0


def test_can_timeout_stops_a_motor_that_hears_nothing():
    m = make()
    m.handle(proto.encode_param_write(HOST, 1, 0x7028, 2000), 0.0)   # 0.1 s
    m.handle(proto.encode_enable(HOST, 1), 0.0)
    m.step(DT, 0.05)
    assert m.run_state == 2
    m.step(DT, 0.2)
    assert m.run_state == 0
