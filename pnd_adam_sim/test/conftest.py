# SPDX-License-Identifier: Apache-2.0
"""The simulator's DDS domain: one per test module from workspace_testing's allocator."""
import pytest
from workspace_testing import allocate_domain, release_domain


@pytest.fixture(scope='module')
def domain_id():
    """Return a ROS_DOMAIN_ID (also Cyclone's domain) no other live test holds."""
    domain = allocate_domain()
    yield domain
    release_domain(domain)
