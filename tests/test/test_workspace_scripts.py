# SPDX-License-Identifier: Apache-2.0
"""
The workspace's own entry points.

The README's two commands, CI calling the test
command, and the venv toolchain's repairs and idempotency.
"""

import os
import pathlib
import re
import subprocess

import pytest

WORKSPACE = pathlib.Path(__file__).resolve().parents[2]
TOOLCHAIN = os.environ.get('WS_TOOLCHAIN_MODE', '')


def readme_commands():
    text = (WORKSPACE / 'README.md').read_text(encoding='utf-8')
    block = re.search(r'```bash\n(.*?)```', text, re.S).group(1)
    return [line.split('#')[0].strip() for line in block.splitlines() if line.strip()]


def test_readme_starts_with_the_run_and_test_commands():
    assert readme_commands() == ['make run', 'make test']


def test_ci_runs_the_readme_test_command():
    ci = (WORKSPACE / '.ci' / 'run').read_text(encoding='utf-8')
    commands = [line.strip() for line in ci.splitlines()
                if line.strip() and not line.startswith(('#', 'set ', 'cd '))]
    assert commands == [readme_commands()[1]]


def test_makefile_targets_call_the_scripts():
    makefile = (WORKSPACE / 'Makefile').read_text(encoding='utf-8')
    for target, script in (('run', 'scripts/run.sh'), ('test', 'scripts/test.sh')):
        assert re.search(rf'^{target}:\n\t@{re.escape(script)}$', makefile, re.M), target


@pytest.mark.skipif(TOOLCHAIN != 'venv', reason='checks the PyPI venv toolchain only; '
                    'this run uses a sourced ROS 2 install')
def test_venv_cmake_files_no_longer_name_the_wheel_builder_python():
    venv = pathlib.Path(os.environ['VIRTUAL_ENV'])
    offenders = [str(p) for p in (venv / 'share').rglob('*.cmake')
                 if '/opt/python/cp311' in p.read_text(errors='replace')]
    assert not offenders, offenders[:5]


@pytest.mark.skipif(TOOLCHAIN != 'venv', reason='checks the PyPI venv toolchain only; '
                    'this run uses a sourced ROS 2 install')
def test_second_bootstrap_changes_nothing():
    distro = os.environ['WS_DISTRO']
    result = subprocess.run([str(WORKSPACE / 'scripts' / 'bootstrap.sh'), distro],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert 'creating' not in result.stderr and 'repaired' not in result.stderr, result.stderr
