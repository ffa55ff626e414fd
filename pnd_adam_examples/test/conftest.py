# SPDX-License-Identifier: Apache-2.0
"""Domain of the interop tests (simulator, rclpy peer, Cyclone observer): one per module."""
import pytest
from workspace_testing import allocate_domain, release_domain


@pytest.fixture(scope='module')
def domain_id():
    """Return a ROS_DOMAIN_ID no other live test holds, released after the module."""
    domain = allocate_domain()
    yield domain
    release_domain(domain)
