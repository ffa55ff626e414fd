# SPDX-License-Identifier: Apache-2.0
"""Actuator and leg layout of the Honey Badger 5.0 (vendor robot_models order)."""

# Wire order of every joint array (BridgeData, JointCommand). j0 hip abduction,
# j1 hip flexion, j2 knee.
JOINT_NAMES = (
    'fr_j0', 'fr_j1', 'fr_j2',
    'fl_j0', 'fl_j1', 'fl_j2',
    'rl_j0', 'rl_j1', 'rl_j2',
    'rr_j0', 'rr_j1', 'rr_j2',
)
NUM_JOINTS = len(JOINT_NAMES)

# Leg order of RobotState.leg; leg i owns joints 3i..3i+2.
LEG_NAMES = ('FR', 'FL', 'RL', 'RR')
NUM_LEGS = len(LEG_NAMES)
JOINTS_PER_LEG = 3

# +1 for left legs, -1 for right legs: mirrors the abduction offset.
LEG_SIDE = (-1.0, 1.0, 1.0, -1.0)
# +1 for front legs, -1 for rear legs: hip position along x.
LEG_FRONT = (1.0, 1.0, -1.0, -1.0)

# Vendor actuator limits.
EFFORT_LIMIT = 24.0     # N*m
VELOCITY_LIMIT = 20.0   # rad/s
