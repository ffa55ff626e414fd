# SPDX-License-Identifier: Apache-2.0
"""The two vendor QoS profiles and the topic table, defined once for every node and test."""

from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

# Vendor "mabRT": newest sample only, never retransmitted (500 Hz control traffic).
MAB_RT = QoSProfile(
    history=HistoryPolicy.KEEP_LAST, depth=1,
    reliability=ReliabilityPolicy.BEST_EFFORT, durability=DurabilityPolicy.VOLATILE)

# Vendor "Reliable": 10 deep, retransmitted (events, heartbeats, 10 Hz UI topics).
RELIABLE = QoSProfile(
    history=HistoryPolicy.KEEP_LAST, depth=10,
    reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.VOLATILE)

NAMESPACE = '/hb50'
BRIDGE_DATA = NAMESPACE + '/bridge_data'
BRIDGE_STATE = NAMESPACE + '/bridge_state'
BRIDGE_STATE_10HZ = NAMESPACE + '/bridge_state_10hz'
JOINT_COMMAND = NAMESPACE + '/joint_command'
ROBOT_STATE = NAMESPACE + '/robot_state'
ROBOT_STATE_10HZ = NAMESPACE + '/robot_state_10hz'
STATUS = NAMESPACE + '/status'
HEARTBEAT = NAMESPACE + '/heartbeat'
VELOCITY_COMMAND = NAMESPACE + '/velocity_command'

# topic -> (type name, QoS profile name, nominal rate in Hz or None for "on events").
TOPICS = {
    BRIDGE_DATA: ('hb50_commons/msg/BridgeData', 'mabRT', 500.0),
    BRIDGE_STATE: ('hb50_commons/msg/BridgeState', 'mabRT', 500.0),
    BRIDGE_STATE_10HZ: ('hb50_commons/msg/BridgeState', 'Reliable', 10.0),
    JOINT_COMMAND: ('hb50_commons/msg/JointCommand', 'mabRT', 500.0),
    ROBOT_STATE: ('hb50_commons/msg/RobotState', 'mabRT', 500.0),
    ROBOT_STATE_10HZ: ('hb50_commons/msg/RobotState', 'Reliable', 10.0),
    STATUS: ('hb50_commons/msg/Status', 'Reliable', None),
    HEARTBEAT: ('hb50_commons/msg/Status', 'Reliable', None),
    VELOCITY_COMMAND: ('geometry_msgs/msg/Twist', 'mabRT', None),
}

# bridge_node's reader of /hb50/joint_command. The vendor's mabRT profile binds the publishers
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


def profile_for(topic):
    """Return the QoS profile the spec assigns to `topic`."""
    return PROFILES[TOPICS[topic][1]]
