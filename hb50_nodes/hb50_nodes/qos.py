# SPDX-License-Identifier: Apache-2.0
"""
The vendor's two QoS profiles and bridge_node's command reader, defined once.

Which topic uses which profile is in the topic table (topics.py).
"""

from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

from . import topics

# Vendor "mabRT": newest sample only, never retransmitted (500 Hz control traffic).
MAB_RT = QoSProfile(
    history=HistoryPolicy.KEEP_LAST, depth=1,
    reliability=ReliabilityPolicy.BEST_EFFORT, durability=DurabilityPolicy.VOLATILE)

# Vendor "Reliable": 10 deep, retransmitted (events, heartbeats, 10 Hz UI topics).
RELIABLE = QoSProfile(
    history=HistoryPolicy.KEEP_LAST, depth=10,
    reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.VOLATILE)

# bridge_node's reader of joint_command. The vendor's mabRT profile binds the publishers
# (best effort, so this reader must be best effort too); the reader's history is ours. With
# KEEP_LAST 1 any other sample (control_node's 500 Hz stream, invalid traffic) arriving before
# the executor takes a custom source's valid command would replace it, and the arbiter would
# miss it. The executor takes the samples one by one in arrival order, so every command is
# validated and seen as long as fewer than JOINT_COMMAND_DEPTH samples arrive while bridge_node
# is busy (64 samples: 128 ms of control_node's stream, or a 20 ms stall under 3 kHz of
# traffic). Memory stays bounded: DDS keeps at most this many samples.
JOINT_COMMAND_DEPTH = 64
JOINT_COMMAND_READER = QoSProfile(
    history=HistoryPolicy.KEEP_LAST, depth=JOINT_COMMAND_DEPTH,
    reliability=ReliabilityPolicy.BEST_EFFORT, durability=DurabilityPolicy.VOLATILE)

PROFILES = {'mabRT': MAB_RT, 'Reliable': RELIABLE}


def profile_for(topic: str) -> QoSProfile:
    """Return the QoS profile the spec assigns to `topic` (relative or absolute name)."""
    return PROFILES[topics.spec(topic).profile]
