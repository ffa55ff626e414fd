# SPDX-License-Identifier: Apache-2.0
"""
`ros2 doctor` check and report of the PND Adam robot link (entry points in setup.py).

The robot (or adam_sim) speaks plain Cyclone DDS. Plain DDS participants of this process look
for its ``rt/lowstate`` publication for SCAN_S on the candidate domains: this shell's
ROS_DOMAIN_ID, then the vendor's domains 2, 1 and 0 (or those listed in PND_ADAM_DOMAINS,
comma separated). Found nowhere: the check is silent and the report says "not running". Found:

- on which domain, under which DDS type name (ROS 2 sees it only as
  ``pnd_adam::msg::dds_::LowState_``, i.e. a ROS package named ``pnd_adam``);
- on another domain than ROS_DOMAIN_ID: the domain to export;
- on this domain but absent from the ROS graph: the discovery range / network interface
  mismatch (ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST beside a robot on its default interface);
- in the ROS graph but no sample reaching a ROS subscriber within MEASURE_S: the Fast DDS
  interop profile (type propagation) is not in force;
- the rate ROS receives, against PND_ADAM_LOWSTATE_HZ (default 500 Hz, the simulator's and the
  vendor examples' loop) +- RATE_TOLERANCE;
- the interface plain DDS carries the traffic on, and multicast off on it.

Each finding is one line with the fix. Nothing of pnd_adam_sim is imported.
"""

import os
import re
import time
from typing import Any, Dict, List, Optional, Tuple

from ros2doctor.api.link import DoctorLink
from ros2doctor.api.link import Finding
from ros2doctor.api.link import LinkCheck
from ros2doctor.api.link import LinkDiagnosis
from ros2doctor.api.link import LinkReport
from ros2doctor.api.link import private_node
from ros2doctor.api.link import spin_for

from .fastdds_profile import PROFILE_ENV, profile_path

SCAN_S = 1.0
MEASURE_S = 1.0
RATE_TOLERANCE = 0.05
DEFAULT_RATE_HZ = 500.0
VENDOR_DOMAINS = (2, 1, 0)
ENV_DOMAINS = 'PND_ADAM_DOMAINS'
ENV_RATE = 'PND_ADAM_LOWSTATE_HZ'
LOWSTATE_TYPE = 'pnd_adam::msg::dds_::LowState_'
ROS_TYPE = 'pnd_adam/msg/LowState'
_LOWSTATE = re.compile(r'^rt((?:/[A-Za-z_][A-Za-z0-9_]*)*)/lowstate$')
PREFIX = 'PND Adam'


class Publication:
    """One rt/lowstate publication seen over plain DDS."""

    def __init__(self, domain: int, topic: str, type_name: str):
        """Hold where it was seen."""
        self.domain = domain
        self.topic = topic
        self.type_name = type_name

    @property
    def ros_topic(self) -> str:
        """Return the ROS 2 name of the DDS topic (``rt/x/lowstate`` -> ``/x/lowstate``)."""
        return self.topic[len('rt'):]


def ros_domain() -> int:
    """Return this shell's ROS_DOMAIN_ID (0 when unset or malformed)."""
    text = os.environ.get('ROS_DOMAIN_ID', '').strip()
    return int(text) if text.isdigit() else 0


def candidate_domains() -> List[int]:
    """Return the domains to scan: ROS_DOMAIN_ID, then PND_ADAM_DOMAINS (default 2, 1, 0)."""
    text = os.environ.get(ENV_DOMAINS, '').strip()
    extra = [int(x) for x in text.split(',') if x.strip().isdigit()] if text \
        else list(VENDOR_DOMAINS)
    out: List[int] = []
    for domain in [ros_domain(), *extra]:
        if domain not in out and 0 <= domain <= 232:
            out.append(domain)
    return out


def scan(domains: List[int], seconds: float = SCAN_S) -> List[Publication]:
    """Return the rt/lowstate publications plain DDS discovers on ``domains`` in ``seconds``."""
    from cyclonedds.builtin import BuiltinDataReader, BuiltinTopicDcpsPublication
    from cyclonedds.domain import DomainParticipant
    participants = []
    readers = []
    for domain in domains:
        participant = DomainParticipant(domain)
        participants.append((domain, participant))
        readers.append((domain, BuiltinDataReader(participant, BuiltinTopicDcpsPublication)))
    found: Dict[Tuple[int, str, str], Publication] = {}
    home = ros_domain()
    deadline = time.monotonic() + seconds
    try:
        while True:
            for domain, reader in readers:
                for sample in reader.take(N=256):
                    topic = getattr(sample, 'topic_name', '') or ''
                    if _LOWSTATE.match(topic):
                        key = (domain, topic, sample.type_name)
                        found.setdefault(key, Publication(domain, topic, sample.type_name))
            if any(p.domain == home for p in found.values()) or time.monotonic() >= deadline:
                break
            time.sleep(0.05)
    finally:
        del readers, participants
    return sorted(found.values(), key=lambda p: (p.domain != home, p.domain, p.topic))


