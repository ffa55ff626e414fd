# SPDX-License-Identifier: Apache-2.0
"""The actions of launch_testing."""

from .ready import ReadyToTest

__all__ = ['ReadyToTest']
