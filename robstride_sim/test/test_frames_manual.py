# SPDX-License-Identifier: Apache-2.0
"""
Frames of the RobStride private protocol, checked against values worked out by hand.

Every expected identifier and data byte below is written out from the manual's layout (29-bit
identifier: bits 28..24 communication type, 23..8 data area 2, 7..0 destination; 16-bit
scaled fields high byte first; parameter index and value little-endian), not computed by
our encoder. Host id 0xFD throughout.
"""
import math

import pytest

from robstride_sim import protocol as proto
from robstride_sim.models import MODELS
from robstride_sim.motor import SimMotor

HOST = 0xFD


def frame(arb_id, *data):
    return proto.CanFrame(arb_id, bytes(data))


def test_enable():
    # type 3, host 0xFD in bits 15..8, motor 0x7F: 0x03 << 24 | 0xFD << 8 | 0x7F
    assert proto.encode_enable(HOST, 0x7F) == frame(0x0300FD7F, 0, 0, 0, 0, 0, 0, 0, 0)


def test_stop_with_and_without_clear_fault():
    # type 4 to motor 1; data[0] = 1 asks the motor to clear its latched faults
    assert proto.encode_stop(HOST, 1, clear_fault=True) == frame(0x0400FD01,
                                                                 1, 0, 0, 0, 0, 0, 0, 0)
    assert proto.encode_stop(HOST, 1) == frame(0x0400FD01, 0, 0, 0, 0, 0, 0, 0, 0)


def test_set_zero():
    # type 6 to motor 2, data[0] = 1
    assert proto.encode_set_zero(HOST, 2) == frame(0x0600FD02, 1, 0, 0, 0, 0, 0, 0, 0)


def test_motion_frame_rs03():
    # RS03: torque +-60 N*m, velocity +-20 rad/s, kp 0..5000, kd 0..100, position +-4*pi.
    # torque 12:   (12 + 60) / 120 * 65535 = 39321 = 0x9999 -> identifier bits 23..8
    # position -4*pi/3: (8*pi/3) / (8*pi) * 65535 = 21845 = 0x5555
    # velocity -4: (16 / 40) * 65535 = 26214 = 0x6666
    # kp 1000: 1000 / 5000 * 65535 = 13107 = 0x3333
    # kd 60: 60 / 100 * 65535 = 39321 = 0x9999
    got = proto.encode_motion(MODELS['RS03'], 0x05, -4 * math.pi / 3, -4.0, 1000.0, 60.0,
                              12.0)
    assert got == frame(0x01999905, 0x55, 0x55, 0x66, 0x66, 0x33, 0x33, 0x99, 0x99)


def test_motion_frame_decoded_by_the_motor():
    m = SimMotor(5, MODELS['RS03'])
    m.handle(frame(0x01999905, 0x55, 0x55, 0x66, 0x66, 0x33, 0x33, 0x99, 0x99), 0.0)
    position, velocity, kp, kd, torque = m.motion
    assert position == pytest.approx(-4 * math.pi / 3, abs=1e-9)
    assert velocity == pytest.approx(-4.0) and kp == pytest.approx(1000.0)
    assert kd == pytest.approx(60.0) and torque == pytest.approx(12.0)


# Model ranges from the manual / INTERFACES.md: velocity rad/s, torque N*m.
RANGES = {'RS00': (33.0, 14.0), 'RS01': (44.0, 17.0), 'RS02': (44.0, 17.0),
          'RS03': (20.0, 60.0), 'RS04': (15.0, 120.0), 'RS05': (33.0, 17.0),
          'RS06': (50.0, 36.0)}


@pytest.mark.parametrize('model', sorted(RANGES))
def test_feedback_decoding_per_model(model):
    v_max, t_max = RANGES[model]
    # type 2; bits 23..22 mode 2 (motor), bits 21..16 flags = 000001 (under-voltage),
    # bits 15..8 motor 0x05, bits 7..0 host 0xFD:
    # 0x02 << 24 | 2 << 22 | 1 << 16 | 0x05 << 8 | 0xFD = 0x028105FD
    # position 0xFFFF -> +4*pi, velocity 0x0000 -> -v_max, torque 0xFFFF -> +t_max,
    # temperature 0x00FA = 250 -> 25.0 degC (temperature * 10)
    fb = proto.decode_feedback(MODELS[model], frame(0x028105FD, 0xFF, 0xFF, 0x00, 0x00,
                                                    0xFF, 0xFF, 0x00, 0xFA))
    assert (fb.motor_id, fb.run_state, fb.fault_flags) == (5, 2, 1)
    assert fb.position == pytest.approx(4 * math.pi)
    assert fb.velocity == pytest.approx(-v_max) and fb.torque == pytest.approx(t_max)
    assert fb.temperature == pytest.approx(25.0)
    # 0x8000 is one step above the middle: + range / 65535
    fb = proto.decode_feedback(MODELS[model], frame(0x020005FD, 0x80, 0x00, 0x80, 0x00,
                                                    0x00, 0x00, 0x01, 0x2C))
    assert (fb.run_state, fb.fault_flags) == (0, 0)
    assert fb.position == pytest.approx(4 * math.pi / 65535)
    assert fb.velocity == pytest.approx(v_max / 65535)
    assert fb.torque == pytest.approx(-t_max) and fb.temperature == pytest.approx(30.0)


