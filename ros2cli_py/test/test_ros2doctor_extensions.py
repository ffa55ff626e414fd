# SPDX-License-Identifier: Apache-2.0
"""
Checks and reports of other distributions (``ros2doctor.checks`` / ``ros2doctor.report``).

A test distribution (a ``.dist-info`` with entry points, on PYTHONPATH) adds a passing, a
failing, a raising and an unloadable check and two reports to `ros2 doctor`: each
misbehaving one is one warning line, and never stops the others. The same through
monkeypatched entry points in this process, and an interface that cannot be queried.
"""

import importlib.metadata
import os
import re

import pytest
from ros2doctor import api
from ros2doctor.api import network
from ros2doctor.api import Report
from ros2doctor.api import Result

# -- the extension classes (also loaded by the test distribution from this module) -----------


class PassingCheck(api.DoctorCheck):
    """A check that passes."""

    def category(self):
        return 'fixture_ok'

    def check(self):
        return Result()


class FailingCheck(api.DoctorCheck):
    """A check with one error."""

    def category(self):
        return 'fixture_broken'

    def check(self):
        api.format.doctor_error('fixture link down: plug it in')
        result = Result()
        result.add_error()
        return result


class WarningCheck(api.DoctorCheck):
    """A check with one warning."""

    def category(self):
        return 'fixture_warned'

    def check(self):
        result = Result()
        result.add_warning()
        return result


class RaisingCheck(api.DoctorCheck):
    """A check that raises."""

    def category(self):
        return 'fixture_raises'

    def check(self):
        raise RuntimeError('boom\nsecond line')


class BrokenReport(api.DoctorReport):
    """A report of the failing check's category."""

    def category(self):
        return 'fixture_broken'

    def report(self):
        report = Report('FIXTURE LINK')
        report.add_to_report('state', 'down')
        return report


class RaisingReport(api.DoctorReport):
    """A report that raises."""

    def category(self):
        return 'fixture_broken'

    def report(self):
        raise ValueError('no report')


MODULE = 'test_ros2doctor_extensions'
CHECKS = {'FixturePassing': 'PassingCheck', 'FixtureFailing': 'FailingCheck',
          'FixtureWarning': 'WarningCheck', 'FixtureRaising': 'RaisingCheck'}
REPORTS = {'FixtureReport': 'BrokenReport', 'FixtureRaisingReport': 'RaisingReport'}


def _entry_points():
    eps = [importlib.metadata.EntryPoint(n, f'{MODULE}:{c}', api.CHECKS_GROUP)
           for n, c in CHECKS.items()]
    eps += [importlib.metadata.EntryPoint(n, f'{MODULE}:{c}', api.REPORTS_GROUP)
            for n, c in REPORTS.items()]
    eps.append(importlib.metadata.EntryPoint('FixtureMissing', 'no_such_module_x:Check',
                                             api.CHECKS_GROUP))
    return importlib.metadata.EntryPoints(eps)


@pytest.fixture
def fixture_entry_points(monkeypatch):
    monkeypatch.setattr(importlib.metadata, 'entry_points', _entry_points)


def test_run_checks_through_entry_points(fixture_entry_points, capsys):
    categories, failed, total = api.run_checks()
    assert (categories, failed, total) == ({'fixture_broken'}, 1, 3)
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3, err
    assert err[0].endswith('UserWarning: ERROR: fixture link down: plug it in')
    assert err[1].endswith('UserWarning: Fail to call FixtureRaising class functions: '
                           'RuntimeError: boom')
    assert err[2].endswith('UserWarning: Check entry point FixtureMissing fails to load: '
                           "ModuleNotFoundError: No module named 'no_such_module_x'")
    categories, failed, total = api.run_checks(include_warnings=True)
    assert (categories, failed) == ({'fixture_broken', 'fixture_warned'}, 2)


def test_generate_reports_through_entry_points(fixture_entry_points, capsys):
    reports = api.generate_reports()
    assert [(r.name, r.items) for r in reports] == [('FIXTURE LINK', [('state', 'down')])]
    assert capsys.readouterr().err.strip().endswith(
        'Fail to call FixtureRaisingReport class functions: ValueError: no report')
    assert api.generate_reports(categories={'other'}) == []


def test_unqueryable_interface(monkeypatch, capsys):
    from ros2doctor.api import interfaces
    monkeypatch.setattr(interfaces, 'interface_names', lambda: ['lo', 'nosuchif0'])
    result = network.NetworkCheck().check()
    err = capsys.readouterr().err.splitlines()
    assert [line for line in err if 'nosuchif0' in line] == [
        line for line in err if line.endswith(
            'UserWarning: Unable to query network interface nosuchif0: No such device')], err
    assert len([line for line in err if 'nosuchif0' in line]) == 1, err
    # lo alone: loopback only is a warning, not an error
    assert result.error == 0 and result.warning >= 1


def test_test_distribution_in_cli(ros2, tmp_path):
    """An installed distribution's entry points reach `ros2 doctor`; failures stay local."""
    info = tmp_path / 'doctor_fixture_ext-0.1.dist-info'
    info.mkdir()
    (info / 'METADATA').write_text('Metadata-Version: 2.1\nName: doctor-fixture-ext\n'
                                   'Version: 0.1\n')
    lines = ['[ros2doctor.checks]'] + [f'{n} = {MODULE}:{c}' for n, c in CHECKS.items()]
    lines += ['FixtureMissing = no_such_module_x:Check', '', '[ros2doctor.report]']
    lines += [f'{n} = {MODULE}:{c}' for n, c in REPORTS.items()]
    (info / 'entry_points.txt').write_text('\n'.join(lines) + '\n')
    env = dict(ros2.env)
    here = os.path.dirname(os.path.abspath(__file__))
    env['PYTHONPATH'] = os.pathsep.join([str(tmp_path), here, env.get('PYTHONPATH', '')])
    baseline = ros2('doctor', '-ep')
    installed = int(re.search(r'All (\d+) checks passed|/(\d+) check', baseline.out).group(
        1 if 'passed' in baseline.out else 2))
    checked = ros2('doctor', '-ep', env=env)
    failed_reports = ros2('doctor', '-rf', '-ep', env=env)
    for result in (checked, failed_reports):
        assert result.code == 0 and 'Traceback' not in result.err, result
        assert 'Failed modules: fixture_broken' in result.out, result
        assert 'Fail to call FixtureRaising class functions' in result.err, result
        assert 'Check entry point FixtureMissing fails to load' in result.err, result
    # every installed check ran beside them, plus the three that ran to the end
    assert f'/{installed + 3} check(s) failed' in checked.out, (baseline, checked)
    assert '\n   FIXTURE LINK\nstate   : down\n' in failed_reports.out, failed_reports
    assert 'TOPIC LIST' not in failed_reports.out, failed_reports
