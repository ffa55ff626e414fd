# SPDX-License-Identifier: Apache-2.0
"""
`ros2 interface show` against ros2cli's documented format.

ros2cli prints the definition file line by line; after a field of a message type it prints
that type's definition indented by one tab per level. Nested definitions lose their comments,
blank lines and the trailing comments of fields (constants keep theirs: ros2cli only strips
trailing comments of fields), unless --all-comments; --no-comments strips the top level too.
The expected texts below are written by hand from the .msg files and these rules.
"""

import os

from ament_index_python.packages import get_package_share_directory
import pytest

STATUS = """\
# Event and health report. Events on /hb50/status, heartbeats (level OK, >= 1 Hz per
# node) on /hb50/heartbeat; both QoS Reliable.

# Time of the event; frame_id unused.
std_msgs/Header header
\tbuiltin_interfaces/Time stamp
\t\tint32 sec
\t\tuint32 nanosec
\tstring frame_id
# Severity, one of the constants below.
byte level
byte OK = 1     # normal operation
byte WARN = 2   # warning condition
byte ERROR = 3  # error condition
byte STALE = 4  # stale/timeout condition (e.g. a node's heartbeat stopped)
# Name of the node sending (or, for STALE, the node reported on).
string reporting_node
# Human-readable message.
string status
# Optional structured data (node-specific).
byte[] data
"""

STATUS_NO_COMMENTS = """\
std_msgs/Header header
\tbuiltin_interfaces/Time stamp
\t\tint32 sec
\t\tuint32 nanosec
\tstring frame_id
byte level
byte OK = 1     # normal operation
byte WARN = 2   # warning condition
byte ERROR = 3  # error condition
byte STALE = 4  # stale/timeout condition (e.g. a node's heartbeat stopped)
string reporting_node
string status
byte[] data
"""

SET_ZERO_ALL_COMMENTS = """\
# Set one motor's mechanical zero at its current position.

# Request time.
std_msgs/Header header
\t# Standard metadata for higher-level stamped data types.
\t# This is generally used to communicate timestamped data
\t# in a particular coordinate frame.

\t# Two-integer timestamp that is expressed as seconds and nanoseconds.
\tbuiltin_interfaces/Time stamp
\t\t# This message communicates ROS Time defined here:
\t\t# https://design.ros2.org/articles/clock_and_time.html

\t\t# The seconds component, valid over all int32 values.
\t\tint32 sec

@NANOSEC_COMMENT@\t\tuint32 nanosec

\t# Transform frame with which this data is associated.
\tstring frame_id
# CAN id of the motor.
uint8 id
---
# False for an unknown id.
bool result
"""

# builtin_interfaces/Time's comment on nanosec differs between the distros' .msg files
NANOSEC_COMMENT = {
    'jazzy': (
        '\t\t# The nanoseconds component, valid in the range [0, 1e9), to be added to the '
        'seconds component.\n'
        '\t\t# e.g.\n'
        '\t\t# The time -1.7 seconds is represented as {sec: -2, nanosec: 3e8}\n'
        '\t\t# The time 1.7 seconds is represented as {sec: 1, nanosec: 7e8}\n'),
}.get(os.environ.get('ROS_DISTRO'),
      '\t\t# The nanoseconds component, valid in the range [0, 1e9).\n')
SET_ZERO_ALL_COMMENTS = SET_ZERO_ALL_COMMENTS.replace('@NANOSEC_COMMENT@', NANOSEC_COMMENT)

LOW_CMD = """\
# Whole-body joint command (vendor DDS type pnd_adam::msg::dds_::LowCmd_), ROS topic
# lowcmd (DDS topic rt/lowcmd). Hands are commanded separately with HandCmd.

# Ankle/waist mode: MODE_PR_SERIAL (0) serial pitch/roll, MODE_PR_PARALLEL (1) parallel A/B.
uint8 mode_pr
uint8 MODE_PR_SERIAL = 0
uint8 MODE_PR_PARALLEL = 1
# One command per actuator, in the robot's joint order (Adam U: 19 actuators,
# waistRoll, waistPitch, waistYaw, neckYaw, neckPitch, then left and right arm).
MotorCmd[] motor_cmd
\tuint8 mode
\tuint8 MODE_DISABLE = 0
\tuint8 MODE_ENABLE = 1
\tfloat32 q
\tfloat32 dq
\tfloat32 tau
\tfloat32 kp
\tfloat32 kd
\tfloat32 ki
\tuint32 reserve
# Reserved.
uint32 reserve
"""

