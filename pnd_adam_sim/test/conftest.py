# SPDX-License-Identifier: Apache-2.0
import random

import pytest

# This package's tests use ROS_DOMAIN_ID 50-54 (pnd_adam_examples' use 55-59), so the two
# packages can be tested at the same time without hearing each other.
DOMAIN_RANGE = (50, 54)


@pytest.fixture(scope='module')
def domain_id():
    return random.randint(*DOMAIN_RANGE)
