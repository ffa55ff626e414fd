# SPDX-License-Identifier: Apache-2.0
"""
`ros2 doctor`'s RobStride check and report (robstride_sim.doctor, ros2doctor's entry points).

Nothing running and no channel given: silent, the report says "not running". A healthy link
(simulated motors answering on a python-can virtual bus; the node running): every check
passes. Then each broken link made real: a motor ID that does not answer, a CAN channel that
does not exist, a serial device given as the channel, a USB serial adapter where a SocketCAN
interface was expected, an interface that is not CAN, a python-can interface that cannot be
opened, the node on a bus that is not open; each gives one line naming the cause and the fix.
A vcan interface that is down is made real where the kernel has vcan (in a network namespace
of the test's own), and its iproute2 description is checked on every host.
"""

import importlib.metadata
import itertools
import os
import pty
import re
import shutil
import subprocess
import sys

import pytest
from robstride_sim.fake_motors import FakeMotorPeer
from robstride_sim.models import MODELS
from robstride_sim.motor import SimMotor
import rs_harness as rh

ros2doctor = pytest.importorskip('ros2doctor.api')
doctor = pytest.importorskip('robstride_sim.doctor')

_channels = itertools.count()


def _check(capsys, **env):
    """Run RobstrideCheck with ``env`` as ROBSTRIDE_* variables; (errors, warnings, lines)."""
    saved = {k: os.environ.get(k) for k in (doctor.ENV_CAN, doctor.ENV_IDS)}
    os.environ.pop(doctor.ENV_CAN, None)
    os.environ.pop(doctor.ENV_IDS, None)
    os.environ.update(env)
    try:
        result = doctor.RobstrideCheck().check()
        report = doctor.RobstrideReport().report()
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return result.error, result.warning, capsys.readouterr().err.splitlines(), report


@pytest.fixture
def motors():
    """Motors 1 (RS02) and 2 (RS03) answering on a python-can virtual bus of their own."""
    channel = f'rs_doctor_{os.getpid()}_{next(_channels)}'
    from robstride_sim.canbus import open_python_can
    peer = FakeMotorPeer([SimMotor(1, MODELS['RS02']), SimMotor(2, MODELS['RS03'])],
                         lambda: open_python_can('virtual', channel)).start()
    try:
        yield channel
    finally:
        peer.close()


def test_registered_as_entry_points():
    groups = importlib.metadata.entry_points()
    assert 'robstride_sim.doctor:RobstrideCheck' in [
        ep.value for ep in groups.select(group='ros2doctor.checks')]
    assert 'robstride_sim.doctor:RobstrideReport' in [
        ep.value for ep in groups.select(group='ros2doctor.report')]


def test_silent_when_nothing_runs(ros, capsys):
    errors, warnings, lines, report = _check(capsys)
    assert (errors, warnings, lines) == (0, 0, [])
    assert report.items == [('status', 'not running (no robstride_hardware_interface node; '
                                       'set ROBSTRIDE_CAN=socketcan:can0 to check a bus)')]


def test_healthy_bus_passes(ros, motors, capsys):
    errors, warnings, lines, report = _check(
        capsys, ROBSTRIDE_CAN=f'virtual:{motors}', ROBSTRIDE_MOTOR_IDS='1,2')
    assert (errors, warnings, lines) == (0, 0, []), lines
    items = dict(report.items)
    assert items['link'] == f'virtual {motors}'
    for motor in (1, 2):
        assert re.fullmatch(r'answers in \d+\.\d ms, feedback age .+', items[f'motor {motor}'])


def test_scan_without_ids_lists_the_motors(ros, motors, capsys):
    errors, _, lines, report = _check(capsys, ROBSTRIDE_CAN=f'virtual:{motors}')
    assert errors == 0, lines
    assert sorted(k for k, _ in report.items if k.startswith('motor ')) == ['motor 1', 'motor 2']


def test_motor_that_does_not_answer(ros, motors, capsys):
    errors, _, lines, report = _check(
        capsys, ROBSTRIDE_CAN=f'virtual:{motors}', ROBSTRIDE_MOTOR_IDS='1,2,3')
    assert errors == 1 and len(lines) == 1, lines
    assert lines[0].endswith(
        'UserWarning: ERROR: RobStride: motor 3 does not answer a device-ID request within '
        f'50 ms on virtual {motors}: check its power and CAN id (`robstride_cli scan '
        f'--interface virtual --channel {motors}`), the wiring and the bitrate.'), lines
    assert dict(report.items)['motor 3'] == 'no answer within 50 ms'


