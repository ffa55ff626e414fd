# SPDX-License-Identifier: Apache-2.0
"""Shared helpers and ROS_DOMAIN_ID fixtures of the hb50_nodes tests (no node starts here)."""

from types import SimpleNamespace

from hb50_nodes.layout import JOINT_NAMES, NUM_JOINTS
import numpy as np
import pytest
import workspace_testing as wt


def _isolated():
    """Put this process and the nodes it starts on a domain of their own; release it after."""
    domain = wt.isolate()
    try:
        yield domain
    finally:
        wt.release_domain(domain)


@pytest.fixture(scope='module')
def ros_domain():
    """Give this module a ROS_DOMAIN_ID of its own (workspace_testing), discovery on this host."""
    yield from _isolated()


@pytest.fixture
def test_domain():
    """Give this test a ROS_DOMAIN_ID of its own (workspace_testing), discovery on this host."""
    yield from _isolated()


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
