# SPDX-License-Identifier: Apache-2.0
"""
The hardware interface over python-can's virtual bus with the simulated motors as a peer.

No ROS: RobstrideHardware + CanTransport + FakeMotorPeer in this process, cycled in real time.
Fault paths: the adapter disappears (the bus raises), a motor stops answering, garbage on the
bus; each gives the documented comm_state / staleness, never an exception, and recovers.
"""
import itertools
import os
import time

import can
import pytest

from robstride_sim import protocol as proto
from robstride_sim.bus import BUS_NOT_OPEN, BUS_OK, BusError
from robstride_sim.canbus import CanTransport, open_python_can, wait_until
from robstride_sim.cli import build_parser, scan
from robstride_sim.fake_motors import FakeMotorPeer, parse_motors
from robstride_sim.hardware import (COMM_STATE_BUS_NOT_OPEN, COMM_STATE_OK,
                                    COMM_STATE_SEND_FAIL, JointConfig, RobstrideHardware)
from robstride_sim.models import MODELS
from robstride_sim.motor import SimMotor

_channels = itertools.count()
CYCLE_S = 0.004


def new_channel():
    return f'rs_unit_{os.getpid()}_{next(_channels)}'


class Adapter:
    """A virtual-bus adapter that can be unplugged: while `gone`, open/recv/send raise."""

    def __init__(self, channel):
        self.channel = channel
        self.gone = False
        self.send_fails = False      # TX broken only (e.g. bus-off, full TX queue)
        self.opens = 0

    def connect(self):
        if self.gone:
            raise can.CanInitializationError('No such device')
        self.opens += 1
        return _Plug(self, open_python_can('virtual', self.channel))


class _Plug:
    def __init__(self, adapter, bus):
        self._adapter, self._bus = adapter, bus

    def _check(self):
        if self._adapter.gone:
            raise can.CanOperationError('Network is down')

    def recv(self, timeout=None):
        self._check()
        msg = self._bus.recv(timeout=min(timeout or 0.05, 0.05))
        self._check()
        return msg

    def send(self, msg, timeout=None):
        self._check()
        if self._adapter.send_fails:
            raise can.CanOperationError('Transmit buffer full')
        self._bus.send(msg, timeout=timeout)

    def shutdown(self):
        self._bus.shutdown()


