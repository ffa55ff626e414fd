# SPDX-License-Identifier: Apache-2.0
"""ament_flake8 and ament_pep257 (ament defaults) over benchmarks/, which is no package."""

from pathlib import Path

from ament_flake8.main import main_with_errors
from ament_pep257.main import main as pep257_main
import pytest

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
