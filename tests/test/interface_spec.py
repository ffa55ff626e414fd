# SPDX-License-Identifier: Apache-2.0
"""
The interfaces as the spec states them.

The interfaces as docs/INTERFACES.md states them, written independently of the
.msg files so that a test can compare the generated classes against it.

Types are in the notation rclpy's get_fields_and_field_types() reports: `float` is float32,
`octet` is byte, `boolean` is bool, `sequence<T>` an unbounded sequence, `T[N]` a fixed array,
`pkg/Name` a nested message. Field order is wire order.
"""

HEADER = 'std_msgs/Header'

MESSAGES = {
    # --- hb50_commons (seed 000) ---
    'hb50_commons/msg/BridgeData': [
        ('header', HEADER),
        ('orientation', 'geometry_msgs/Quaternion'),
        ('angular_velocity', 'geometry_msgs/Vector3'),
        ('linear_acceleration', 'geometry_msgs/Vector3'),
        ('joint_name', 'sequence<string>'),
        ('joint_position', 'sequence<float>'),
        ('joint_velocity', 'sequence<float>'),
        ('joint_effort', 'sequence<float>'),
        ('joint_temperature', 'sequence<uint8>'),
        ('joint_status', 'sequence<uint16>'),
    ],
    'hb50_commons/msg/BridgeState': [
        ('battery', 'float'), ('bus_v', 'float'), ('bus_i', 'float'), ('bus_p', 'float'),
        ('bus_pt', 'float'), ('legs_v', 'float'), ('charger_v', 'float'), ('bridge_t', 'float'),
        ('ext1_t', 'float'), ('ext2_t', 'float'), ('drives_enabled', 'boolean'),
        ('status', 'sequence<string>'), ('up_time', 'int32'),
    ],
    'hb50_commons/msg/JointCommand': [
        ('header', HEADER), ('source_node', 'string'), ('name', 'sequence<string>'),
        ('kp', 'sequence<float>'), ('ki', 'sequence<float>'), ('kd', 'sequence<float>'),
        ('t_pos', 'sequence<float>'), ('t_vel', 'sequence<float>'), ('t_trq', 'sequence<float>'),
        ('brake', 'sequence<boolean>'),
    ],
    'hb50_commons/msg/RobotState': [
        ('header', HEADER), ('leg', 'sequence<hb50_commons/LegState>'),
        ('pose', 'geometry_msgs/Pose'), ('body_vel', 'geometry_msgs/Twist'),
        ('world_vel', 'geometry_msgs/Twist'), ('motion_mode', 'octet'),
        ('motion_type', 'octet'), ('motion_gait', 'octet'),
    ],
    'hb50_commons/msg/LegState': [
        ('leg_name', 'string'), ('contact', 'boolean'),
        ('foot_pos_body', 'geometry_msgs/Vector3'), ('foot_vel', 'geometry_msgs/Vector3'),
        ('foot_force_est', 'geometry_msgs/Vector3'),
    ],
    'hb50_commons/msg/Status': [
        ('header', HEADER), ('level', 'octet'), ('reporting_node', 'string'),
        ('status', 'string'), ('data', 'sequence<octet>'),
    ],
    # --- robstride_interfaces (seed 001) ---
    'robstride_interfaces/msg/RobstrideState': [
        ('header', HEADER), ('comm_state', 'int32'), ('id', 'sequence<int32>'),
        ('enabled', 'sequence<boolean>'), ('run_state', 'sequence<int32>'),
        ('fault_bits', 'sequence<uint32>'),
    ],
    # --- pnd_adam (seed 002) ---
    'pnd_adam/msg/BatteryData': [
        ('timestamp_ms', 'int64'), ('voltage', 'float'), ('current', 'float'),
        ('power', 'float'), ('wh_accumulated', 'float'), ('status', 'string'),
    ],
    'pnd_adam/msg/IMUState': [
        ('quaternion', 'float[4]'), ('gyroscope', 'float[3]'), ('accelerometer', 'float[3]'),
        ('ypr', 'float[3]'), ('temperature', 'int16'),
    ],
    'pnd_adam/msg/MotorCmd': [
        ('mode', 'uint8'), ('q', 'float'), ('dq', 'float'), ('tau', 'float'), ('kp', 'float'),
        ('kd', 'float'), ('ki', 'float'), ('reserve', 'uint32'),
    ],
    'pnd_adam/msg/MotorState': [
        ('mode', 'uint8'), ('q', 'float'), ('dq', 'float'), ('ddq', 'float'),
        ('tau_est', 'float'), ('state', 'uint32'), ('reserve', 'uint32'),
    ],
    'pnd_adam/msg/LowCmd': [
        ('mode_pr', 'uint8'), ('motor_cmd', 'sequence<pnd_adam/MotorCmd>'), ('reserve', 'uint32'),
    ],
    'pnd_adam/msg/LowState': [
        ('mode_pr', 'uint8'), ('tick', 'uint32'), ('imu_state', 'pnd_adam/IMUState'),
        ('motor_state', 'sequence<pnd_adam/MotorState>'), ('wireless_remote', 'int16[40]'),
        ('battery_data', 'pnd_adam/BatteryData'), ('reserve', 'uint32'),
    ],
    'pnd_adam/msg/HandCmd': [('position', 'uint32[12]'), ('reserve', 'uint32')],
    'pnd_adam/msg/HandState': [('position', 'uint32[12]'), ('reserve', 'uint32')],
    # --- aimrt_protocols_msgs (seed 004: the ROS 2 form of what no standard message carries) ---
    'aimrt_protocols_msgs/msg/JointCommand': [
        ('header', HEADER), ('name', 'sequence<string>'), ('position', 'sequence<double>'),
        ('velocity', 'sequence<double>'), ('effort', 'sequence<double>'),
        ('stiffness', 'sequence<double>'), ('damping', 'sequence<double>'),
    ],
    'aimrt_protocols_msgs/msg/TouchSensorState': [('pressure', 'sequence<int32>')],
    'aimrt_protocols_msgs/msg/TouchState': [
        ('header', HEADER), ('names', 'sequence<string>'),
        ('states', 'sequence<aimrt_protocols_msgs/TouchSensorState>'),
    ],
}

