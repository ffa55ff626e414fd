# SPDX-License-Identifier: Apache-2.0
"""CAN frame layer and parameter table, without ROS."""
import math
import struct

from hypothesis import given, settings, strategies as st
import pytest

from robstride_sim import protocol as proto
from robstride_sim.models import get_model, MODELS, P_MAX
from robstride_sim.params import ParamError, PARAMS, parse_index, validate_write

RS02 = MODELS['RS02']
RS03 = MODELS['RS03']


def test_model_limits_match_spec():
    expected = {'RS00': (33, 14, 500, 5), 'RS01': (44, 17, 500, 5), 'RS02': (44, 17, 500, 5),
                'RS03': (20, 60, 5000, 100), 'RS04': (15, 120, 5000, 100),
                'RS05': (33, 17, 500, 5), 'RS06': (50, 36, 5000, 100)}
    got = {n: (m.v_max, m.t_max, m.kp_max, m.kd_max) for n, m in MODELS.items()}
    assert got == expected
    assert get_model(' rs03 ') is RS03
    with pytest.raises(ValueError, match='RS07'):
        get_model('RS07')


def test_identifier_layout_of_host_frames():
    f = proto.encode_enable(0xFD, 7)
    assert f.arb_id == (3 << 24) | (0xFD << 8) | 7
    f = proto.encode_stop(0xFD, 7, clear_fault=True)
    assert f.comm_type == proto.CommType.STOP and f.data[0] == 1 and f.dest == 7
    assert proto.encode_stop(0xFD, 7).data[0] == 0
    assert proto.encode_set_zero(0xFD, 7).data[0] == 1


def test_motion_frame_round_trip_and_saturation():
    f = proto.encode_motion(RS03, 5, 1.25, -3.0, 250.0, 2.5, -10.0)
    assert f.comm_type == proto.CommType.MOTION and f.dest == 5
    p, v, kp, kd, t = proto.decode_motion(RS03, f)
    assert p == pytest.approx(1.25, abs=2 * P_MAX / 65535)
    assert v == pytest.approx(-3.0, abs=2 * RS03.v_max / 65535)
    assert kp == pytest.approx(250.0, abs=RS03.kp_max / 65535)
    assert kd == pytest.approx(2.5, abs=RS03.kd_max / 65535)
    assert t == pytest.approx(-10.0, abs=2 * RS03.t_max / 65535)
    # Outside the model range the 16-bit field saturates (as on the bus).
    assert proto.decode_motion(RS02, proto.encode_motion(RS02, 1, 99, 99, 9999, 99, 99))[4] \
        == pytest.approx(RS02.t_max)


def test_feedback_round_trip_carries_mode_faults_and_ids():
    f = proto.encode_feedback(RS02, 0xFD, 9, 2, proto.FAULT_OVER_TEMPERATURE, -0.5, 1.5, 3.0,
                              41.3)
    assert f.dest == 0xFD and proto.feedback_motor_id(f) == 9
    assert (f.arb_id >> 22) & 0x3 == 2            # mode bits 23..22
    assert (f.arb_id >> 16) & 0x3F == 1 << 2      # over-temperature flag, bit 18
    fb = proto.decode_feedback(RS02, f)
    assert (fb.motor_id, fb.run_state) == (9, 2)
    assert fb.position == pytest.approx(-0.5, abs=4e-4)
    assert fb.velocity == pytest.approx(1.5, abs=2e-3)
    assert fb.torque == pytest.approx(3.0, abs=1e-3)
    assert fb.temperature == pytest.approx(41.3)
    assert proto.flags_to_fault_word(fb.fault_flags) == proto.FAULT_OVER_TEMPERATURE
    with pytest.raises(proto.ProtocolError):
        proto.decode_feedback(RS02, proto.encode_enable(0xFD, 1))


def test_fault_frame_and_param_frames():
    word = proto.FAULT_UNDER_VOLTAGE | proto.FAULT_PHASE_A_OVER_CURRENT
    f = proto.encode_fault(0xFD, 3, word)
    assert proto.decode_fault(f) == word and proto.feedback_motor_id(f) == 3
    w = proto.encode_param_write(0xFD, 3, 0x7016, 1.5)
    assert w.comm_type == proto.CommType.PARAM_WRITE
    assert struct.unpack_from('<H', w.data, 0)[0] == 0x7016     # little-endian index
    assert proto.decode_param(w) == (0x7016, 1.5)
    assert proto.decode_param(proto.encode_param_write(0xFD, 3, 0x7005, 2)) == (0x7005, 2.0)
    assert proto.decode_param(proto.encode_param_write(0xFD, 3, 0x7028, 20000)) \
        == (0x7028, 20000.0)


def test_parse_index_hex_and_decimal():
    assert parse_index('0x7016') == 0x7016
    assert parse_index('0X700b') == 0x700B
    assert parse_index('28694') == 0x7016
    for bad in ('', 'loc_ref', '0x', '-1', '0x10000', '1.5', ' 0x7016', '28_694',
                '0x70_16', '+28694', '0x7016\0', '\u0662\u0668\u0666\u0669\u0664',
                '28694 ', '0x7016\n', '028694', 'KP', b'0x7016', 99999):
        with pytest.raises(ParamError):
            parse_index(bad)


