# SPDX-License-Identifier: Apache-2.0
"""The QoS of robot_description, /tf and /tf_static (as robot_state_publisher and tf2)."""

from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

# Latched: a late joiner gets the newest sample at once; volatile readers still match.
LATCHED = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=1,
                     reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)
# tf2's /tf profile: reliable, 100 deep, volatile.
TF_QOS = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=100,
                    reliability=ReliabilityPolicy.RELIABLE,
                    durability=DurabilityPolicy.VOLATILE)
