# SPDX-License-Identifier: Apache-2.0
"""
AimRT-side MuJoCo simulator: the Adam U model behind AimRT's http channel.

Like AimRT's Aimrt_Mujoco_Sim module it publishes JointState, ImuState and TouchState and
subscribes to JointCommand, here over the http channel backend's wire protocol
(POST /channel/{topic}/{type}, application/protobuf or application/json), so
aimrt_bridge + a ROS 2 controller drive a simulated robot without any AimRT install.

The package by role: config (SimConfig, load_config), targets (command checks and the
command watchdog), sender (the HTTP state sender thread), simulator (AimrtMujocoSim) and
main (the command line). This module keeps the names of the single module it once was.

Run:  ros2 run aimrt_mujoco_sim aimrt_mujoco_sim [--config FILE] [--log-level INFO]
"""

import sys

from .config import load_config, SimConfig
from .main import main
from .sender import StatePoster
from .simulator import AimrtMujocoSim, LOG
from .targets import CommandError, JointTargets

__all__ = ['AimrtMujocoSim', 'CommandError', 'JointTargets', 'LOG', 'load_config', 'main',
           'SimConfig', 'StatePoster']

if __name__ == '__main__':
    sys.exit(main())