def test_validate_write_rejects_unknown_read_only_and_out_of_range():
    assert validate_write(RS02, 0x7016, 1.5).name == 'loc_ref'
    assert validate_write(RS02, 0x700B, 17.0).name == 'limit_torque'
    with pytest.raises(ParamError, match='unknown'):
        validate_write(RS02, 0x7099, 1.0)
    for ro in (0x7019, 0x701B, 0x701C):
        with pytest.raises(ParamError, match='read-only'):
            validate_write(RS02, ro, 0.0)
    with pytest.raises(ParamError, match='outside'):
        validate_write(RS02, 0x700B, 18.0)           # RS02 torque limit is 17
    validate_write(RS03, 0x700B, 60.0)               # RS03 allows 60
    with pytest.raises(ParamError, match='outside'):
        validate_write(RS02, 0x7005, 6)
    with pytest.raises(ParamError, match='integer'):
        validate_write(RS02, 0x7005, 1.5)
    with pytest.raises(ParamError, match='finite'):
        validate_write(RS02, 0x7016, math.nan)


def test_required_parameters_present():
    names = {p.name for p in PARAMS.values()}
    assert {'run_mode', 'iq_ref', 'spd_ref', 'limit_torque', 'loc_ref', 'limit_spd',
            'limit_cur', 'mechPos', 'mechVel', 'VBUS', 'loc_kp', 'spd_kp', 'spd_ki',
            'canTimeout'} <= names


# --- the written-out codecs against float_to_uint / uint_to_float --------------------------

def _reference_motion(model, motor_id, position, velocity, kp, kd, torque):
    """encode_motion as the scaling functions define it (the codec writes them out)."""
    t = proto.float_to_uint(torque, -model.t_max, model.t_max)
    data = struct.pack('>HHHH', proto.float_to_uint(position, -P_MAX, P_MAX),
                       proto.float_to_uint(velocity, -model.v_max, model.v_max),
                       proto.float_to_uint(kp, 0.0, model.kp_max),
                       proto.float_to_uint(kd, 0.0, model.kd_max))
    return proto.CanFrame((1 << 24) | ((t & 0xFFFF) << 8) | (motor_id & 0xFF), data)


def _reference_feedback(model, host_id, motor_id, run_state, fault_word, position, velocity,
                        torque, temperature):
    area2 = (((run_state & 0x3) << 14) | (proto.fault_word_to_flags(fault_word) << 8)
             | motor_id)
    temp = max(-3276.8, min(3276.7, temperature))
    data = struct.pack('>HHHh', proto.float_to_uint(position, -P_MAX, P_MAX),
                       proto.float_to_uint(velocity, -model.v_max, model.v_max),
                       proto.float_to_uint(torque, -model.t_max, model.t_max),
                       int(round(temp * 10.0)))
    return proto.CanFrame((2 << 24) | ((area2 & 0xFFFF) << 8) | (host_id & 0xFF), data)


def _unscaled(u, lo, hi):
    return proto.uint_to_float(u, lo, hi)


_models = st.sampled_from(sorted(MODELS))
# finite values far inside, at and beyond every field's range, both zeros, and integers
_values = st.one_of(st.floats(allow_nan=False, allow_infinity=True, width=64),
                    st.floats(min_value=-6000.0, max_value=6000.0),
                    st.sampled_from([0.0, -0.0, P_MAX, -P_MAX, 5000.0, 100.0, 0.5]),
                    st.integers(min_value=-6000, max_value=6000))


@settings(max_examples=400, deadline=None)
@given(_models, st.integers(0, 255), _values, _values, _values, _values, _values)
def test_encode_motion_is_the_scaling_term_for_term(name, motor_id, p, v, kp, kd, t):
    model = MODELS[name]
    assert proto.encode_motion(model, motor_id, p, v, kp, kd, t) == \
        _reference_motion(model, motor_id, p, v, kp, kd, t)


@settings(max_examples=400, deadline=None)
@given(_models, st.integers(0, 255), st.integers(0, 127), st.integers(0, 3),
       st.integers(0, 0x1FFFF), _values, _values, _values,
       st.floats(min_value=-4000.0, max_value=4000.0))
def test_encode_feedback_is_the_scaling_term_for_term(name, host_id, motor_id, run_state,
                                                      fault_word, p, v, t, temperature):
    model = MODELS[name]
    args = (model, host_id, motor_id, run_state, fault_word, p, v, t, temperature)
    assert proto.encode_feedback(*args) == _reference_feedback(*args)


@settings(max_examples=400, deadline=None)
@given(_models, st.integers(0, 0xFFFF), st.binary(min_size=8, max_size=8))
def test_decoders_are_the_scaling_term_for_term(name, area2, data):
    model = MODELS[name]
    p, v, a, b = struct.unpack('>HHHH', data)
    motion = proto.CanFrame((1 << 24) | (area2 << 8) | 5, data)
    assert proto.decode_motion(model, motion) == (
        _unscaled(p, -P_MAX, P_MAX), _unscaled(v, -model.v_max, model.v_max),
        _unscaled(a, 0.0, model.kp_max), _unscaled(b, 0.0, model.kd_max),
        _unscaled(area2, -model.t_max, model.t_max))
    temp = struct.unpack('>h', data[6:])[0]
    feedback = proto.CanFrame((2 << 24) | (area2 << 8) | 0xFD, data)
    assert proto.decode_feedback_fields(model, feedback) == (
        area2 & 0xFF, (area2 >> 14) & 0x3, (area2 >> 8) & 0x3F,
        _unscaled(p, -P_MAX, P_MAX), _unscaled(v, -model.v_max, model.v_max),
        _unscaled(a, -model.t_max, model.t_max), temp / 10.0)


def test_codecs_refuse_nan_as_the_scaling_does():
    with pytest.raises(ValueError):
        proto.float_to_uint(math.nan, 0.0, 1.0)
    with pytest.raises(ValueError):
        proto.encode_motion(RS03, 1, math.nan, 0.0, 0.0, 0.0, 0.0)
    with pytest.raises(ValueError):
        proto.encode_feedback(RS03, 0xFD, 1, 2, 0, 0.0, math.nan, 0.0, 25.0)
