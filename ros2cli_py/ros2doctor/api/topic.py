# SPDX-License-Identifier: Apache-2.0
"""Topic check and report: publishers without subscribers and the reverse."""

from ros2doctor.api import DoctorCheck
from ros2doctor.api import DoctorReport
from ros2doctor.api import get_topic_names
from ros2doctor.api import graph_node
from ros2doctor.api import Report
from ros2doctor.api import Result
from ros2doctor.api.format import doctor_warn

#: Topics every node has; never reported (ros2doctor's list).
SKIP_TOPICS = ['/parameter_events', '/rosout']


class TopicCheck(DoctorCheck):
    """Warn about a topic with publishers and no subscriber, or subscribers and no publisher."""

    def category(self) -> str:
        """Return 'topic'."""
        return 'topic'

    def check(self) -> Result:
        """Count each topic's publishers and subscribers."""
        result = Result()
        with graph_node() as node:
            for topic in get_topic_names(skip_topics=SKIP_TOPICS):
                publishers = node.count_publishers(topic)
                subscribers = node.count_subscribers(topic)
                if publishers > 0 and subscribers == 0:
                    doctor_warn(f'Publisher without subscriber detected on {topic}.')
                    result.add_warning()
                elif subscribers > 0 and publishers == 0:
                    doctor_warn(f'Subscriber without publisher detected on {topic}.')
                    result.add_warning()
        return result


class TopicReport(DoctorReport):
    """Report each topic's publisher and subscriber counts."""

    def category(self) -> str:
        """Return 'topic'."""
        return 'topic'

    def report(self) -> Report:
        """Return the TOPIC LIST report; 'none' and zero counts for an empty graph."""
        report = Report('TOPIC LIST')
        with graph_node() as node:
            topics = get_topic_names(skip_topics=SKIP_TOPICS)
            if not topics:
                report.add_to_report('topic', 'none')
                report.add_to_report('publisher count', 0)
                report.add_to_report('subscriber count', 0)
            for topic in topics:
                report.add_to_report('topic', topic)
                report.add_to_report('publisher count', node.count_publishers(topic))
                report.add_to_report('subscriber count', node.count_subscribers(topic))
        return report
