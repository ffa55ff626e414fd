# SPDX-License-Identifier: Apache-2.0
"""
The simulator's pre-serialized LowState_/HandState_ against both reference serializers.

For each type: equal, byte for byte and padding included, to what DataWriter.write sends
for the same sample (cyclonedds' serializer, padded to 4); equal to
rclpy.serialization.serialize_message of the ROS `pnd_adam` message at every offset but the
alignment padding (Fast DDS leaves it uninitialised; ours is zero); and decoded back by both
to the same values (round trip). Model states (simple and MuJoCo engines, commanded, timed
out, low battery) and hypothesis values (derandomized).
"""
from hypothesis import given, settings, strategies as st
from pnd_adam.msg import BatteryData, HandState, IMUState, LowState, MotorState
from pnd_adam_description.joints import NUM_JOINTS
from pnd_adam_sim import vendor_idl as v
from pnd_adam_sim.model import AdamModel, ModelConfig
from pnd_adam_sim.simulator import handstate_from_model, lowstate_from_model
from pnd_adam_sim.state_cdr import (handstate_layout, lowstate_layout, MOTOR_FIELDS,
                                    StateEncoder)
import pytest
from ros_wire.testing import assert_same_wire

SETTINGS = settings(max_examples=100, derandomize=True, deadline=None, database=None)
F32_TOP = 3.3999999521443642e+38     # the float32 nearest to 3.4e38
# float32 values (within rclpy's field check, which stops just short of FLT_MAX), the
# infinities and a quiet NaN (a signalling NaN's payload changes in the float32 -> float64
# conversion of any reader, so it could not round-trip anywhere).
F32 = st.one_of(st.floats(width=32, min_value=-F32_TOP, max_value=F32_TOP),
                st.sampled_from([float('inf'), float('-inf'), float('nan')]))
U32 = st.integers(0, 2 ** 32 - 1)
I16 = st.integers(-2 ** 15, 2 ** 15 - 1)
U8 = st.integers(0, 255)


def writer_bytes(sample):
    """Return what DataWriter.write hands to Cyclone for `sample` (XCDR1, native form)."""
    ser = sample.serialize(use_version_2=None)
    return ser.ljust((len(ser) + 3) & ~3, b'\0')


def flat_lowstate(s):
    """Return the values of a LowState_ in the order lowstate_layout packs them."""
    imu, bat = s.imu_state, s.battery_data
    values = [s.mode_pr, s.tick, *imu.quaternion, *imu.gyroscope, *imu.accelerometer,
              *imu.ypr, imu.temperature]
    for m in s.motor_state:
        values += (m.mode, m.q, m.dq, m.ddq, m.tau_est, m.state, m.reserve)
    values += s.wireless_remote
    values += (bat.timestamp_ms, bat.voltage, bat.current, bat.power, bat.wh_accumulated,
               s.reserve)
    return values


def ros_lowstate(s):
    """Return the ROS pnd_adam/LowState with the values of a LowState_."""
    imu, bat = s.imu_state, s.battery_data
    return LowState(
        mode_pr=s.mode_pr, tick=s.tick,
        imu_state=IMUState(quaternion=imu.quaternion, gyroscope=imu.gyroscope,
                           accelerometer=imu.accelerometer, ypr=imu.ypr,
                           temperature=imu.temperature),
        motor_state=[MotorState(mode=m.mode, q=m.q, dq=m.dq, ddq=m.ddq, tau_est=m.tau_est,
                                state=m.state, reserve=m.reserve) for m in s.motor_state],
        wireless_remote=s.wireless_remote,
        battery_data=BatteryData(timestamp_ms=bat.timestamp_ms, voltage=bat.voltage,
                                 current=bat.current, power=bat.power,
                                 wh_accumulated=bat.wh_accumulated, status=bat.status),
        reserve=s.reserve)


def check_lowstate(sample, ours, layout):
    assert ours == writer_bytes(sample)
    assert writer_bytes(v.LowState_.deserialize(ours)) == ours      # round trip (NaN too)
    back = assert_same_wire(ours, layout.padding, ros_lowstate(sample), layout.size)
    assert back.tick == sample.tick and back.battery_data.status == sample.battery_data.status
    assert len(back.motor_state) == len(sample.motor_state)


