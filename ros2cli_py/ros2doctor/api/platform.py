# SPDX-License-Identifier: Apache-2.0  # noqa: A005 - ros2doctor.api.platform, upstream's path
"""
Platform check and reports: the system, and the ROS 2 distribution with its support status.

ros2doctor reads the distribution's status from the rosdistro index on the network; this one
works offline from the dates ROS 2 publishes for each distribution (REP 2000), so it also
answers on a robot without internet.
"""

import datetime
import os
import platform
import sys
from typing import Optional
from typing import Tuple

from ros2doctor.api import DoctorCheck
from ros2doctor.api import DoctorReport
from ros2doctor.api import Report
from ros2doctor.api import Result
from ros2doctor.api.format import doctor_error
from ros2doctor.api.format import doctor_warn

# name -> (release date, end of life): REP 2000 (end of life: the last day of its month)
DISTRIBUTIONS = {
    'humble': ('2022-05-23', '2027-05-31'),
    'iron': ('2023-05-23', '2024-12-04'),
    'jazzy': ('2024-05-23', '2029-05-31'),
    'kilted': ('2025-05-23', '2026-12-31'),
    'rolling': (None, None),
}


def distribution_status(name: str, today: Optional[datetime.date] = None) -> Optional[str]:
    """Return 'active', 'end-of-life', 'prerelease' or 'rolling'; None for an unknown name."""
    if name not in DISTRIBUTIONS:
        return None
    released, end = DISTRIBUTIONS[name]
    if released is None:
        return 'rolling'
    today = today or datetime.date.today()
    if today < datetime.date.fromisoformat(released):
        return 'prerelease'
    if today > datetime.date.fromisoformat(end):
        return 'end-of-life'
    return 'active'


def _distro() -> Optional[Tuple[str, str]]:
    """Return (ROS_DISTRO, its status), or None after one line saying why not."""
    name = os.environ.get('ROS_DISTRO', '').strip().lower()
    if not name:
        doctor_error('ROS_DISTRO is not set.')
        return None
    status = distribution_status(name)
    if status is None:
        doctor_warn(f'Distribution name {name} is not found')
        return None
    return name, status


def toolchain() -> str:
    """Return where ROS 2 comes from: the PyPI wheels of a venv, or a sourced install."""
    import rclpy
    location = os.path.dirname(rclpy.__file__)
    if sys.prefix != sys.base_prefix and location.startswith(sys.prefix):
        return f'PyPI wheels in {sys.prefix}'
    return f'installed ROS 2 ({location})'


class PlatformCheck(DoctorCheck):
    """Check that ROS_DISTRO names a distribution that is supported today."""

    def category(self) -> str:
        """Return 'platform'."""
        return 'platform'

    def check(self) -> Result:
        """Return an error when ROS_DISTRO is unusable, a warning when not supported."""
        result = Result()
        found = _distro()
        if not found:
            doctor_error('Missing rosdistro info. Unable to check platform.')
            result.add_error()
            return result
        name, status = found
        if status == 'prerelease':
            doctor_warn(f'Distribution {name} is not fully supported or tested. To get more '
                        'consistent features, download a stable version at https://docs.ros.org')
            result.add_warning()
        elif status == 'end-of-life':
            doctor_warn(f'Distribution {name} is no longer supported or deprecated (end of '
                        f'life {DISTRIBUTIONS[name][1]}). To get the latest features, download '
                        'the new versions at https://docs.ros.org')
            result.add_warning()
        return result


class PlatformReport(DoctorReport):
    """Report the operating system."""

    def category(self) -> str:
        """Return 'platform'."""
        return 'platform'

    def report(self) -> Report:
        """Return the PLATFORM INFORMATION report."""
        report = Report('PLATFORM INFORMATION')
        system = platform.system()
        report.add_to_report('system', system)
        report.add_to_report('platform info', platform.platform())
        if system == 'Darwin':
            report.add_to_report('mac OS version', platform.mac_ver())
        report.add_to_report('release', platform.release())
        report.add_to_report('processor', platform.processor() or platform.machine())
        report.add_to_report('python', f'{platform.python_version()} ({sys.executable})')
        return report


class RosdistroReport(DoctorReport):
    """Report the ROS 2 distribution, its status and the toolchain providing it."""

    def category(self) -> str:
        """Return 'platform'."""
        return 'platform'

    def report(self) -> Report:
        """Return the ROS 2 INFORMATION report."""
        report = Report('ROS 2 INFORMATION')
        found = _distro()
        if not found:
            return report
        name, status = found
        report.add_to_report('distribution name', name)
        report.add_to_report('distribution type', 'ros2')
        report.add_to_report('distribution status', status)
        if DISTRIBUTIONS[name][1]:
            report.add_to_report('end of life', DISTRIBUTIONS[name][1])
        report.add_to_report('toolchain', toolchain())
        return report
