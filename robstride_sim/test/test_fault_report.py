# SPDX-License-Identifier: Apache-2.0
"""
The type-21 fault report as a host sees it on the bus, in both bus modes (no ROS).

'sim': the node's in-process SimBus, stepped by the test with its own clock.
'can': robstride_fake_motors' FakeMotorPeer on a python-can virtual bus, read by a plain
python-can host bus that sees every frame the motor sends. The peer's physics steps are gated
by the test (one permitted step = one motor cycle, on the test's clock), so "before the next
cycle" is exact and the report period does not depend on the machine's load.
"""
import itertools
import os
import threading
import time

import pytest

from robstride_sim import protocol as proto
from robstride_sim.bus import SimBus
from robstride_sim.canbus import from_message, open_python_can, to_message
from robstride_sim.fake_motors import FakeMotorPeer
from robstride_sim.models import MODELS
from robstride_sim.motor import FAULT_REPORT_PERIOD_S, SimMotor

HOST = 0xFD
MOTOR = 1
STEP_S = 0.002
WAIT_S = 5.0                  # generous: the peer thread on a loaded machine
_channels = itertools.count()


class SimRig:
    """SimMotor on the in-process SimBus; the test's clock drives the steps."""

    def __init__(self):
        self.motor = SimMotor(MOTOR, MODELS['RS02'])
        self.bus = SimBus([self.motor], host_id=HOST)
        self.now = 0.0
        self.seen = []                      # every frame the motor sent, in order

    def latch(self, bits):
        self.motor.latch(bits)

    def send(self, frame):
        """Deliver a host frame; return the motor's replies."""
        self.bus.send(frame, self.now)
        replies = self.bus.receive()
        self.seen += replies
        return replies

    def cycle(self, seconds=STEP_S):
        """Run the motor for `seconds` in 2 ms steps; return the frames it sent meanwhile."""
        out = []
        for _ in range(max(1, int(round(seconds / STEP_S)))):
            self.now += STEP_S
            self.bus.step(STEP_S, self.now)
            out += self.bus.receive()
        self.seen += out
        return out

    def close(self):
        pass


class CanRig:
    """FakeMotorPeer on a python-can virtual bus with gated steps; a host bus reads it all."""

    def __init__(self):
        channel = f'rs_fault_{os.getpid()}_{next(_channels)}'
        self.motor = SimMotor(MOTOR, MODELS['RS02'])
        self._permit = None                 # (dt, now) of the one step the peer may run
        self._steps = 0
        self._gate = threading.Condition()
        self.now = time.monotonic()
        real_step = self.motor.step

        def gated_step(dt, now, host_id=None):
            # Runs in the peer thread (holding peer.lock); a step without a permit is skipped.
            with self._gate:
                if self._permit is None:
                    return []
                (dt, now), self._permit = self._permit, None
            out = real_step(dt, now, host_id)
            with self._gate:
                self._steps += 1
                self._gate.notify_all()
            return out

        self.motor.step = gated_step
        self.peer = FakeMotorPeer([self.motor], lambda: open_python_can('virtual', channel),
                                  step_s=STEP_S).start()
        self.host = open_python_can('virtual', channel)
        self.seen = []

    def latch(self, bits):
        with self.peer.lock:
            self.motor.latch(bits)

    def _read_until(self, done):
        """Read host-bus frames until done(frame); return them all (done's frame last)."""
        out = []
        end = time.monotonic() + WAIT_S
        while time.monotonic() < end:
            frame = from_message(self.host.recv(timeout=0.05))
            if frame is None:
                continue
            out.append(frame)
            if done(frame):
                self.seen += out
                return out
        raise AssertionError(f'no answer from the fake-motor peer within {WAIT_S} s: {out}')

    def send(self, frame):
        """Send a host frame; return what the motor sent up to and including its answer."""
        self.host.send(to_message(frame))
        return self._read_until(lambda f: f.comm_type != proto.CommType.FAULT)

    def cycle(self, seconds=STEP_S):
        """Let the peer run one step of `seconds`; return the frames the motor sent."""
        self.now += seconds
        with self._gate:
            target = self._steps + 1
            self._permit = (seconds, self.now)
            if not self._gate.wait_for(lambda: self._steps >= target, timeout=WAIT_S):
                raise AssertionError('the fake-motor peer did not step')
        # The peer thread sends a step's frames before it reads the next request, so
        # everything that step sent comes before the answer to this device-id request.
        frames = self.send(proto.encode_get_id(HOST, MOTOR))
        return [f for f in frames if f.comm_type != proto.CommType.GET_ID]

    def close(self):
        self.host.shutdown()
        self.peer.close()


@pytest.fixture(params=('sim', 'can'))
def rig(request):
    r = SimRig() if request.param == 'sim' else CanRig()
    yield r
    r.close()


def fault_words(frames):
    return [proto.decode_fault(f) for f in frames if f.comm_type == proto.CommType.FAULT]


def test_fault_cleared_before_the_next_cycle_is_never_reported(rig):
    rig.cycle()
    rig.latch(proto.FAULT_ENCODER_UNCALIBRATED)
    (reply,) = rig.send(proto.encode_stop(HOST, MOTOR, clear_fault=True))
    assert proto.decode_feedback(rig.motor.model, reply).fault_flags == 0
    rig.cycle()
    rig.cycle(FAULT_REPORT_PERIOD_S + STEP_S)       # past a report period, too
    assert fault_words(rig.seen) == []
    # The motor still reports the next fault, with that fault's bits only.
    rig.latch(proto.FAULT_UNDER_VOLTAGE)
    assert fault_words(rig.cycle()) == [proto.FAULT_UNDER_VOLTAGE]
    assert 0 not in fault_words(rig.seen)


def test_a_standing_fault_is_reported_with_its_bits_while_it_lasts(rig):
    rig.latch(proto.FAULT_STALL_OVERLOAD)
    assert fault_words(rig.cycle()) == [proto.FAULT_STALL_OVERLOAD]    # at the next cycle
    assert fault_words(rig.cycle()) == []                              # not every cycle
    # Repeated while the fault stands, once per report period, with the same word.
    assert fault_words(rig.cycle(FAULT_REPORT_PERIOD_S + STEP_S)) == [proto.FAULT_STALL_OVERLOAD]
    rig.send(proto.encode_stop(HOST, MOTOR, clear_fault=True))
    rig.cycle(FAULT_REPORT_PERIOD_S + STEP_S)
    assert fault_words(rig.seen) == [proto.FAULT_STALL_OVERLOAD] * 2  # none after the clear


def test_two_faults_in_turn_each_report_the_bits_active_then(rig):
    rig.latch(proto.FAULT_OVER_VOLTAGE)
    assert fault_words(rig.cycle()) == [proto.FAULT_OVER_VOLTAGE]
    rig.latch(proto.FAULT_STALL_OVERLOAD)
    both = proto.FAULT_OVER_VOLTAGE | proto.FAULT_STALL_OVERLOAD
    assert fault_words(rig.cycle()) == [both]
    assert fault_words(rig.cycle(FAULT_REPORT_PERIOD_S + STEP_S)) == [both]
    assert fault_words(rig.seen) == [proto.FAULT_OVER_VOLTAGE, both, both]
