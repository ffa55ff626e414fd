# SPDX-License-Identifier: Apache-2.0
"""ament_flake8, ament_pep257 (ament defaults) and mypy --strict over benchmarks/ (no package)."""

from pathlib import Path

from ament_flake8.main import main_with_errors
from ament_pep257.main import main as pep257_main
import pytest
from workspace_testing.mypy_strict import mypy_strict

BENCHMARKS = Path(__file__).resolve().parents[2] / 'benchmarks'


@pytest.mark.flake8
@pytest.mark.linter
def test_benchmarks_flake8():
    rc, errors = main_with_errors(argv=[str(BENCHMARKS)])
    assert rc == 0, \
        'Found %d code style errors / warnings:\n' % len(errors) + '\n'.join(errors)


@pytest.mark.linter
@pytest.mark.pep257
def test_benchmarks_pep257():
    rc = pep257_main(argv=[str(BENCHMARKS)])
    assert rc == 0, 'Found code style errors / warnings'


@pytest.mark.linter
def test_benchmarks_mypy_strict(tmp_path):
    scripts = sorted(str(path) for path in BENCHMARKS.glob('*.py'))
    result = mypy_strict(tmp_path, *scripts)
    assert result.returncode == 0, result.stdout + result.stderr
