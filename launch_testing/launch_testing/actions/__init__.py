# SPDX-License-Identifier: Apache-2.0
"""The actions of launch_testing."""

from .gtest import GTest
from .pytest import PyTest
from .ready import ReadyToTest
from .test import Test

__all__ = ['GTest', 'PyTest', 'ReadyToTest', 'Test']
