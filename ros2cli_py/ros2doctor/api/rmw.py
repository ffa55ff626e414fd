# SPDX-License-Identifier: Apache-2.0
"""RMW report: the middleware in use and the variables that decide which graph a node joins."""

import os

from ros2doctor.api import DoctorReport
from ros2doctor.api import Report

_VARIABLES = ('ROS_DOMAIN_ID', 'ROS_AUTOMATIC_DISCOVERY_RANGE', 'ROS_STATIC_PEERS',
              'ROS_LOCALHOST_ONLY', 'FASTDDS_DEFAULT_PROFILES_FILE',
              'FASTRTPS_DEFAULT_PROFILES_FILE', 'CYCLONEDDS_URI')


class RMWReport(DoctorReport):
    """Report the RMW implementation (ros2doctor's) and the graph's variables."""

    def category(self) -> str:
        """Return 'middleware'."""
        return 'middleware'

    def report(self) -> Report:
        """Return the RMW MIDDLEWARE report."""
        from rclpy.utilities import get_rmw_implementation_identifier
        report = Report('RMW MIDDLEWARE')
        report.add_to_report('middleware name', get_rmw_implementation_identifier())
        report.add_to_report('ROS_DOMAIN_ID', os.environ.get('ROS_DOMAIN_ID') or '0 (unset)')
        for variable in _VARIABLES[1:]:
            if os.environ.get(variable):
                report.add_to_report(variable, os.environ[variable])
        return report
