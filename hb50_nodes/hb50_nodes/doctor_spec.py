# SPDX-License-Identifier: Apache-2.0
"""
What the HB50 doctor expects of a running stack: topics, producers, rates, timings.

The figures the listening (doctor_measurement), the rules (doctor_findings) and the report
(doctor) share.
"""

from . import topics

WINDOW_S = 1.2          # s of listening once the samples flow
LONGEST_S = 5.0         # s of listening at most when nothing arrives
RATE_TOLERANCE = 0.02
HEARTBEAT_S = 1.0
BRIDGE_TYPE = 'hb50_commons/msg/BridgeData'
# Topics every running stack has (velocity_command only when a user publishes it).
REQUIRED = (topics.BRIDGE_DATA, topics.BRIDGE_STATE, topics.BRIDGE_STATE_10HZ,
            topics.JOINT_COMMAND, topics.ROBOT_STATE, topics.ROBOT_STATE_10HZ, topics.STATUS,
            topics.HEARTBEAT)
# The 500 Hz topics whose rate is measured: they start with a std_msgs/Header.
MEASURED = (topics.BRIDGE_DATA, topics.ROBOT_STATE)
PRODUCER = {topics.BRIDGE_DATA: 'bridge_node', topics.BRIDGE_STATE: 'bridge_node',
            topics.BRIDGE_STATE_10HZ: 'bridge_node', topics.JOINT_COMMAND: 'control_node',
            topics.ROBOT_STATE: 'control_node', topics.ROBOT_STATE_10HZ: 'control_node',
            topics.STATUS: 'any HB50 node', topics.HEARTBEAT: 'any HB50 node'}
PRIMARY_SOURCE = 'control_node'