def lowcmd(q=0.1, kp=50.0, kd=2.0, tau=0.5, mode=1):
    return v.LowCmd_(mode_pr=1, motor_cmd=[
        v.MotorCmd_(mode=mode, q=q if i != 0 else 0.0, dq=0.0, tau=tau, kp=kp, kd=kd)
        for i in range(NUM_JOINTS)])


def model_states(engine):
    """Yield an AdamModel at a few interesting moments, with a fixed wall clock."""
    cfg = ModelConfig(physics_engine=engine, command_timeout=0.02, imu_ypr=(0.1, -0.05, 0.2),
                      imu_gyro_bias=(0.01, 0.0, -0.02), imu_temperature=-4,
                      wireless_remote=tuple(range(-20, 20)))
    model = AdamModel(cfg, clock=lambda: 1_700_000_000.123)
    yield model                                   # start: damping until a command
    model.apply_lowcmd(lowcmd())
    model.apply_handcmd(v.HandCmd_(position=[0, 250, 500, 750, 1000, 1] * 2))
    for _ in range(5):
        model.step(0.002)
    yield model                                   # commanded, moving
    for _ in range(20):
        model.step(0.002)
    yield model                                   # timed out: safe damping, mode 0
    model.wh_accumulated = model.cfg.battery_capacity_wh * 0.8
    model.step(0.002)
    yield model                                   # battery LOW
    model.wh_accumulated = model.cfg.battery_capacity_wh * 0.89
    model.step(0.002)
    yield model                                   # battery CRITICAL


@pytest.mark.parametrize('engine', ['simple', 'mujoco'])
def test_model_states_encode_as_the_writer_would(engine):
    enc = StateEncoder()
    statuses = set()
    for model in model_states(engine):
        sample = lowstate_from_model(model)
        statuses.add(sample.battery_data.status)
        check_lowstate(sample, enc.lowstate(model), enc.lowstate_layout(model.battery_status()))
        hand = handstate_from_model(model)
        ours = enc.handstate(model)
        assert ours == writer_bytes(hand)
        ros_hand = HandState(position=hand.position, reserve=hand.reserve)
        back = assert_same_wire(ours, enc.hand_layout.padding, ros_hand, enc.hand_layout.size)
        assert list(back.position) == hand.position
    assert statuses == {'OK', 'LOW', 'CRITICAL'}


motor_states = st.builds(v.MotorState_, mode=U8, q=F32, dq=F32, ddq=F32, tau_est=F32,
                         state=U32, reserve=U32)


@SETTINGS
@given(mode_pr=U8, tick=U32, floats=st.lists(F32, min_size=17, max_size=17), temp=I16,
       n=st.integers(0, 25), data=st.data(),
       remote=st.lists(I16, min_size=40, max_size=40),
       stamp=st.integers(-2 ** 63, 2 ** 63 - 1), status=st.text(max_size=20), reserve=U32)
def test_lowstate_layout_matches_both_serializers(mode_pr, tick, floats, temp, n, data, remote,
                                                  stamp, status, reserve):
    status = status.replace('\x00', '')           # both serializers differ only past a NUL
    sample = v.LowState_(
        mode_pr=mode_pr, tick=tick,
        imu_state=v.IMUState_(quaternion=floats[0:4], gyroscope=floats[4:7],
                              accelerometer=floats[7:10], ypr=floats[10:13],
                              temperature=temp),
        motor_state=data.draw(st.lists(motor_states, min_size=n, max_size=n)),
        wireless_remote=remote,
        battery_data=v.BatteryData_(timestamp_ms=stamp, voltage=floats[13],
                                    current=floats[14], power=floats[15],
                                    wh_accumulated=floats[16], status=status),
        reserve=reserve)
    layout = lowstate_layout(status, n)
    values = flat_lowstate(sample)
    assert len(values) == 2 + 13 + 1 + MOTOR_FIELDS * n + 40 + 5 + 1
    check_lowstate(sample, layout.pack(*values), layout)


@SETTINGS
@given(position=st.lists(U32, min_size=12, max_size=12), reserve=U32)
def test_handstate_layout_matches_both_serializers(position, reserve):
    sample = v.HandState_(position=position, reserve=reserve)
    layout = handstate_layout()
    ours = layout.pack(*position, reserve)
    assert ours == writer_bytes(sample)
    assert v.HandState_.deserialize(ours) == sample
    back = assert_same_wire(ours, layout.padding, HandState(position=position, reserve=reserve),
                            layout.size)
    assert list(back.position) == position and back.reserve == reserve
