# SPDX-License-Identifier: Apache-2.0
"""
The AimRT MuJoCo simulator, aimrt_bridge and the Foxglove server (foxglove_live).

    ros2 launch aimrt_mujoco_sim aimrt_foxglove.launch.py [sim_config:=...]
        [bridge_params:=...] [http_port:=50080] [port:=8765] [address:=127.0.0.1]
The simulator POSTs its states to the bridge (AimRT's http channel), which republishes them
on /aimrt/joint_states, /aimrt/imu and /aimrt/touch and forwards /aimrt/joint_command back;
then in Foxglove: Open connection > Foxglove WebSocket > ws://localhost:8765. The shipped
configurations fit together (states to 127.0.0.1:50080, commands to 127.0.0.1:50081); a
sim_config with other ports needs bridge_params and http_port to match. There is no state
publisher for AimRT (no URDF on the AimRT side).
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    sim_config = os.path.join(get_package_share_directory('aimrt_mujoco_sim'), 'config',
                              'aimrt_mujoco_sim.yaml')
    bridge = get_package_share_directory('aimrt_bridge')
    return LaunchDescription([
        DeclareLaunchArgument('sim_config', default_value=sim_config,
                              description="the simulator's configuration file"),
        DeclareLaunchArgument('bridge_params',
                              default_value=os.path.join(bridge, 'config', 'aimrt_bridge.yaml'),
                              description="aimrt_bridge's parameter file"),
        DeclareLaunchArgument('http_port', default_value='50080',
                              description="port of the bridge's HTTP server (sim POSTs)"),
        DeclareLaunchArgument('port', default_value='8765',
                              description='WebSocket port of the Foxglove server'),
        DeclareLaunchArgument('address', default_value='127.0.0.1',
                              description='address the Foxglove server binds (0.0.0.0: all)'),
        Node(package='aimrt_mujoco_sim', executable='aimrt_mujoco_sim', name='aimrt_mujoco_sim',
             arguments=['--config', LaunchConfiguration('sim_config')], output='screen'),
        IncludeLaunchDescription(
            os.path.join(bridge, 'launch', 'aimrt_bridge.launch.py'),
            launch_arguments=[('params_file', LaunchConfiguration('bridge_params')),
                              ('http_port', LaunchConfiguration('http_port'))]),
        Node(package='foxglove_live', executable='foxglove_server', name='foxglove_server',
             output='screen', parameters=[{'port': LaunchConfiguration('port'),
                                           'address': LaunchConfiguration('address')}]),
    ])
