# SPDX-License-Identifier: Apache-2.0
"""
ros2doctor.api.link's plugin bases and listening helpers, in this process.

A DoctorLink with its LinkCheck and LinkReport (as a vendor's entry points subclass them):
the check prints each finding of a fresh diagnosis run, the report shares that run (its
status when nothing runs, then each section); add_sections alone. private_node and spin_for
on a context of the test's own (a domain of this module's), node_parameters through them.
"""

import re
import threading

import pytest
from ros2doctor.api import Report
from ros2doctor.api.link import add_sections
from ros2doctor.api.link import DoctorLink
from ros2doctor.api.link import LinkCheck
from ros2doctor.api.link import LinkDiagnosis
from ros2doctor.api.link import LinkReport
from ros2doctor.api.link import node_parameters
from ros2doctor.api.link import private_node
from ros2doctor.api.link import spin_for
import workspace_testing as wt


class Diagnose:
    """A diagnosis of fixed findings and sections that counts its runs."""

    def __init__(self, findings=(), sections=(), running=True):
        self.findings, self.sections, self.running = list(findings), list(sections), running
        self.runs = 0

    def __call__(self):
        self.runs += 1
        run = LinkDiagnosis()
        run.findings += self.findings
        run.sections += self.sections
        run.running = self.running
        return run


def _plugin(diagnose, **texts):
    """Return (check, report) classes of a DoctorLink of ``diagnose``, as a vendor's are."""
    link = DoctorLink('fixture_link', diagnose, prefix='Fixture', title='FIXTURE LINK',
                      idle=texts.pop('idle', 'not running (no fixture node)'), **texts)

    class FixtureCheck(LinkCheck, link=link):
        """The check of the fixture link."""

    class FixtureReport(LinkReport, link=link):
        """The report of the fixture link."""

    return FixtureCheck, FixtureReport


def test_check_prints_each_finding_and_counts_it(capsys):
    check, report = _plugin(Diagnose(findings=[('error', 'link down: plug it in'),
                                               ('warning', 'slow: 3 Hz, not 5 Hz')]))
    assert check().category() == report().category() == 'fixture_link'
    result = check().check()
    assert (result.error, result.warning) == (1, 1)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    assert re.search(r'link\.py: \d+: UserWarning: ERROR: Fixture: link down: plug it in$',
                     lines[0]), lines
    assert lines[1].endswith('UserWarning: Fixture: slow: 3 Hz, not 5 Hz'), lines


def test_check_without_findings_is_silent(capsys):
    check, _ = _plugin(Diagnose())
    result = check().check()
    assert (result.error, result.warning) == (0, 0)
    assert capsys.readouterr().err == ''


def test_report_shares_the_check_run():
    diagnose = Diagnose(findings=[('error', 'x')], sections=[
        ('/robot/bridge', {'target 1': 'reachable', 'rate': '500.0 Hz'}),
        ('network', {'interface': 'lo'})])
    check, report = _plugin(diagnose, label='bridge')
    check().check()
    built = report().report()
    assert diagnose.runs == 1           # the report took the check's run
    assert isinstance(built, Report) and built.name == 'FIXTURE LINK'
    assert built.items == [('bridge', '/robot/bridge'), ('target 1', 'reachable'),
                           ('rate', '500.0 Hz'), ('bridge', 'network'), ('interface', 'lo')]
    check().check()
    assert diagnose.runs == 2           # each check runs it afresh


def test_report_alone_runs_the_diagnosis_once():
    diagnose = Diagnose(sections=[('can0', {'motor 1': 'answers'})])
    _, report = _plugin(diagnose)
    assert report().report().items == [('link', 'can0'), ('motor 1', 'answers')]
    assert report().report().items == [('link', 'can0'), ('motor 1', 'answers')]
    assert diagnose.runs == 1


def test_report_says_not_running_then_the_sections():
    _, report = _plugin(Diagnose(sections=[('scan', {'status': 'not scanned: no cyclonedds'})],
                                 running=False))
    assert report().report().items == [('status', 'not running (no fixture node)'),
                                       ('link', 'scan'),
                                       ('status', 'not scanned: no cyclonedds')]


def test_idle_status_computed_at_report_time():
    domains = ['2']
    _, report = _plugin(Diagnose(running=False),
                        idle=lambda: f"not running (domains {', '.join(domains)})")
    domains.append('0')
    assert report().report().items == [('status', 'not running (domains 2, 0)')]


def test_add_sections_in_order():
    report = Report('R')
    assert add_sections(report, 'node', [('/a', {'k': 'v'}), ('/b', {})]) is report
    assert report.items == [('node', '/a'), ('k', 'v'), ('node', '/b')]
    assert add_sections(Report('E'), 'node', []).items == []


class _Executor:
    def __init__(self):
        self.timeouts = []

    def spin_once(self, timeout_sec):
        self.timeouts.append(timeout_sec)


def test_spin_for_spins_for_the_time_given():
    executor = _Executor()
    spin_for(executor, 0.0)
    assert executor.timeouts == []
    spin_for(executor, 0.01, step_s=0.001)
    assert executor.timeouts and set(executor.timeouts) == {0.001}


@pytest.fixture
def ros_node():
    """Yield a node on a context of its own in a domain of this test's (localhost only)."""
    rclpy = pytest.importorskip('rclpy')
    domain = wt.allocate_domain()
    context = rclpy.Context()
    rclpy.init(context=context, domain_id=domain)
    node = rclpy.create_node('link_fixture', context=context)
    try:
        yield node
    finally:
        node.destroy_node()
        rclpy.shutdown(context=context)
        wt.release_domain(domain)


def test_private_node_listens_then_is_torn_down(ros_node):
    from std_msgs.msg import String
    heard = []
    publisher = ros_node.create_publisher(String, 'link_fixture_topic', 10)
    with private_node(ros_node, 'link_test') as (own, executor):
        assert re.fullmatch(r'_link_test_\d+_\d+', own.get_name())
        assert own.context is ros_node.context
        own.create_subscription(String, 'link_fixture_topic', lambda m: heard.append(m.data), 10)
        for _ in range(100):            # until discovery matched them, then one more
            publisher.publish(String(data='hello'))
            spin_for(executor, 0.05)
            if heard:
                break
    assert heard and heard[0] == 'hello'
    assert executor.get_nodes() == []
    with pytest.raises(Exception):      # destroyed: its handle is gone
        own.get_name()


def test_node_parameters_through_a_private_node(ros_node):
    from rclpy.executors import SingleThreadedExecutor
    ros_node.declare_parameter('rate_hz', 500)
    server = SingleThreadedExecutor(context=ros_node.context)
    server.add_node(ros_node)
    thread = threading.Thread(target=server.spin, daemon=True)
    thread.start()
    try:
        values = node_parameters(ros_node, '/link_fixture', ['rate_hz'], timeout_s=5.0)
        assert values == {'rate_hz': 500}
        assert node_parameters(ros_node, '/no_such_node', ['rate_hz'], timeout_s=0.2) is None
    finally:
        server.shutdown()
        thread.join(5.0)
