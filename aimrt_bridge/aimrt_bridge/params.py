# SPDX-License-Identifier: Apache-2.0
"""The bridge's parameters, each with its default and descriptor (node_runtime.parameters)."""

from typing import Any, Dict

from aimrt_protocols_py.messages import ImuState, JointState, TouchState
from node_runtime.parameters import Parameter

# AimRT message kinds the bridge can receive, by the name used in `state_types`.
STATE_KINDS: Dict[str, Any] = {'JointState': JointState, 'ImuState': ImuState,
                               'TouchState': TouchState}

# Every parameter with its default and descriptor, in one place (config/aimrt_bridge.yaml
# lists them with the QoS overrides). accept_unknown_fields and log_period_sec can change at
# run time (ros2 param set); the rest is read at start-up.
PARAMETERS = (
    # HTTP server (AimRT -> ROS 2). AimRT's examples use 127.0.0.1:50080.
    Parameter('http_host', '127.0.0.1', 'address the HTTP server (AimRT -> ROS 2) listens '
              "on; put it in the AimRT publisher's server_url_list"),
    Parameter('http_port', 50080, 'TCP port of the HTTP server; 0 = any free port',
              value_range=(0, 65535)),
    Parameter('http_connection_limit', 1024, 'open HTTP connections at most; a new one '
              'closes the oldest idle connection (else the oldest)', value_range=(1, 100000)),
    Parameter('http_idle_timeout_sec', 10, 'an idle kept-alive connection is closed after '
              'this long [s, whole seconds]', value_range=(1, None)),
    Parameter('http_header_timeout_sec', 5.0, 'time from the first byte of a request to the '
              'end of its header block, whatever the pace (408 and close after) [s]',
              value_range=(0.001, 3600.0)),
    Parameter('http_body_timeout_sec', 10.0, 'time from the end of a header block to the end '
              'of its body (the connection is closed after) [s]',
              value_range=(0.001, 3600.0)),
    Parameter('http_max_body_bytes', 16 * 1024 * 1024, 'request bodies of this size or '
              'more get 413 [bytes]', value_range=(1, None)),
    Parameter('http_max_header_bytes', 64 * 1024, 'largest request header block (431 above) '
              '[bytes]', value_range=(1, None)),
    # parallel lists: AimRT topic i carries state_types[i] and is republished on ROS topic i
    Parameter('state_aimrt_topics', ['joint_state', 'imu_state', 'touch_state'],
              'AimRT topics accepted from AimRT publishers (POST /channel/{topic}/{type})',
              constraints='as many entries as state_types and state_ros_topics'),
    Parameter('state_types', ['JointState', 'ImuState', 'TouchState'],
              'AimRT message kind carried by the AimRT topic of the same index',
              choices=tuple(STATE_KINDS)),
    Parameter('state_ros_topics', ['aimrt/joint_states', 'aimrt/imu', 'aimrt/touch'],
              'ROS 2 topic the AimRT topic of the same index is republished on'),
    # parallel lists (ROS 2 -> AimRT): ROS topic i -> AimRT topic i, POSTed to every
    # 'ip:port' in the comma-separated command_addresses[i]
    Parameter('command_ros_topics', ['aimrt/joint_command'],
              'ROS 2 topics of aimrt_protocols_msgs/JointCommand forwarded to AimRT',
              constraints='as many entries as command_aimrt_topics and command_addresses'),
    Parameter('command_aimrt_topics', ['joint_command'],
              'AimRT topic the ROS 2 command topic of the same index is POSTed as'),
    Parameter('command_addresses', ['127.0.0.1:50081'],
              "comma-separated 'ip:port' list of AimRT http subscribers per command topic"),
    Parameter('command_type_name', 'pb:aimrt.protocols.sensor.JointCommand',
              'AimRT type name of the commands sent (AimRT >= 0.10 subscribers expect '
              'pb:aimrt.protocols.sensor.JointCommandArray)',
              constraints='a JointCommand type name'),
    Parameter('command_serialization', 'pb', 'body of the commands sent: protobuf or JSON',
              choices=('pb', 'json')),
    Parameter('http_timeout_sec', 1.0, 'timeout of one command POST to a target [s]',
              value_range=(0.001, None)),
    Parameter('command_queue_depth', 8, 'commands waiting per target; when a target is slow '
              'or dead the oldest are dropped', value_range=(1, None)),
    Parameter('log_period_sec', 5.0, 'at most one warning per target and reason in this '
              'period [s] (changeable at run time)', read_only=False,
              value_range=(0.0, None)),
    Parameter('diagnostics_period_sec', 1.0, 'period of the forward status of each command '
              'target on /diagnostics (diagnostic_msgs/DiagnosticArray) [s]',
              value_range=(0.1, 60.0)),
    Parameter('accept_unknown_fields', True, 'protobuf fields / JSON keys this schema does '
              "not know (e.g. AimRT >= 0.10's Header.sequence_num): true drops them (logged "
              'once per topic) and publishes the rest, false refuses the message with HTTP '
              '422 (changeable at run time)', read_only=False),
)