class Rig:
    """Two joints on a virtual bus: hardware interface, transport and a fake-motor peer."""

    def __init__(self, timeout=0.5):
        self.channel = new_channel()
        self.adapter = Adapter(self.channel)
        self.logs = []
        self.motors = [SimMotor(1, MODELS['RS02']), SimMotor(2, MODELS['RS03'])]
        self.peer = FakeMotorPeer(self.motors,
                                  lambda: open_python_can('virtual', self.channel)).start()
        self.bus = CanTransport(self.adapter.connect, reopen_s=0.05,
                                log=lambda lvl, msg: self.logs.append((lvl, msg)))
        joints = [JointConfig('a', 1, MODELS['RS02'], 1, 20.0, 1.0),
                  JointConfig('b', 2, MODELS['RS03'], 1, 100.0, 4.0)]
        self.hw = RobstrideHardware(joints, self.bus, error_timeout_s=timeout,
                                    log=lambda lvl, msg: self.logs.append((lvl, msg)))

    def close(self):
        self.bus.close()
        self.peer.close()

    def run(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            now = time.monotonic()
            self.hw.read(now)
            self.hw.write(now)
            time.sleep(CYCLE_S)

    def run_until(self, predicate, timeout=5.0, what='condition'):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.run(0.02)
            if predicate():
                return
        raise AssertionError(f'timed out waiting for {what}')


@pytest.fixture
def rig():
    r = Rig()
    yield r
    r.close()


def torqued(rig):
    return [j.run_state for j in rig.hw.joints] == [2, 2]


def test_enable_and_motion_over_the_bus(rig):
    rig.run_until(lambda: torqued(rig), what='both motors torqued')
    assert rig.hw.comm_state == COMM_STATE_OK
    rig.hw.command(['a'], [0.5], [], [], now=time.monotonic())
    rig.run_until(lambda: abs(rig.hw.get_item(1, 'position') - 0.5) < 0.01, what='moved')
    assert abs(rig.motors[0].position - 0.5) < 0.02


def test_adapter_disappears_and_returns(rig):
    rig.run_until(lambda: torqued(rig), what='torqued')
    rig.adapter.gone = True                      # unplugged mid-run: recv/send/open raise
    rig.run_until(lambda: rig.hw.comm_state == COMM_STATE_BUS_NOT_OPEN, what='BUS_NOT_OPEN')
    assert rig.bus.state == BUS_NOT_OPEN
    with pytest.raises(BusError):
        rig.hw.set_item(1, '0x7016', 0.1, time.monotonic())
    rig.run(0.3)                                 # no exception while it is gone
    assert rig.hw.comm_state == COMM_STATE_BUS_NOT_OPEN
    assert sum('CAN bus lost' in m for _, m in rig.logs) == 1       # one line, not 500/s
    rig.adapter.gone = False                     # plugged back in: re-opened by the thread
    rig.run_until(lambda: rig.hw.comm_state == COMM_STATE_OK and rig.bus.state == BUS_OK,
                  what='comm_state OK again')
    t0 = time.monotonic()
    rig.run_until(lambda: rig.hw.joints[0].last_feedback > t0, what='fresh feedback')
    assert rig.adapter.opens >= 2 and rig.bus.reopens >= 1


def test_bus_that_cannot_open_at_start_reports_not_open_and_recovers():
    channel = new_channel()
    adapter = Adapter(channel)
    adapter.gone = True
    bus = CanTransport(adapter.connect, reopen_s=0.05)
    try:
        assert bus.state == BUS_NOT_OPEN
        with pytest.raises(BusError):
            bus.send(proto.encode_enable(0xFD, 1), 0.0)
        adapter.gone = False
        assert wait_until(lambda: bus.state == BUS_OK, 3.0)
    finally:
        bus.close()


def test_motor_stops_answering_goes_stale_then_recovers(rig):
    rig.run_until(lambda: torqued(rig), what='torqued')
    with rig.peer.lock:
        rig.motors[0].hung = True
    rig.run_until(lambda: rig.hw.joints[0].lost, timeout=3.0, what='joint a lost')
    assert rig.hw.comm_state == COMM_STATE_OK     # the bus is fine: staleness, not comm
    assert rig.hw.frozen and not rig.hw.joints[1].lost
    answers_again_and_reactivates(rig, 0)


def answers_again_and_reactivates(rig, index):
    """Un-hang motor `index`: fresh feedback, then reactivate() re-enables every joint."""
    with rig.peer.lock:
        rig.motors[index].hung = False
    rig.run_until(lambda: time.monotonic() - rig.hw.joints[index].last_feedback < 0.05,
                  what='feedback again')
    rig.hw.reactivate(time.monotonic())
    rig.run_until(lambda: torqued(rig) and not rig.hw.frozen, what='re-enabled')


def test_garbage_frames_are_dropped_and_counted(rig):
    rig.run_until(lambda: torqued(rig), what='torqued')
    noise = open_python_can('virtual', rig.channel)
    try:
        garbage = [
            can.Message(arbitration_id=0x123, data=b'\x01\x02', is_extended_id=False),
            can.Message(arbitration_id=0x028105FD, is_extended_id=True, is_remote_frame=True),
            can.Message(arbitration_id=0x028105FD, is_extended_id=True, is_error_frame=True),
        ]
        typed = [
            proto.CanFrame(0x028101FD, b'\xff\xff\x00'),            # feedback, 3 bytes
            proto.CanFrame(0x150001FD, b'\x01'),                   # fault frame, 1 byte
            proto.CanFrame(0x028163FD, bytes(8)),                  # feedback from motor 99
            proto.CanFrame(0x02810177, bytes(8)),                  # feedback for host 0x77
            proto.CanFrame(0x1F0001FD, bytes(8)),                  # unknown type 31
        ]
        for _ in range(20):
            for msg in garbage:
                noise.send(msg)
            for f in typed:
                noise.send(can.Message(arbitration_id=f.arb_id, data=f.data,
                                       is_extended_id=True))
            rig.run(0.01)
        rig.run(0.1)
    finally:
        noise.shutdown()
    assert rig.bus.dropped >= 20 * len(garbage)
    assert rig.hw.rx_errors >= 40 and rig.hw.rx_ignored >= 60
    assert torqued(rig) and rig.hw.comm_state == COMM_STATE_OK
    assert [j.fault_bits for j in rig.hw.joints] == [0, 0]
    assert not any(j.lost for j in rig.hw.joints)


def test_only_garbage_is_no_feedback(rig):
    rig.run_until(lambda: torqued(rig), what='torqued')
    with rig.peer.lock:
        rig.motors[1].hung = True
    noise = open_python_can('virtual', rig.channel)
    try:
        end = time.monotonic() + 0.8
        while time.monotonic() < end:              # motor 2's id, wrong length
            noise.send(can.Message(arbitration_id=0x028102FD, data=b'\x00' * 4,
                                   is_extended_id=True))
            rig.run(0.01)
    finally:
        noise.shutdown()
    assert rig.hw.joints[1].lost and not rig.hw.joints[0].lost
    answers_again_and_reactivates(rig, 1)


def test_send_that_fails_reports_send_fail_and_recovers(rig):
    rig.run_until(lambda: torqued(rig), what='torqued')
    rig.adapter.send_fails = True                   # python-can's send() raises, RX still fine
    rig.run_until(lambda: rig.hw.comm_state == COMM_STATE_SEND_FAIL, what='SEND_FAIL')
    failures = rig.bus.send_failures
    assert failures > 0
    with pytest.raises(BusError):
        rig.hw.set_item(1, '0x7016', 0.1, time.monotonic())
    rig.run(0.3)                                    # no exception while sends fail
    assert rig.bus.send_failures > failures
    assert sum('CAN send failed' in m for _, m in rig.logs) == 1    # one line, not 500/s
    rig.adapter.send_fails = False
    rig.run_until(lambda: rig.hw.comm_state == COMM_STATE_OK, what='comm_state OK again')
    rig.hw.command(['a'], [0.3], [], [], now=time.monotonic())
    rig.run_until(lambda: abs(rig.hw.get_item(1, 'position') - 0.3) < 0.01, what='moved')


def test_peer_fault_injection_sends_the_exact_bit(rig):
    rig.run_until(lambda: torqued(rig), what='torqued')
    with rig.peer.lock:
        rig.motors[1].latch(proto.FAULT_STALL_OVERLOAD)
    rig.run_until(lambda: rig.hw.get_item(2, 'fault_bits') == float(1 << 14),
                  what='fault frame decoded')
    rig.hw.reboot(2, time.monotonic())
    rig.run_until(lambda: torqued(rig) and rig.hw.joints[1].fault_bits == 0,
                  what='cleared and re-enabled')


def test_run_mode_write_goes_through_reset(rig):
    rig.run_until(lambda: torqued(rig), what='torqued')
    rig.hw.set_item(2, '0x7005', 2, time.monotonic())     # velocity mode: stop, write, enable
    rig.hw.set_item(2, '0x700A', 1.0, time.monotonic())
    rig.run_until(lambda: abs(rig.hw.get_item(2, 'velocity') - 1.0) < 0.05 and torqued(rig),
                  what='velocity mode running')
    assert rig.motors[1].params[0x7005] == 2


def test_can_timeout_stops_the_motor_without_frames(rig):
    rig.run_until(lambda: torqued(rig), what='torqued')
    rig.hw.set_item(1, '0x7028', 2000, time.monotonic())  # 0.1 s
    rig.run(0.1)
    rig.bus.inject_state(BUS_NOT_OPEN)                    # the host stops sending
    assert wait_until(lambda: rig.motors[0].run_state == 0, 2.0)
    assert rig.motors[1].run_state == 2                   # canTimeout 0: keeps running
    rig.bus.inject_state(BUS_OK)
    rig.run_until(lambda: torqued(rig), what='re-enabled after the timeout')


def test_scan_lists_the_motors_on_the_bus(capsys):
    channel = new_channel()
    peer = FakeMotorPeer([SimMotor(cid, model) for cid, model in parse_motors('3:RS04,9:RS00')],
                         lambda: open_python_can('virtual', channel)).start()
    try:
        args = build_parser().parse_args(['scan', '--interface', 'virtual', '--channel',
                                          channel, '--wait', '0.3'])
        assert scan(args) == 0
        out = capsys.readouterr().out.splitlines()
        assert [line.split()[0] for line in out[1:]] == ['3', '9']
        assert out[1].split()[1] == peer.motors[3].mcu_id.hex()
        empty = build_parser().parse_args(['scan', '--interface', 'virtual', '--channel',
                                           new_channel(), '--wait', '0.1'])
        assert scan(empty) == 1
        bad = build_parser().parse_args(['scan', '--interface', 'no_such_interface'])
        assert scan(bad) == 3
    finally:
        peer.close()


def test_parse_motors():
    assert [(cid, m.name) for cid, m in parse_motors('1:RS02,2:rs03')] == [
        (1, 'RS02'), (2, 'RS03')]
    for bad in ('1', '0:RS02', '128:RS02', '1:RS09', '1:RS02,1:RS03', ' 1:RS02', '+1:RS02'):
        with pytest.raises(ValueError):
            parse_motors(bad)