def test_parameter_read_request_and_replies():
    # type 17 request for run_mode 0x7005 to motor 1: index little-endian in bytes 0..1
    assert proto.encode_param_read(HOST, 1, 0x7005) == frame(
        0x1100FD01, 0x05, 0x70, 0, 0, 0, 0, 0, 0)
    m = SimMotor(1, MODELS['RS02'])
    # success (bits 23..16 = 00), motor 1 in bits 15..8, host in 7..0; u8 value 0 in byte 4
    (reply,) = m.handle(frame(0x1100FD01, 0x05, 0x70, 0, 0, 0, 0, 0, 0), 0.0)
    assert reply == frame(0x110001FD, 0x05, 0x70, 0, 0, 0, 0, 0, 0)
    # loc_ref 0x7016 after writing 1.5: float32 1.5 = 0x3FC00000, little-endian 00 00 C0 3F
    m.handle(frame(0x1200FD01, 0x16, 0x70, 0, 0, 0x00, 0x00, 0xC0, 0x3F), 0.0)
    (reply,) = m.handle(frame(0x1100FD01, 0x16, 0x70, 0, 0, 0, 0, 0, 0), 0.0)
    assert reply == frame(0x110001FD, 0x16, 0x70, 0, 0, 0x00, 0x00, 0xC0, 0x3F)
    # unknown to the model (0x7010 cur_kp): failure status 01 in bits 23..16
    (reply,) = m.handle(frame(0x1100FD01, 0x10, 0x70, 0, 0, 0, 0, 0, 0), 0.0)
    assert reply == frame(0x110101FD, 0x10, 0x70, 0, 0, 0, 0, 0, 0)
    assert proto.decode_param_reply(reply) == (1, 0x7010, None)


def test_parameter_write_and_its_reply():
    # type 18, loc_ref 0x7016 = 1.5 to motor 1
    assert proto.encode_param_write(HOST, 1, 0x7016, 1.5) == frame(
        0x1200FD01, 0x16, 0x70, 0, 0, 0x00, 0x00, 0xC0, 0x3F)
    # canTimeout 0x7028 (u32) = 20000 = 0x00004E20 little-endian
    assert proto.encode_param_write(HOST, 1, 0x7028, 20000) == frame(
        0x1200FD01, 0x28, 0x70, 0, 0, 0x20, 0x4E, 0, 0)
    m = SimMotor(1, MODELS['RS02'])
    (reply,) = m.handle(frame(0x1200FD01, 0x16, 0x70, 0, 0, 0x00, 0x00, 0xC0, 0x3F), 0.0)
    assert reply.comm_type == 2 and reply.arb_id & 0xFFFF == 0x01FD    # feedback to host
    assert m.params[0x7016] == 1.5


def test_fault_frame():
    # type 21 from motor 1 to host 0xFD: 0x15 << 24 | 0x01 << 8 | 0xFD; fault word bit 14
    # (stall/overload) + bit 2 (under-voltage) = 0x4004 little-endian, warning word 0
    assert proto.encode_fault(HOST, 1, 0x4004) == frame(0x150001FD,
                                                        0x04, 0x40, 0, 0, 0, 0, 0, 0)
    assert proto.decode_fault(frame(0x150001FD, 0x00, 0x40, 0, 0, 0, 0, 0, 0)) == 1 << 14
    m = SimMotor(1, MODELS['RS02'])
    m.handle(frame(0x0300FD01, 0, 0, 0, 0, 0, 0, 0, 0), 0.0)            # enable
    m.latch(1 << 14)
    assert m.step(0.002, 0.002) == [frame(0x150001FD, 0x00, 0x40, 0, 0, 0, 0, 0, 0)]


def test_device_id_request_and_reply():
    # type 0 to motor 0x7F: 0x00 << 24 | 0xFD << 8 | 0x7F
    assert proto.encode_get_id(HOST, 0x7F) == frame(0x0000FD7F, 0, 0, 0, 0, 0, 0, 0, 0)
    m = SimMotor(0x7F, MODELS['RS04'], mcu_id=bytes([1, 2, 3, 4, 5, 6, 7, 8]))
    # reply: motor id 0x7F in bits 15..8, 0xFE in bits 7..0, 64-bit MCU id as data
    (reply,) = m.handle(frame(0x0000FD7F, 0, 0, 0, 0, 0, 0, 0, 0), 0.0)
    assert reply == frame(0x00007FFE, 1, 2, 3, 4, 5, 6, 7, 8)
    assert proto.decode_device_id_reply(reply) == (0x7F, bytes([1, 2, 3, 4, 5, 6, 7, 8]))


def test_set_zero_on_the_motor_and_stop_clears_faults():
    m = SimMotor(2, MODELS['RS02'])
    m.position = 0.75
    m.handle(frame(0x0600FD02, 1, 0, 0, 0, 0, 0, 0, 0), 0.0)
    assert m.position == 0.0
    m.latch(1 << 7)
    m.handle(frame(0x0400FD02, 0, 0, 0, 0, 0, 0, 0, 0), 0.0)             # plain stop
    assert m.faults == 1 << 7
    m.handle(frame(0x0400FD02, 1, 0, 0, 0, 0, 0, 0, 0), 0.0)             # clear fault
    assert m.faults == 0


def test_malformed_frames_raise_protocol_error():
    with pytest.raises(proto.ProtocolError):
        proto.decode_feedback(MODELS['RS02'], frame(0x028105FD, 1, 2, 3))     # short
    with pytest.raises(proto.ProtocolError):
        proto.decode_fault(frame(0x028105FD, 0, 0, 0, 0, 0, 0, 0, 0))         # wrong type
    with pytest.raises(proto.ProtocolError):
        proto.decode_device_id_reply(frame(0x00007FFD, 0, 0, 0, 0, 0, 0, 0, 0))  # not 0xFE
