# SPDX-License-Identifier: Apache-2.0
"""
`ros2 doctor` check and report of the HB50 stack (entry points in setup.py).

Silent when no HB50 stack runs (no topic of type hb50_commons/msg/BridgeData): the check
passes with nothing to say and the report says "not running". Otherwise, for each namespace
with a bridge: every topic of the table present with its documented type and its publishers
with the documented QoS (mabRT best effort / Reliable), subscribers of the Reliable topics
reliable; the 500 Hz topics measured for WINDOW_S against their rate +- RATE_TOLERANCE (from
the publishers' header stamps: a sample lost by this reader does not lower the figure); a
heartbeat from every node that publishes heartbeats within HEARTBEAT_S; more than one
JointCommand source, and which one the bridge obeys; robot_description present. Each finding
is one line that names the fix.

This module holds the entry-point classes (HB50Check, HB50Report); the rest is split by job:
doctor_spec (what a stack must have), doctor_graph (the graph node, the bridges' namespaces),
doctor_measurement (listening to a namespace), doctor_shared_measurements (one listening per
namespace shared by check and report), doctor_findings (the rules and their one-line fixes).
"""

from ros2doctor.api import DoctorCheck
from ros2doctor.api import DoctorReport
from ros2doctor.api import Report
from ros2doctor.api import Result
from ros2doctor.api.format import doctor_error
from ros2doctor.api.format import doctor_warn

from . import topics
from .doctor_findings import findings, profile_name
from .doctor_graph import bridge_namespaces, discovered_graph
from .doctor_shared_measurements import listen_early, measure, wait_all
from .doctor_spec import MEASURED, REQUIRED


class HB50Check(DoctorCheck):  # type: ignore[misc,unused-ignore]  # ros2doctor is Any here
    """Check the HB50 stack's topics, rates, heartbeats and command sources."""

    def category(self) -> str:
        """Return 'hb50'."""
        return 'hb50'

    def check(self) -> Result:
        """Return an error per broken link, a warning per doubtful one; nothing if no HB50."""
        result = Result()
        listen_early()
        try:
            with discovered_graph() as node:
                for namespace in bridge_namespaces(node):
                    for level, text in findings(node, namespace, measure(node, namespace)):
                        if level == 'error':
                            doctor_error(f'HB50: {text}')
                            result.add_error()
                        else:
                            doctor_warn(f'HB50: {text}')
                            result.add_warning()
        finally:
            wait_all()
        return result


class HB50Report(DoctorReport):  # type: ignore[misc,unused-ignore]  # ros2doctor is Any
    """Report the HB50 stack: topics with publishers and measured rates, sources, heartbeats."""

    def category(self) -> str:
        """Return 'hb50'."""
        return 'hb50'

    def report(self) -> Report:
        """Return the HB50 STACK report; 'not running' without a bridge."""
        report = Report('HB50 STACK')
        listen_early()
        try:
            self._fill(report)
        finally:
            wait_all()
        return report

    def _fill(self, report: Report) -> None:
        with discovered_graph() as node:
            namespaces = bridge_namespaces(node)
            if not namespaces:
                report.add_to_report('status', 'not running (no hb50_commons/msg/BridgeData '
                                               'publisher)')
            for namespace in namespaces:
                measurement = measure(node, namespace)
                report.add_to_report('namespace', namespace)
                for name in REQUIRED:
                    topic = topics.resolve(name, namespace)
                    publishers = sorted(f'{i.node_name} ({profile_name(i)})'
                                        for i in node.get_publishers_info_by_topic(topic))
                    report.add_to_report(topic, ', '.join(publishers) or 'no publisher')
                for name in MEASURED:
                    rate = measurement.rate(name)
                    report.add_to_report(f'rate {topics.resolve(name, namespace)}',
                                         'no samples' if rate is None else f'{rate:.1f} Hz')
                report.add_to_report('command sources',
                                     ', '.join(sorted(measurement.sources)) or 'none')
                report.add_to_report('bridge obeys', measurement.chosen_source())
                report.add_to_report('heartbeats', ', '.join(
                    f'{n} ({len(b)})' for n, b in sorted(measurement.heartbeats.items()))
                    or 'none')
