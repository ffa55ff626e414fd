# SPDX-License-Identifier: Apache-2.0
"""
QoS compatibility check and report: every publisher/subscriber pair of every topic.

The rule is the middleware's own (``rclpy.qos.qos_check_compatible``, rmw's check), the same
one that decides whether DDS matches the pair; its reason names the policies that differ.
"""

import re

from ros2doctor.api import DoctorCheck
from ros2doctor.api import DoctorReport
from ros2doctor.api import get_topic_names
from ros2doctor.api import graph_node
from ros2doctor.api import Report
from ros2doctor.api import Result
from ros2doctor.api.format import doctor_error
from ros2doctor.api.format import doctor_warn


def _pairs(node, topic):
    """Yield (publisher info, subscription info, compatibility, reason) for one topic."""
    from rclpy.qos import qos_check_compatible
    subscriptions = node.get_subscriptions_info_by_topic(topic)
    for publisher in node.get_publishers_info_by_topic(topic):
        for subscription in subscriptions:
            compatibility, reason = qos_check_compatible(publisher.qos_profile,
                                                         subscription.qos_profile)
            yield publisher, subscription, compatibility, reason


def _endpoint(info):
    namespace = info.node_namespace.rstrip('/')
    return f'{namespace}/{info.node_name}'


class QoSCompatibilityCheck(DoctorCheck):
    """Check each publisher/subscriber pair for incompatible QoS (no data flows)."""

    def category(self) -> str:
        """Return 'middleware'."""
        return 'middleware'

    def check(self) -> Result:
        """Return an error per incompatible pair, a warning per possibly incompatible one."""
        from rclpy.qos import QoSCompatibility
        result = Result()
        with graph_node() as node:
            for topic in get_topic_names():
                for pub, sub, compatibility, reason in _pairs(node, topic):
                    text = self._strip_leading_warning_or_error_from_string(reason)
                    who = f'(publisher {_endpoint(pub)}, subscriber {_endpoint(sub)})'
                    if compatibility == QoSCompatibility.WARNING:
                        doctor_warn(f"QoS compatibility warning found on topic '{topic}': "
                                    f'{text} {who}')
                        result.add_warning()
                    elif compatibility == QoSCompatibility.ERROR:
                        doctor_error(f"QoS compatibility error found on topic '{topic}': "
                                     f'{text} {who}')
                        result.add_error()
        return result

    @staticmethod
    def _strip_leading_warning_or_error_from_string(string: str) -> str:
        """Return ``string`` without a leading 'warning: ' or 'error: ' (any case)."""
        match = re.match(r'(?i:warning|error): (.*)', string, re.S)
        return match.group(1) if match else string


class QoSCompatibilityReport(DoctorReport):
    """Report every publisher/subscriber pair with its compatibility."""

    def category(self) -> str:
        """Return 'middleware'."""
        return 'middleware'

    def report(self) -> Report:
        """Return the QOS COMPATIBILITY LIST report."""
        from rclpy.qos import QoSCompatibility
        report = Report('QOS COMPATIBILITY LIST')
        with graph_node() as node:
            for topic in get_topic_names():
                for pub, sub, compatibility, reason in _pairs(node, topic):
                    report.add_to_report('topic [type]', f'{topic} [{pub.topic_type}]')
                    report.add_to_report('publisher node', pub.node_name)
                    report.add_to_report('subscriber node', sub.node_name)
                    report.add_to_report('compatibility status',
                                         'OK' if compatibility == QoSCompatibility.OK
                                         else reason)
        if not report.items:
            report.add_to_report('compatibility status', 'No publisher/subscriber pairs found')
        return report
