# SPDX-License-Identifier: Apache-2.0
"""
pytest fixtures over the allocator, for a package's conftest.py to take in.

A conftest.py imports the fixtures it wants (pytest registers every fixture function found
in a conftest module's namespace)::

    from workspace_testing.pytest_fixtures import domain_id  # noqa: F401

This module imports pytest; the rest of workspace_testing does not (benchmarks use it).
"""

import pytest

from .domain import allocate_domain, release_domain


@pytest.fixture(scope='module')
def domain_id():
    """Return a ROS_DOMAIN_ID no other live test process holds, released after the module."""
    domain = allocate_domain()
    yield domain
    release_domain(domain)
