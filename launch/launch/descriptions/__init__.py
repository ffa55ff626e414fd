# SPDX-License-Identifier: Apache-2.0
"""Descriptions of what launch runs."""

from .executable import Executable

__all__ = ['Executable']
