# SPDX-License-Identifier: Apache-2.0
"""Command intake without DDS: size check before decoding, rate-limited rejection logs."""

from node_runtime.bounded_text import cut_marker
from pnd_adam_description.joints import NUM_JOINTS
from pnd_adam_sim.intake import cap, CommandIntake, MAX_REASON_CHARS, RejectionLog
from pnd_adam_sim.model import AdamModel
from pnd_adam_sim.vendor_idl import LowCmd_, MotorCmd_
import pytest


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class Lines:
    def __init__(self):
        self.lines = []

    def warning(self, fmt, *args):
        self.lines.append(fmt % args)


def valid_lowcmd(q=0.1):
    return LowCmd_(mode_pr=0, motor_cmd=[MotorCmd_(mode=1, q=q, kp=10.0)
                                         for _ in range(NUM_JOINTS)])


def intake_for(model):
    return CommandIntake(LowCmd_, valid_lowcmd(), model.apply_lowcmd, 'lowcmd')


def test_oversized_sample_is_rejected_without_being_decoded(monkeypatch):
    model = AdamModel()
    intake = intake_for(model)
    big = LowCmd_(mode_pr=0, motor_cmd=[MotorCmd_()] * 2000).serialize()

    def no_decoding(*args, **kwargs):
        raise AssertionError('an oversized sample was decoded')
    monkeypatch.setattr(LowCmd_, 'deserialize', no_decoding)
    intake.handle(big)
    assert intake.rejections.by_kind == {'size': 1}
    assert model.lowcmd_applied == 0


def test_valid_and_invalid_samples_of_ordinary_size():
    model = AdamModel()
    intake = intake_for(model)
    intake.handle(valid_lowcmd().serialize())
    assert model.lowcmd_applied == 1
    wrong_count = LowCmd_(mode_pr=0, motor_cmd=[MotorCmd_()] * (NUM_JOINTS + 3))
    intake.handle(wrong_count.serialize())  # small enough to decode, then rejected whole
    intake.handle(b'\x00\x01\x00\x00\x00')  # truncated: undecodable
    intake.handle(valid_lowcmd(q=9.0).serialize())
    assert model.lowcmd_applied == 1
    assert intake.rejections.by_kind == {
        'motor_cmd length': 1, 'decode': 1, 'motor_cmd[].q range': 1}
    assert abs(model.q_des[0] - 0.1) < 1e-6


def test_rejections_logged_once_per_kind_and_interval():
    clock, out = Clock(), Lines()
    log = RejectionLog('lowcmd', clock=clock, interval=1.0, log=out)
    for i in range(1000):  # every reason text differs, the kind does not
        clock.now = i * 0.001
        log(f'motor_cmd[3] (neckYaw).q={i} outside [-1.2, 1.2]', 'motor_cmd[].q range')
    log('mode_pr=7 is not 0 (serial) or 1 (parallel)', 'mode_pr')
    assert len(out.lines) == 2 and log.count == 1001
    clock.now = 1.5
    log('motor_cmd[3] (neckYaw).q=5 outside [-1.2, 1.2]', 'motor_cmd[].q range')
    assert len(out.lines) == 3
    assert '(999 similar suppressed)' in out.lines[-1]
    assert '[1002 rejected so far' in out.lines[-1]


def test_reasons_are_capped():
    assert cap('x' * 10) == 'x' * 10
    long = cap('y' * 100_000)
    assert len(long) == MAX_REASON_CHARS and long.endswith(cut_marker(100_000))
    out = Lines()
    RejectionLog('handcmd', log=out)('z' * 5000, 'kind')
    assert len(out.lines[0]) < MAX_REASON_CHARS + 100


@pytest.mark.parametrize('what', ['lowcmd', 'handcmd'])
def test_log_line_names_the_topic(what):
    out = Lines()
    RejectionLog(what, log=out)('reason', 'kind')
    assert out.lines == [f'rejected {what} (not applied): reason [1 rejected so far]']
