# SPDX-License-Identifier: Apache-2.0
"""Foxglove WebSocket live view of every ROS 2 topic."""
