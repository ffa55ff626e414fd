# SPDX-License-Identifier: Apache-2.0
"""Network check and report: interfaces, multicast, and the interfaces DDS will use."""

import sys

from ros2doctor.api import DoctorCheck
from ros2doctor.api import DoctorReport
from ros2doctor.api import Report
from ros2doctor.api import Result
from ros2doctor.api.format import doctor_error
from ros2doctor.api.format import doctor_warn


def _interfaces():
    """Return the queryable interfaces; one warning line per interface that is not."""
    from ros2doctor.api import interfaces
    found, failed = interfaces.query_all()
    for name, why in failed:
        doctor_warn(f'Unable to query network interface {name}: {why}')
    return found


class NetworkCheck(DoctorCheck):
    """Check for loopback and multicast, and that the interfaces DDS uses can carry it."""

    def category(self) -> str:
        """Return 'network'."""
        return 'network'

    def check(self) -> Result:
        """Check the interfaces (ros2doctor's rules) and the ones DDS will use."""
        result = Result()
        if not sys.platform.startswith('linux'):
            doctor_warn('Interface flags are only read on Linux here. Run `ip link` or '
                        '`ipconfig` to see what interfaces are available.')
            result.add_warning()
            return result
        from ros2doctor.api import interfaces as api
        found = _interfaces()
        present = api.summary(found)
        if not present['loopback']:
            doctor_error('No loopback IP address is found.')
            result.add_error()
        if not present['non_loopback']:
            doctor_warn('Only loopback IP address is found.')
            result.add_warning()
        if not present['multicast']:
            doctor_warn('No multicast IP address is found.')
            result.add_warning()
        by_name = {i.name: i for i in found}
        names, why = api.dds_interfaces(found)
        scope = api.discovery_range()
        for name in names:
            interface = by_name.get(name)
            if interface is None:
                if name[:1].isdigit():
                    continue        # an address of a profile allowlist, not a name
                doctor_error(f'DDS is configured to use interface {name} ({why}), which does '
                             'not exist: fix the DDS profile or its variable.')
                result.add_error()
            elif not interface.is_up:
                doctor_error(f'Interface {name}, which DDS uses ({why}), is down: '
                             f'`sudo ip link set {name} up`.')
                result.add_error()
            elif scope != 'LOCALHOST' and not interface.is_loopback \
                    and not interface.has_multicast:
                doctor_warn(f'Multicast is off on {name}, which DDS uses ({why}): discovery '
                            f'of other hosts fails. `sudo ip link set {name} multicast on`, '
                            'or list the peers in ROS_STATIC_PEERS.')
                result.add_warning()
        return result


class NetworkReport(DoctorReport):
    """Report each interface's addresses, flags and MTU, and the interfaces DDS uses."""

    def category(self) -> str:
        """Return 'network'."""
        return 'network'

    def report(self) -> Report:
        """Return the NETWORK CONFIGURATION report."""
        report = Report('NETWORK CONFIGURATION')
        if not sys.platform.startswith('linux'):
            report.add_to_report('interfaces', 'not read on this platform')
            return report
        from ros2doctor.api import interfaces as api
        found = _interfaces()
        for interface in found:
            items = (
                ('inet', interface.inet4), ('inet4', [interface.inet4] if interface.inet4 else []),
                ('ether', interface.ether), ('inet6', interface.inet6),
                ('netmask', interface.netmask), ('device', interface.name),
                ('flags', interface.flags_text()), ('mtu', interface.mtu),
                ('broadcast', interface.broadcast))
            for name, value in items:
                if value:
                    report.add_to_report(name, value)
        names, why = api.dds_interfaces(found)
        report.add_to_report('dds interfaces', f"{', '.join(names) or 'none'} ({why})")
        report.add_to_report('discovery range', api.discovery_range())
        return report
