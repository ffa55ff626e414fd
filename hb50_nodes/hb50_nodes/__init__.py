# SPDX-License-Identifier: Apache-2.0
"""Simulated Honey Badger 5.0 stack: plain-Python models plus thin ROS 2 nodes."""
