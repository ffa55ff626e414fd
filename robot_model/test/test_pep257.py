# SPDX-License-Identifier: Apache-2.0
# Copyright 2015 Open Source Robotics Foundation, Inc. (the ament_python template)
"""ament_pep257 over the package with ament's default configuration."""

from ament_pep257.main import main
import pytest


@pytest.mark.linter
@pytest.mark.pep257
def test_pep257():
    rc = main(argv=['.', 'test'])
    assert rc == 0, 'Found code style errors / warnings'