class RateMeasurement:
    """MEASURE_S of a ROS subscriber to a lowstate topic: arrival times of the samples."""

    def __init__(self, node: Any, topic: str, seconds: float = MEASURE_S) -> None:
        """Subscribe to ``topic`` (raw) on a node of ``node``'s context for ``seconds``."""
        from rclpy.qos import QoSProfile, ReliabilityPolicy
        from pnd_adam.msg import LowState
        self.arrivals: List[float] = []
        with private_node(node, 'pnd_adam_doctor') as (listener, executor):
            listener.create_subscription(
                LowState, topic, lambda _: self.arrivals.append(time.monotonic()),
                QoSProfile(depth=100, reliability=ReliabilityPolicy.BEST_EFFORT), raw=True)
            spin_for(executor, seconds)

    def rate(self) -> Optional[float]:
        """Return samples per second between the first and the last (None: < 3 samples)."""
        if len(self.arrivals) < 3:
            return None
        span = self.arrivals[-1] - self.arrivals[0]
        return (len(self.arrivals) - 1) / span if span > 0 else None


def plain_dds_interface() -> Tuple[List[str], str]:
    """Return (the interfaces plain Cyclone DDS here uses, why): CYCLONEDDS_URI or its default."""
    from ros2doctor.api import interfaces as api
    variable, text = api._profile_text(('CYCLONEDDS_URI',))
    names = re.findall(r'<NetworkInterface\b[^>]*\bname="([^"]+)"', text or '')
    names += re.findall(r'<NetworkInterfaceAddress>\s*([^<\s]+)\s*<', text or '')
    if names:
        return names, f'{variable} names it'
    found, _ = api.query_all()
    chosen = [i.name for i in found
              if i.is_up and not i.is_loopback and i.has_multicast and i.inet4]
    if chosen:
        return chosen[:1], 'Cyclone DDS default: the first multicast interface'
    up = [i.name for i in found if i.is_up and not i.is_loopback and i.inet4]
    return up[:1] or ['lo'], 'Cyclone DDS default (no multicast interface)'


def _multicast_allowed() -> bool:
    from ros2doctor.api import interfaces as api
    _, text = api._profile_text(('CYCLONEDDS_URI',))
    return not re.search(r'<AllowMulticast>\s*false\s*</AllowMulticast>', text or '', re.I)


def network_findings() -> Tuple[List[Finding], Dict[str, str]]:
    """Return (findings, report items) of the interface plain DDS carries the traffic on."""
    from ros2doctor.api import interfaces as api
    out: List[Finding] = []
    names, why = plain_dds_interface()
    found, _ = api.query_all()
    by_name = {i.name: i for i in found}
    items = {'plain DDS interface': f"{', '.join(names)} ({why})",
             'ROS discovery range': api.discovery_range()}
    for name in names:
        interface = by_name.get(name)
        if interface is None:
            continue
        if not interface.is_loopback and _multicast_allowed() and not interface.has_multicast:
            out.append(('warning', f'multicast is off on {name}, the interface DDS uses: '
                                   'the robot is never discovered: `sudo ip link set '
                                   f'{name} multicast on`, or list the robot as a peer in '
                                   'CYCLONEDDS_URI.'))
    return out, items


def _profile_in_force() -> bool:
    rmw = os.environ.get('RMW_IMPLEMENTATION', '') or 'rmw_fastrtps_cpp'
    return not rmw.startswith('rmw_fastrtps') or bool(os.environ.get(PROFILE_ENV))


def nominal_rate() -> float:
    """Return PND_ADAM_LOWSTATE_HZ, or DEFAULT_RATE_HZ."""
    try:
        return float(os.environ.get(ENV_RATE, '') or DEFAULT_RATE_HZ)
    except ValueError:
        return DEFAULT_RATE_HZ


