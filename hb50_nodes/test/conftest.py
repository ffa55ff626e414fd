# SPDX-License-Identifier: Apache-2.0
"""Shared helpers and the `domain_id` fixture of the hb50_nodes tests (no node starts here)."""

from types import SimpleNamespace

from hb50_nodes.layout import JOINT_NAMES, NUM_JOINTS
import numpy as np
# The workspace's one domain fixture: a ROS_DOMAIN_ID of the module's own, this process's
# environment on it (discovery on this host) while the module runs.
from workspace_testing.pytest_fixtures import domain_id  # noqa: F401


def command(source='control_node', **overrides):
    """Return a JointCommand-like object holding position 0 with moderate gains."""
    fields = {'source_node': source, 'name': list(JOINT_NAMES), 'kp': [20.0] * NUM_JOINTS,
              'ki': [0.0] * NUM_JOINTS, 'kd': [1.0] * NUM_JOINTS, 't_pos': [0.0] * NUM_JOINTS,
              't_vel': [0.0] * NUM_JOINTS, 't_trq': [0.0] * NUM_JOINTS,
              'brake': [False] * NUM_JOINTS}
    fields.update(overrides)
    return SimpleNamespace(**fields)


def array_command(source='control_node', kp=20.0, kd=1.0, t_pos=None, t_trq=None, brake=None):
    """Return a ValidCommand with numpy arrays for the physics model."""
    from hb50_nodes.validation import ValidCommand
    n = NUM_JOINTS
    return ValidCommand(source, np.full(n, kp), np.full(n, kd),
                        np.zeros(n) if t_pos is None else np.asarray(t_pos, dtype=float),
                        np.zeros(n), np.zeros(n) if t_trq is None else np.asarray(t_trq, float),
                        np.zeros(n, dtype=bool) if brake is None else np.asarray(brake, bool))
