# SPDX-License-Identifier: Apache-2.0
"""The former home of `show_lines` (now `ros2cli_py.api.interface`), kept importable."""

from ros2cli_py.api.interface import show_lines

__all__ = ['show_lines']
