# SPDX-License-Identifier: Apache-2.0
"""
What a package's conftest.py shares: the one DDS-domain fixture and the installed-package path.

- `domain_id`: the workspace's one domain fixture. A conftest.py imports it (pytest registers
  every fixture function found in a conftest module's namespace)::

      from workspace_testing.pytest_fixtures import domain_id  # noqa: F401

- `use_installed_package(__file__)`: called by a conftest.py, makes the tests import the
  installed package rather than its source folder.

This module imports pytest; the rest of workspace_testing does not (benchmarks use it).
"""

import os
import sys
from typing import Iterator

import pytest

from .domain import allocate_domain, localhost_env, release_domain

_ENV_KEYS = ('ROS_DOMAIN_ID', 'ROS_AUTOMATIC_DISCOVERY_RANGE')


def use_installed_package(conftest_file: str) -> None:
    """
    Drop the source folder of the package `conftest_file` (its test/conftest.py) from sys.path.

    colcon runs `python -m pytest` from the package's source folder, which puts that folder
    first on sys.path: its Python package would shadow the installed one, which is what the
    tests are for (and which alone has what the build generates, e.g. protoc output).
    """
    source_root = os.path.dirname(os.path.dirname(os.path.abspath(conftest_file)))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != source_root]


@pytest.fixture(scope='module')
def domain_id() -> Iterator[int]:
    """
    Give the test module a ROS_DOMAIN_ID no other live test process holds.

    For the module's duration this process's environment is on it too, discovery on this
    host (`localhost_env`): an in-process rclpy.init() and every child started without an
    explicit `env` join it. Afterwards the environment is restored and the domain released.
    """
    domain = allocate_domain()
    saved = {key: os.environ.get(key) for key in _ENV_KEYS}
    os.environ.update({key: localhost_env(domain, {})[key] for key in _ENV_KEYS})
    try:
        yield domain
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        release_domain(domain)
