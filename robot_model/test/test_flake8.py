# SPDX-License-Identifier: Apache-2.0
# Copyright 2017 Open Source Robotics Foundation, Inc. (the ament_python template)
"""ament_flake8 over the package with ament's default configuration."""

from ament_flake8.main import main_with_errors
import pytest


@pytest.mark.flake8
@pytest.mark.linter
def test_flake8():
    rc, errors = main_with_errors(argv=[])
    assert rc == 0, \
        'Found %d code style errors / warnings:\n' % len(errors) + \
        '\n'.join(errors)
