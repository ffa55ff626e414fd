# SPDX-License-Identifier: Apache-2.0
"""Vendor-neutral robot model maths: quaternions (x, y, z, w), URDF joints and URDF writing."""
