# SPDX-License-Identifier: Apache-2.0
"""Vendor-neutral parts of the robots' state publishers: URDF tree to TF, newest samples."""