SERVICES = {
    'hb50_commons/srv/EnableFeature': (
        [('feature', 'string'), ('state', 'boolean')],
        [('success', 'boolean')],
    ),
    'robstride_interfaces/srv/GetDataFromRobstride': (
        [('header', HEADER), ('id', 'uint8'), ('item_name', 'string'), ('timeout_sec', 'double')],
        [('item_data', 'float'), ('result', 'boolean')],
    ),
    'robstride_interfaces/srv/SetDataToRobstride': (
        [('header', HEADER), ('id', 'uint8'), ('item_name', 'string'), ('item_data', 'float')],
        [('result', 'boolean')],
    ),
    'robstride_interfaces/srv/SetZeroRobstride': (
        [('header', HEADER), ('id', 'uint8')],
        [('result', 'boolean')],
    ),
    'robstride_interfaces/srv/RebootRobstride': (
        [('header', HEADER), ('id', 'uint8')],
        [('result', 'boolean')],
    ),
}

# Constants the spec gives values for (type, value).
CONSTANTS = {
    'hb50_commons/msg/Status': {'OK': 1, 'WARN': 2, 'ERROR': 3, 'STALE': 4},
    'robstride_interfaces/msg/RobstrideState': {
        'COMM_STATE_OK': 0, 'COMM_STATE_BUS_NOT_OPEN': -1, 'COMM_STATE_SEND_FAIL': -2,
    },
    'hb50_commons/msg/BridgeData': {
        # The MD actuator "quick status" bits the spec names.
        'JOINT_STATUS_MAIN_ENCODER_ERROR': 1 << 0,
        'JOINT_STATUS_OUTPUT_ENCODER_ERROR': 1 << 1,
        'JOINT_STATUS_CALIBRATION_ERROR': 1 << 2,
        'JOINT_STATUS_BRIDGE_ERROR': 1 << 3,
        'JOINT_STATUS_HARDWARE_ERROR': 1 << 4,
        'JOINT_STATUS_COMMUNICATION_ERROR': 1 << 5,
        'JOINT_STATUS_MOTION_ERROR': 1 << 6,
        'JOINT_STATUS_TARGET_POSITION_REACHED': 1 << 15,
    },
    'hb50_commons/msg/LegState': {
        'LEG_FRONT_RIGHT': 'FR', 'LEG_FRONT_LEFT': 'FL',
        'LEG_REAR_LEFT': 'RL', 'LEG_REAR_RIGHT': 'RR',
    },
    'pnd_adam/msg/MotorCmd': {'MODE_DISABLE': 0, 'MODE_ENABLE': 1},
    'pnd_adam/msg/LowCmd': {'MODE_PR_SERIAL': 0, 'MODE_PR_PARALLEL': 1},
    'pnd_adam/msg/HandCmd': {'POSITION_CLOSED': 0, 'POSITION_OPEN': 1000},
    'pnd_adam/msg/HandState': {'POSITION_CLOSED': 0, 'POSITION_OPEN': 1000},
}

PACKAGES = ('hb50_commons', 'robstride_interfaces', 'pnd_adam', 'aimrt_protocols_msgs')


def all_interface_names():
    return sorted(MESSAGES) + sorted(SERVICES)
