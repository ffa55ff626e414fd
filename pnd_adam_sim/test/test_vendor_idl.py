# SPDX-License-Identifier: Apache-2.0
import struct

from pnd_adam_sim import vendor_idl as v


def test_type_names_and_final():
    for name in ('BatteryData', 'IMUState', 'MotorCmd', 'MotorState', 'LowCmd', 'LowState',
                 'HandCmd', 'HandState'):
        cls = getattr(v, name + '_')
        assert cls.__idl_typename__ == f'pnd_adam::msg::dds_::{name}_'
        assert cls.__idl_annotations__.get('extensibility') == 'final'


def test_plain_cdr_layout_of_motor_cmd_and_hand_cmd():
    # XCDR1 little endian header 00 01 00 00; uint8 then 3 padding bytes, 6 float32, uint32.
    data = v.MotorCmd_(mode=1, q=0.5, dq=1.0, tau=2.0, kp=3.0, kd=4.0, ki=5.0,
                       reserve=7).serialize()
    assert data[:4] == b'\x00\x01\x00\x00'
    assert data[4:] == struct.pack('<B3x6fI', 1, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 7)
    data = v.HandCmd_(position=list(range(12)), reserve=9).serialize()
    assert data[4:] == struct.pack('<12II', *range(12), 9)


def test_lowstate_layout():
    msg = v.LowState_(mode_pr=1, tick=42,
                      imu_state=v.IMUState_(quaternion=[1, 0, 0, 0], temperature=-3),
                      motor_state=[v.MotorState_(mode=1, q=0.25, state=5)],
                      wireless_remote=list(range(40)),
                      battery_data=v.BatteryData_(timestamp_ms=123, voltage=50.0, status='OK'),
                      reserve=11)
    d = msg.serialize()[4:]
    exp = struct.pack('<B3xI', 1, 42)
    exp += struct.pack('<4f3f3f3fh', 1, 0, 0, 0, *[0] * 9, -3)
    exp += b'\x00\x00'  # align the sequence length to 4
    exp += struct.pack('<I', 1) + struct.pack('<B3x4fII', 1, 0.25, 0, 0, 0, 5, 0)
    exp += struct.pack('<40h', *range(40))
    exp += struct.pack('<q4f', 123, 50.0, 0, 0, 0) + struct.pack('<I', 3) + b'OK\x00'
    exp += b'\x00' + struct.pack('<I', 11)
    assert d == exp
    back = v.LowState_.deserialize(msg.serialize())
    assert back == msg
