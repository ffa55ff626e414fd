# SPDX-License-Identifier: Apache-2.0
"""QoS profiles of the robstride_sim topics (shared by the node, the client and the tests)."""
from rclpy.qos import HistoryPolicy, QoSProfile, ReliabilityPolicy

# ~/robstride_state and joint_states: what ros2_control's publishers use (reliable, depth 10).
STATE_QOS = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=10,
                       reliability=ReliabilityPolicy.RELIABLE)

# ~/joint_commands: best effort, so both reliable and best-effort publishers match it.
COMMAND_QOS = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=10,
                         reliability=ReliabilityPolicy.BEST_EFFORT)
