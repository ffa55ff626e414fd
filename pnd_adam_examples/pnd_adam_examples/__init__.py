# SPDX-License-Identifier: Apache-2.0
"""rclpy example for the PND Adam U and the Fast DDS profile that lets it talk to the robot."""
