# SPDX-License-Identifier: Apache-2.0
"""
`ros2 doctor`'s PND Adam check and report (pnd_adam_examples.doctor, ros2doctor's entry points).

The check runs in a child process of its own (`_doctor`), so that each case has its own
environment: the Fast DDS profile is read once per process, at the first participant. No robot:
silent, the report says "not running". adam_sim on this domain with the README's settings:
every check passes. Then each broken link made real: the robot on another domain, lowstate at
300 Hz where 500 Hz is expected, the Fast DDS interop profile missing (Kilted), a publisher of
rt/lowstate under another DDS type name, and ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST beside a
robot on Cyclone's default interface; each gives one line naming the cause and the fix.
"""

import glob
import importlib.metadata
import os
import re
import subprocess
import sys

from ament_index_python.packages import get_package_prefix
from pnd_adam_examples.fastdds_profile import PROFILE_ENV, profile_path
import pytest
from workspace_testing import allocate_domain, release_domain
from workspace_testing.adam_sim import cyclone_localhost_uri, localhost_env, SimProcess

pytest.importorskip('ros2doctor.api')

CODE = """
from ros2doctor.api import shared_graph
from pnd_adam_examples.doctor import PndAdamCheck, PndAdamReport
with shared_graph():
    result = PndAdamCheck().check()
    report = PndAdamReport().report()
for name, value in report.items:
    print(f'{name}: {value}')
print(f'RESULT {result.error} {result.warning}')
"""


def _env(domain, scan, **changes):
    env = localhost_env(domain)
    env[PROFILE_ENV] = profile_path()
    env['PND_ADAM_DOMAINS'] = ','.join(str(d) for d in scan)
    env.pop('PND_ADAM_LOWSTATE_HZ', None)
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def _doctor(env):
    """Run the check and the report in a child; (errors, warnings, stderr lines, report)."""
    out = subprocess.run([sys.executable, '-c', CODE], env=env, capture_output=True,
                         text=True, timeout=60)
    assert 'Traceback' not in out.stderr, out.stderr
    match = re.search(r'^RESULT (\d+) (\d+)$', out.stdout, re.M)
    assert match, out
    return int(match.group(1)), int(match.group(2)), out.stderr.splitlines(), out.stdout


def _until(env, done, tries=3):
    """Return the first _doctor() result for which ``done(result)`` (a loaded host)."""
    found = None
    for _ in range(tries):
        found = _doctor(env)
        if done(found):
            break
    return found


@pytest.fixture(scope='module')
def other_domain():
    domain = allocate_domain()
    try:
        yield domain
    finally:
        release_domain(domain)


def fastdds_major():
    """3 on Kilted (Fast DDS 3.x), 2 on Jazzy (Fast DDS 2.14)."""
    lib = os.path.join(get_package_prefix('rmw_fastrtps_cpp'), 'lib')
    return 3 if glob.glob(os.path.join(lib, 'libfastdds.so.3*')) else 2


def test_registered_as_entry_points():
    groups = importlib.metadata.entry_points()
    assert 'pnd_adam_examples.doctor:PndAdamCheck' in [
        ep.value for ep in groups.select(group='ros2doctor.checks')]
    assert 'pnd_adam_examples.doctor:PndAdamReport' in [
        ep.value for ep in groups.select(group='ros2doctor.report')]


def test_silent_without_a_robot(domain_id):
    errors, warnings, lines, report = _doctor(_env(domain_id, [domain_id]))
    assert (errors, warnings, lines) == (0, 0, [])
    assert f'status: not running (no rt/lowstate on domains {domain_id})' in report


def test_healthy_link_passes(domain_id):
    with SimProcess(domain_id, rate_hz=500.0):
        errors, warnings, lines, report = _until(
            _env(domain_id, [domain_id]), lambda r: r[:3] == (0, 0, []))
    assert (errors, warnings, lines) == (0, 0, []), (lines, report)
    assert f'link: rt/lowstate (domain {domain_id})' in report
    assert 'DDS type: pnd_adam::msg::dds_::LowState_' in report
    assert re.search(r'^rate: \d+\.\d Hz \(expected 500 Hz\)$', report, re.M), report
    assert re.search(r'^plain DDS interface: lo \(CYCLONEDDS_URI names it\)$', report, re.M)