def test_channel_that_does_not_exist(ros, capsys):
    errors, _, lines, _ = _check(capsys, ROBSTRIDE_CAN='socketcan:rsdoc_none0')
    assert errors == 1 and len(lines) == 1, lines
    assert 'RobStride: CAN channel rsdoc_none0 does not exist (no /sys/class/net/rsdoc_none0)' \
        in lines[0] or 'is a serial USB-CAN adapter' in lines[0], lines


def test_serial_device_as_channel(ros, capsys):
    controller, device = pty.openpty()
    try:
        path = os.ttyname(device)
        errors, _, lines, report = _check(capsys, ROBSTRIDE_CAN=f'socketcan:{path}')
    finally:
        os.close(controller)
        os.close(device)
    assert errors == 1 and len(lines) == 1, lines
    assert f'ERROR: RobStride: CAN channel {path} is a serial (character) device, not a ' \
           'SocketCAN interface: the RobStride USB-CAN adapter is a serial device' in lines[0]
    assert 'sirwart/robstride#1' in lines[0] and 'slcand' in lines[0]
    assert dict(report.items)['kernel'] == 'serial device'


def test_usb_serial_adapter_where_socketcan_expected(tmp_path):
    """A CH340 USB serial device (the RobStride adapter) present, no SocketCAN interface."""
    usb = tmp_path / 'devices' / 'usb1' / '1-1'
    interface = usb / '1-1:1.0'
    (interface / 'ttyUSB0').mkdir(parents=True)
    (usb / 'idVendor').write_text('1a86\n')
    (usb / 'idProduct').write_text('7523\n')
    tty = tmp_path / 'class' / 'tty' / 'ttyUSB0'
    tty.mkdir(parents=True)
    (tty / 'device').symlink_to(interface)
    found, items = doctor.kernel_findings(doctor.CanConfig('socketcan', 'rsdoc_none0'),
                                          sys_tty=str(tmp_path / 'class' / 'tty'))
    assert found == [('error', 'no SocketCAN interface rsdoc_none0, but /dev/ttyUSB0 (1a86:7523 '
                               'QinHeng CH340) is a serial USB-CAN adapter: the RobStride '
                               'USB-CAN adapter is a serial device, not SocketCAN '
                               '(sirwart/robstride#1): if its firmware speaks SLCAN, `sudo '
                               'slcand -o -c -s8 /dev/ttyUSB0 rsdoc_none0 && sudo ip link set '
                               'rsdoc_none0 up`; otherwise use a SocketCAN adapter '
                               '(candleLight/gs_usb, PEAK).')]
    assert items == {'kernel': 'missing'}


def test_interface_that_is_not_can(ros, capsys):
    errors, _, lines, _ = _check(capsys, ROBSTRIDE_CAN='socketcan:lo')
    assert errors == 1 and len(lines) == 1, lines
    assert lines[0].endswith('ERROR: RobStride: lo is not a CAN interface (link type 772, CAN is '
                             '280): set the CAN channel (e.g. can0) in can_channel / '
                             'ROBSTRIDE_CAN.'), lines


def test_interface_that_cannot_be_opened(ros, capsys):
    errors, _, lines, _ = _check(capsys, ROBSTRIDE_CAN='no_such_driver:x0')
    assert errors == 1 and len(lines) == 1, lines
    assert 'ERROR: RobStride: cannot open CAN bus no_such_driver x0: ' in lines[0], lines
    assert lines[0].endswith('check the python-can interface and channel names and the '
                             'permissions.'), lines


def test_malformed_configuration(ros, capsys):
    errors, _, lines, _ = _check(capsys, ROBSTRIDE_CAN='can0')
    assert errors == 1 and lines[0].endswith(
        "ROBSTRIDE_CAN='can0' is not <interface>:<channel>[:<bitrate>]: e.g. "
        'ROBSTRIDE_CAN=socketcan:can0:1000000.'), lines


# iproute2's JSON for interfaces this host may not be able to create
VCAN_DOWN = {'ifname': 'vcan0', 'flags': ['NOARP'], 'operstate': 'DOWN', 'link_type': 'can',
             'linkinfo': {'info_kind': 'vcan'}}
