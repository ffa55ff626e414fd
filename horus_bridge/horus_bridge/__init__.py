# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""HORUS shared memory <-> ROS 2 bridge."""
