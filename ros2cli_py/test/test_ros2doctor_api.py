# SPDX-License-Identifier: Apache-2.0
"""
ros2doctor's test_api.py, transcribed: TopicCheck and TopicReport on a graph with no topics.

As upstream, the daemon of the domain is restarted first and nothing else runs in the domain
(a domain of this module's own); the checks run in this process, as upstream's do. Plus the
API's building blocks (Report, Result, the report layout).
"""

import os

from conftest import Ros2
import pytest
from ros2doctor.api import Report
from ros2doctor.api import Result
from ros2doctor.api.format import compute_padding
from ros2doctor.api.format import format_print
from ros2doctor.api.topic import TopicCheck
from ros2doctor.api.topic import TopicReport
import workspace_testing as wt


@pytest.fixture(scope='module')
def empty_domain():
    """Yield a domain with only the (restarted) daemon in it; this process joins it."""
    domain = wt.allocate_domain()
    runner = Ros2(domain)
    saved = {k: os.environ.get(k) for k in ('ROS_DOMAIN_ID', 'ROS_AUTOMATIC_DISCOVERY_RANGE')}
    try:
        assert runner('daemon', 'stop').code == 0
        assert runner('daemon', 'start').code == 0
        os.environ.update(ROS_DOMAIN_ID=str(domain), ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST')
        yield domain
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        runner('daemon', 'stop')
        wt.release_domain(domain)


def _generate_expected_report(topic, pub_count, sub_count):
    expected = Report('TOPIC LIST')
    expected.add_to_report('topic', topic)
    expected.add_to_report('publisher count', pub_count)
    expected.add_to_report('subscriber count', sub_count)
    return expected


def test_topic_check(empty_domain):
    """No topics other than the skipped ones: no error, no warning."""
    result = TopicCheck().check()
    assert (result.error, result.warning) == (0, 0)


def test_topic_report(empty_domain):
    """No topics other than the skipped ones: 'none' with zero counts."""
    report = TopicReport().report()
    expected = _generate_expected_report('none', 0, 0)
    assert report.name == expected.name
    assert report.items == expected.items


def test_result_counts():
    result = Result()
    assert (result.error, result.warning) == (0, 0)
    result.add_error()
    result.add_warning()
    result.add_warning()
    assert (result.error, result.warning) == (1, 2)


def test_report_layout(capsys):
    """Padding: at least 8; the longest item name plus 4 from 8 characters on."""
    assert compute_padding([('a', 1)]) == 8
    assert compute_padding([('abcdefgh', 1), ('x', 2)]) == 12
    report = Report('SOME REPORT')
    report.add_to_report('short', 1)
    report.add_to_report('a much longer name', 'v')
    format_print(report)
    assert capsys.readouterr().out == (
        '\n   SOME REPORT\n'
        'short                 : 1\n'
        'a much longer name    : v\n')