def link_findings(node: Any, publications: List[Publication]
                  ) -> Tuple[List[Finding], List[Tuple[str, Dict[str, str]]]]:
    """Return (findings, report sections) of the robot's lowstate publications."""
    out: List[Finding] = []
    sections: List[Tuple[str, Dict[str, str]]] = []
    home = ros_domain()
    for pub in publications:
        items = {'DDS type': pub.type_name, 'domain': str(pub.domain)}
        sections.append((f'{pub.topic} (domain {pub.domain})', items))
        if pub.type_name != LOWSTATE_TYPE:
            out.append(('error', f'{pub.topic} on domain {pub.domain} has DDS type '
                                 f'{pub.type_name}, ROS 2 matches only {LOWSTATE_TYPE}: build '
                                 'the robot-side types from the vendor IDL (module '
                                 'pnd_adam::msg::dds_) and the ROS package as pnd_adam.'))
            continue
        if pub.domain != home:
            if not any(p.domain == home and p.type_name == LOWSTATE_TYPE
                       for p in publications):
                out.append(('error', f'the robot publishes {pub.topic} on domain {pub.domain}, '
                                     f'this shell is on ROS_DOMAIN_ID={home}: `export '
                                     f"ROS_DOMAIN_ID={pub.domain}` (the vendor's user ROS 2 "
                                     'domain is 2), or start the robot side with '
                                     f'--domain {home}.'))
            continue
        known = dict(node.get_topic_names_and_types())
        if ROS_TYPE not in known.get(pub.ros_topic, []):
            scope = os.environ.get('ROS_AUTOMATIC_DISCOVERY_RANGE', '')
            if scope.upper() == 'LOCALHOST':
                names, _ = plain_dds_interface()
                out.append(('error', f'{pub.topic} is on domain {home} over plain DDS ('
                                     f"{', '.join(names)}) but ROS does not discover "
                                     f'{pub.ros_topic}: ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST '
                                     "keeps ROS on this host's loopback while the robot side "
                                     'announces itself on its default interface: start it with '
                                     'CYCLONEDDS_URI=file://<pnd_adam_sim>/config/'
                                     'cyclonedds_localhost.xml, or set '
                                     'ROS_AUTOMATIC_DISCOVERY_RANGE=SUBNET.'))
            else:
                out.append(('error', f'{pub.topic} is on domain {home} over plain DDS but ROS '
                                     f'does not discover {pub.ros_topic}: the two sides use '
                                     'different interfaces or peers: compare CYCLONEDDS_URI '
                                     'and the Fast DDS profile (see the network report).'))
            items['ROS graph'] = 'not discovered'
            continue
        items['ROS graph'] = f'{pub.ros_topic} [{ROS_TYPE}]'
        measurement = RateMeasurement(node, pub.ros_topic)
        rate = measurement.rate()
        nominal = nominal_rate()
        items['rate'] = 'no samples' if rate is None else \
            f'{rate:.1f} Hz (expected {nominal:g} Hz)'
        if rate is None:
            if not _profile_in_force():
                out.append(('error', f'{pub.ros_topic} is discovered but no sample reaches ROS '
                                     f'in {MEASURE_S:g} s: Fast DDS type propagation does not '
                                     'match the plain-DDS robot: `export '
                                     f'{PROFILE_ENV}={profile_path()}`.'))
            else:
                out.append(('error', f'{pub.ros_topic} is discovered but no sample reaches ROS '
                                     f'in {MEASURE_S:g} s: the robot side is stalled or its '
                                     'QoS does not match (best effort reader here).'))
        elif abs(rate - nominal) > RATE_TOLERANCE * nominal:
            out.append(('error', f'{pub.ros_topic} arrives at {rate:.1f} Hz, not {nominal:g} Hz '
                                 f"+- {RATE_TOLERANCE:.0%}: check the robot side's rate "
                                 '(adam_sim --rate), the host load and the network; '
                                 f'{ENV_RATE} sets the expected rate.'))
    return out, sections


def diagnose() -> LinkDiagnosis:
    """Scan, then diagnose what was found (see the module docstring)."""
    from ros2doctor.api import graph_node
    result = LinkDiagnosis()
    try:
        publications = scan(candidate_domains())
    except ImportError as exc:      # no cyclonedds (Python): nothing to scan with
        result.sections.append(('scan', {'status': f'not scanned: {exc}'}))
        return result
    if not publications:
        return result
    result.running = True
    with graph_node() as node:
        found, sections = link_findings(node, publications)
    result.findings += found
    result.sections += sections
    more, items = network_findings()
    result.findings += more
    result.sections.append(('network', items))
    return result


def _idle() -> str:
    """Return the report's status when no lowstate was seen: the domains scanned."""
    return f"not running (no rt/lowstate on domains {', '.join(map(str, candidate_domains()))})"


# The check runs the diagnosis fresh; its report, beside it, shares that run.
PND_ADAM = DoctorLink('pnd_adam', diagnose, prefix=PREFIX, title='PND ADAM', idle=_idle)


# ros2doctor ships no type hints: to mypy these bases are Any (misc), which take no class
# keyword (call-arg); a wrong keyword fails at import (object.__init_subclass__).
class PndAdamCheck(LinkCheck, link=PND_ADAM):  # type: ignore[misc,call-arg,unused-ignore]
    """Check the PND Adam robot link: lowstate over plain DDS, domain, discovery, rate."""


class PndAdamReport(LinkReport, link=PND_ADAM):  # type: ignore[misc,call-arg,unused-ignore]
    """Report the PND Adam robot link: where lowstate was seen, its type and rate."""
