# SPDX-License-Identifier: Apache-2.0
"""
The HB50 topic table: relative names, message types, QoS profile keys, nominal rates.

Names are relative: a node resolves them in its namespace, DEFAULT_NAMESPACE (`/hb50`) unless
the command line sets another (`--ros-args -r __ns:=/robot2`), so the default names are
`/hb50/bridge_data` etc. The profiles the keys name are in qos.py. Plain Python, no rclpy.
"""

from types import SimpleNamespace
from typing import NamedTuple, Optional

DEFAULT_NAMESPACE = '/hb50'

BRIDGE_DATA = 'bridge_data'
BRIDGE_STATE = 'bridge_state'
BRIDGE_STATE_10HZ = 'bridge_state_10hz'
JOINT_COMMAND = 'joint_command'
ROBOT_STATE = 'robot_state'
ROBOT_STATE_10HZ = 'robot_state_10hz'
STATUS = 'status'
HEARTBEAT = 'heartbeat'
VELOCITY_COMMAND = 'velocity_command'
_CONSTANTS = {
    'BRIDGE_DATA': BRIDGE_DATA, 'BRIDGE_STATE': BRIDGE_STATE,
    'BRIDGE_STATE_10HZ': BRIDGE_STATE_10HZ, 'JOINT_COMMAND': JOINT_COMMAND,
    'ROBOT_STATE': ROBOT_STATE, 'ROBOT_STATE_10HZ': ROBOT_STATE_10HZ, 'STATUS': STATUS,
    'HEARTBEAT': HEARTBEAT, 'VELOCITY_COMMAND': VELOCITY_COMMAND,
}


class Topic(NamedTuple):
    """One row of the table: message type, QoS profile key (qos.PROFILES), nominal rate."""

    type_name: str
    profile: str
    rate: Optional[float]       # Hz; None: on events


TOPICS = {
    BRIDGE_DATA: Topic('hb50_commons/msg/BridgeData', 'mabRT', 500.0),
    BRIDGE_STATE: Topic('hb50_commons/msg/BridgeState', 'mabRT', 500.0),
    BRIDGE_STATE_10HZ: Topic('hb50_commons/msg/BridgeState', 'Reliable', 10.0),
    JOINT_COMMAND: Topic('hb50_commons/msg/JointCommand', 'mabRT', 500.0),
    ROBOT_STATE: Topic('hb50_commons/msg/RobotState', 'mabRT', 500.0),
    ROBOT_STATE_10HZ: Topic('hb50_commons/msg/RobotState', 'Reliable', 10.0),
    STATUS: Topic('hb50_commons/msg/Status', 'Reliable', None),
    HEARTBEAT: Topic('hb50_commons/msg/Status', 'Reliable', None),
    VELOCITY_COMMAND: Topic('geometry_msgs/msg/Twist', 'mabRT', None),
}


def resolve(name: str, namespace: str = DEFAULT_NAMESPACE) -> str:
    """Return the absolute name of topic `name` of the table in `namespace` ('/' = root)."""
    return namespace.rstrip('/') + '/' + name


def absolute(namespace: str = DEFAULT_NAMESPACE) -> SimpleNamespace:
    """Return the table's names resolved in `namespace` as attributes (.BRIDGE_DATA ...)."""
    return SimpleNamespace(**{constant: resolve(name, namespace)
                              for constant, name in _CONSTANTS.items()})


def relative(topic: str) -> str:
    """Return the table's name of `topic`, given relative or absolute ('/robot1/status')."""
    name = topic.rsplit('/', 1)[-1]
    if name not in TOPICS:
        raise KeyError(f'{topic!r} is no HB50 topic')
    return name


def spec(topic: str) -> Topic:
    """Return the Topic row of `topic` (relative or absolute name)."""
    return TOPICS[relative(topic)]
