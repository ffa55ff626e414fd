# SPDX-License-Identifier: Apache-2.0
"""rosbag2-format MCAP bags on rclpy: record, play, info, reindex, plots."""