ROBOT_STATE_NO_COMMENTS = """\
std_msgs/Header header
\tbuiltin_interfaces/Time stamp
\t\tint32 sec
\t\tuint32 nanosec
\tstring frame_id
LegState[] leg
\tstring leg_name
\tstring LEG_FRONT_RIGHT = "FR"
\tstring LEG_FRONT_LEFT = "FL"
\tstring LEG_REAR_LEFT = "RL"
\tstring LEG_REAR_RIGHT = "RR"
\tbool contact
\tgeometry_msgs/Vector3 foot_pos_body
\t\tfloat64 x
\t\tfloat64 y
\t\tfloat64 z
\tgeometry_msgs/Vector3 foot_vel
\t\tfloat64 x
\t\tfloat64 y
\t\tfloat64 z
\tgeometry_msgs/Vector3 foot_force_est
\t\tfloat64 x
\t\tfloat64 y
\t\tfloat64 z
geometry_msgs/Pose pose
\tPoint position
\t\tfloat64 x
\t\tfloat64 y
\t\tfloat64 z
\tQuaternion orientation
\t\tfloat64 x 0
\t\tfloat64 y 0
\t\tfloat64 z 0
\t\tfloat64 w 1
geometry_msgs/Twist body_vel
\tVector3  linear
\t\tfloat64 x
\t\tfloat64 y
\t\tfloat64 z
\tVector3  angular
\t\tfloat64 x
\t\tfloat64 y
\t\tfloat64 z
geometry_msgs/Twist world_vel
\tVector3  linear
\t\tfloat64 x
\t\tfloat64 y
\t\tfloat64 z
\tVector3  angular
\t\tfloat64 x
\t\tfloat64 y
\t\tfloat64 z
byte motion_mode
byte MOTION_MODE_IDLE = 0        # drives passive, no command sent
byte MOTION_MODE_STAND_UP = 1    # moving smoothly to the standing pose
byte MOTION_MODE_STAND = 2       # holding the standing pose
byte MOTION_MODE_LOCOMOTION = 3  # following /hb50/velocity_command
byte MOTION_MODE_DAMPING = 4     # safe damping (kp=0, kd>0)
byte motion_type
byte MOTION_TYPE_STATIC = 0      # all feet planted
byte MOTION_TYPE_DYNAMIC = 1     # feet lift off (stepping)
byte motion_gait
byte MOTION_GAIT_IDLE = 0
byte MOTION_GAIT_STAND = 1
byte MOTION_GAIT_WALK = 2
byte MOTION_GAIT_RUN = 3
"""


@pytest.mark.parametrize('argv, expected', [
    (['hb50_commons/msg/Status'], STATUS),
    (['hb50_commons/Status'], STATUS),                 # the pkg/Type short form
    (['--no-comments', 'hb50_commons/msg/Status'], STATUS_NO_COMMENTS),
    (['--all-comments', 'robstride_interfaces/srv/SetZeroRobstride'], SET_ZERO_ALL_COMMENTS),
    (['pnd_adam/msg/LowCmd'], LOW_CMD),
    (['--no-comments', 'hb50_commons/msg/RobotState'], ROBOT_STATE_NO_COMMENTS),
])
def test_show_matches_handwritten(ros2, argv, expected):
    r = ros2('interface', 'show', *argv)
    assert r.code == 0, r
    assert r.out == expected


# -- every workspace type: the rules, applied to the installed files without rosidl ----------

WORKSPACE_PACKAGES = ('hb50_commons', 'robstride_interfaces', 'pnd_adam', 'aimrt_protocols_msgs')
PRIMITIVES = {'bool', 'byte', 'char', 'float32', 'float64', 'int8', 'uint8', 'int16', 'uint16',
              'int32', 'uint32', 'int64', 'uint64', 'string', 'wstring'}


def _definition(pkg, kind, name):
    path = os.path.join(get_package_share_directory(pkg), kind, f'{name}.{kind}')
    with open(path) as f:
        return [line.rstrip() for line in f]


def _nested(pkg, line):
    """'pkg/Name' of a message-typed field line, else None (constants and primitives)."""
    code = line.split('#', 1)[0].strip()
    if not code or '=' in code or code == '---':
        return None
    base = code.split()[0].split('[')[0].split('<=')[0]
    if base in PRIMITIVES:
        return None
    if '/' not in base:
        base = f'{pkg}/{base}'
    return base


def _expected(pkg, kind, name, comments, indent=0):
    out = []
    for line in _definition(pkg, kind, name):
        code = line.split('#', 1)[0]
        text = line
        if not comments:
            if not line.strip() or not code.strip():
                continue                        # blank or comment-only line
            if '#' in line and '=' not in code:
                # a field's trailing comment: cut one character before the comment text
                comment = line.split('#', 1)[1].strip()
                text = line[:line.find(comment) - 1].strip()
        out.append('\t' * indent + text if text else '')
        nested = _nested(pkg, line)
        if nested:
            npkg, nname = nested.split('/')
            out += _expected(npkg, 'msg', nname, False, indent + 1)
    return out


def _workspace_types():
    from ament_index_python.resources import get_resource
    found = []
    for pkg in WORKSPACE_PACKAGES:
        content, _ = get_resource('rosidl_interfaces', pkg)
        for entry in sorted(set(content.split())):
            kind, filename = entry.split('/')
            if filename.endswith('.' + kind):
                found.append((pkg, kind, filename[:-len(kind) - 1]))
    return found


def test_every_workspace_type(ros2):
    from ros2cli_py import ament
    from ros2cli_py.cmd_interface import show_lines
    ament.add_toolchain_prefix()
    types = _workspace_types()
    assert len(types) >= 20
    results = ros2.many(*(('interface', 'show', f'{pkg}/{kind}/{name}')
                          for pkg, kind, name in types))
    for (pkg, kind, name), r in zip(types, results):
        assert r.code == 0, r
        assert r.out.splitlines() == _expected(pkg, kind, name, True), name
        # the other two modes in-process (same code path as the command, less start-up time)
        assert show_lines(f'{pkg}/{kind}/{name}', show_comments=False) \
            == _expected(pkg, kind, name, False), name