CAN_BUS_OFF = {'ifname': 'can0', 'flags': ['NOARP', 'UP', 'LOWER_UP', 'ECHO'],
               'operstate': 'UP', 'link_type': 'can',
               'linkinfo': {'info_kind': 'can', 'info_data': {
                   'state': 'BUS-OFF', 'berr_counter': {'tx': 248, 'rx': 0}, 'restart_ms': 0,
                   'bittiming': {'bitrate': 500000}}, 'info_xstats': {'bus_off': 3}}}


def test_vcan_down_description():
    found, items = doctor.link_findings('vcan0', VCAN_DOWN, 0)
    assert found == [('error', 'CAN interface vcan0 is down: `sudo ip link set vcan0 up`.')]
    assert items == {'kernel': 'vcan, down'}


def test_bus_off_at_the_wrong_bitrate_description():
    found, items = doctor.link_findings('can0', CAN_BUS_OFF, 1000000)
    texts = [text for _, text in found]
    assert [level for level, _ in found] == ['error', 'error', 'warning']
    assert texts[0].startswith('CAN interface can0 runs at 500000 bit/s where 1000000 is '
                               'configured')
    assert texts[1].startswith('CAN interface can0 is bus-off (tx errors 248): check '
                               'termination')
    assert 'restart-ms 0' in texts[2]
    assert items['bus-off events'] == '3' and items['error counters'] == 'tx 248, rx 0'


def _vcan_namespace_supported():
    if not shutil.which('unshare') or not shutil.which('ip'):
        return False
    probe = subprocess.run(['unshare', '-rn', 'ip', 'link', 'add', 'dev', 'vcan0', 'type',
                            'vcan'], capture_output=True, text=True)
    return probe.returncode == 0


def test_vcan_down_for_real():
    if not _vcan_namespace_supported():
        pytest.skip('this kernel has no vcan (or no user namespaces): described above only')
    code = ('import os; os.environ.pop("ROBSTRIDE_MOTOR_IDS", None)\n'
            'from robstride_sim import doctor\n'
            'found, _ = doctor.kernel_findings(doctor.CanConfig("socketcan", "vcan0"))\n'
            'print(found)\n')
    out = subprocess.run(['unshare', '-rn', 'sh', '-c', 'ip link add dev vcan0 type vcan && '
                          f"exec {sys.executable} -c '{code}'"],
                         capture_output=True, text=True, timeout=60)
    assert "'CAN interface vcan0 is down: `sudo ip link set vcan0 up`.'" in out.stdout, out


def test_healthy_node_passes(ros, capsys):
    with rh.sim_node() as (_, prefix):
        found = None
        for _ in range(4):      # a loaded host may slow one window of the 500 Hz cycle
            found = _check(capsys)
            if found[:3] == (0, 0, []):
                break
        errors, warnings, lines, report = found
        assert (errors, warnings, lines) == (0, 0, []), lines
        items = dict(report.items)
        assert items['link'] == prefix
        assert items['bus'] == 'sim can0' and items['comm_state'] == '0 (OK)'
        assert re.fullmatch(r'\d+\.\d Hz \(update_rate_hz 500\)', items['state rate']), items


def test_node_whose_bus_is_not_open(ros, capsys):
    params = {'can_interface': 'socketcan', 'can_channel': 'rsdoc_gone0', 'can_bitrate': 0}
    with rh.sim_node(params, mode='sim') as (_, prefix):
        lines = []
        for _ in range(4):
            _, _, lines, _ = _check(capsys)
            if any('comm_state -1' in x for x in lines):
                break
    assert any(x.endswith(f'ERROR: RobStride: {prefix} reports comm_state -1 (bus not open) on '
                          'socketcan rsdoc_gone0: the adapter is missing or down; see the CAN '
                          'findings or `ip -details link show`.') for x in lines), lines
    assert any('CAN channel rsdoc_gone0 does not exist' in x
               or 'is a serial USB-CAN adapter' in x for x in lines), lines


def test_node_with_a_faulted_motor(ros, capsys):
    with rh.sim_node({'sim.inject_fault_bits': [1, 0]}) as (_, prefix):
        lines = []
        for _ in range(4):
            _, _, lines, _ = _check(capsys)
            if any('reports faults' in x for x in lines):
                break
    assert any(x.endswith(f'ERROR: RobStride: {prefix}: motor 1 reports faults (over '
                          'temperature): fix the cause, then `robstride_cli reboot 1` clears '
                          'them.') for x in lines), lines
