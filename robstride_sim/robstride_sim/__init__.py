# SPDX-License-Identifier: Apache-2.0
"""Simulated RobStride hardware interface (robstride_hardware_interface look-alike)."""