def test_robot_on_another_domain(domain_id, other_domain):
    with SimProcess(other_domain, rate_hz=100.0):
        errors, _, lines, _ = _until(_env(domain_id, [other_domain]), lambda r: r[0] > 0)
    assert errors == 1 and len(lines) == 1, lines
    assert lines[0].endswith(
        f'ERROR: PND Adam: the robot publishes rt/lowstate on domain {other_domain}, this '
        f'shell is on ROS_DOMAIN_ID={domain_id}: `export ROS_DOMAIN_ID={other_domain}` (the '
        "vendor's user ROS 2 domain is 2), or start the robot side with "
        f'--domain {domain_id}.'), lines


def test_lowstate_rate_too_low(domain_id):
    with SimProcess(domain_id, rate_hz=300.0):
        errors, _, lines, _ = _until(_env(domain_id, [domain_id]),
                                     lambda r: any('arrives at' in x for x in r[2]))
    found = [x for x in lines if 'arrives at' in x]
    assert errors >= 1 and len(found) == 1, lines
    assert re.search(r'ERROR: PND Adam: /lowstate arrives at (2[89]\d|30\d)\.\d Hz, not 500 Hz '
                     r'\+- 5%: check the robot side\'s rate \(adam_sim --rate\)', found[0])


def test_interop_profile_missing(domain_id):
    if fastdds_major() != 3:
        pytest.skip('Fast DDS 2 matches the robot without the profile')
    with SimProcess(domain_id, rate_hz=100.0):
        errors, _, lines, _ = _until(_env(domain_id, [domain_id], **{PROFILE_ENV: None}),
                                     lambda r: r[0] > 0)
    assert errors == 1 and len(lines) == 1, lines
    assert lines[0].endswith(
        'ERROR: PND Adam: /lowstate is discovered but no sample reaches ROS in 1 s: Fast DDS '
        f'type propagation does not match the plain-DDS robot: `export {PROFILE_ENV}='
        f'{profile_path()}`.'), lines


def test_other_dds_type_name(domain_id):
    from cyclonedds.domain import DomainParticipant
    from cyclonedds.idl import IdlStruct
    from cyclonedds.idl.types import uint32
    from cyclonedds.pub import DataWriter
    from cyclonedds.topic import Topic

    class LowState(IdlStruct, typename='adam::LowState'):
        tick: uint32

    saved = os.environ.get('CYCLONEDDS_URI')
    os.environ['CYCLONEDDS_URI'] = cyclone_localhost_uri()
    try:
        participant = DomainParticipant(domain_id)
        writer = DataWriter(participant, Topic(participant, 'rt/lowstate', LowState))
        errors, _, lines, _ = _until(_env(domain_id, [domain_id]), lambda r: r[0] > 0)
        del writer, participant
    finally:
        if saved is None:
            os.environ.pop('CYCLONEDDS_URI', None)
        else:
            os.environ['CYCLONEDDS_URI'] = saved
    assert errors == 1 and len(lines) == 1, lines
    assert lines[0].endswith(
        f'ERROR: PND Adam: rt/lowstate on domain {domain_id} has DDS type adam::LowState, ROS 2 '
        'matches only pnd_adam::msg::dds_::LowState_: build the robot-side types from the '
        'vendor IDL (module pnd_adam::msg::dds_) and the ROS package as pnd_adam.'), lines


def test_localhost_ros_beside_robot_on_default_interface(domain_id):
    # the robot side and the scan on Cyclone's defaults (the first multicast interface)
    robot_env = localhost_env(domain_id)
    robot_env.pop('CYCLONEDDS_URI')
    env = _env(domain_id, [domain_id], CYCLONEDDS_URI=None)
    with SimProcess(domain_id, rate_hz=100.0, env=robot_env):
        errors, _, lines, report = _until(env, lambda r: r[0] > 0)
    if 'status: not running' in report:
        pytest.skip("this host's default interface carries no multicast between processes")
    assert errors == 1 and len(lines) == 1, lines
    assert f'ERROR: PND Adam: rt/lowstate is on domain {domain_id} over plain DDS (' in lines[0]
    assert lines[0].endswith(
        'but ROS does not discover /lowstate: ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST keeps ROS '
        "on this host's loopback while the robot side announces itself on its default "
        'interface: start it with CYCLONEDDS_URI=file://<pnd_adam_sim>/config/'
        'cyclonedds_localhost.xml, or set ROS_AUTOMATIC_DISCOVERY_RANGE=SUBNET.'), lines
