# SPDX-License-Identifier: Apache-2.0
import random

import pytest

# This package's tests use ROS_DOMAIN_ID 55-59 (pnd_adam_sim's use 50-54).
DOMAIN_RANGE = (55, 59)


@pytest.fixture(scope='module')
def domain_id():
    return random.randint(*DOMAIN_RANGE)
