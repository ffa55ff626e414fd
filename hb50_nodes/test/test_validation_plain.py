# SPDX-License-Identifier: Apache-2.0
"""validate()'s plain-float pre-check gives the same result as the numpy checks alone."""

from array import array

from conftest import command
from hb50_nodes.layout import JOINT_NAMES, NUM_JOINTS
from hb50_nodes.validation import GainLimits, InvalidCommand, validate
from hypothesis import given, settings, strategies as st
import numpy as np

# Values around every bound, NaN/inf and huge ones; float32-rounded as on the wire.
EDGES = [0.0, -0.0, 1e-7, -1e-7, 0.5, -1.0, 1.0, -2.0, 3.0, -3.0, 10.0, 10.5, 20.0, -20.0,
         20.000002, 24.0, -24.0, 24.5, 500.0, 500.1, 1e30, float('nan'), float('inf'),
         float('-inf')]
VALUE = st.one_of(st.sampled_from(EDGES), st.floats(-30.0, 30.0, width=32))
ARRAY = st.lists(VALUE, min_size=NUM_JOINTS, max_size=NUM_JOINTS)


def outcome(msg, limits, plain):
    try:
        cmd = validate(msg, JOINT_NAMES, limits, plain=plain)
    except InvalidCommand as exc:
        return 'rejected', str(exc)
    return 'valid', cmd.source, tuple(np.concatenate(
        [cmd.kp, cmd.kd, cmd.t_pos, cmd.t_vel, cmd.t_trq]).tolist()), tuple(cmd.brake.tolist())


@settings(max_examples=200, deadline=None, derandomize=True)
@given(kp=ARRAY,
       ki=st.lists(st.sampled_from([0.0, 0.0, 1.0, float('nan')]), min_size=NUM_JOINTS,
                   max_size=NUM_JOINTS),
       kd=ARRAY, t_pos=ARRAY, t_vel=ARRAY, t_trq=ARRAY,
       brake=st.lists(st.booleans(), min_size=NUM_JOINTS, max_size=NUM_JOINTS),
       as_array=st.booleans(), inf_limit=st.booleans())
def test_plain_precheck_agrees_with_numpy_checks(kp, ki, kd, t_pos, t_vel, t_trq, brake,
                                                 as_array, inf_limit):
    limits = GainLimits(kp_max=float('inf')) if inf_limit else GainLimits()
    wrap = (lambda v: array('f', v)) if as_array else list   # decoded from CDR, or a list
    msg = command(kp=wrap(kp), ki=wrap(ki), kd=wrap(kd), t_pos=wrap(t_pos), t_vel=wrap(t_vel),
                  t_trq=wrap(t_trq), brake=brake)
    assert outcome(msg, limits, True) == outcome(msg, limits, False)


def test_a_mostly_valid_stand_command_takes_the_plain_path_and_stays_exact():
    pose = [0.0, 0.84, -1.68] * 4
    msg = command(t_pos=array('f', pose), kp=array('f', [60.0] * NUM_JOINTS))
    assert outcome(msg, GainLimits(), True) == outcome(msg, GainLimits(), False)
    assert outcome(msg, GainLimits(), True)[0] == 'valid'
