# SPDX-License-Identifier: Apache-2.0
"""Every test's launch logs go to a temporary ROS_LOG_DIR; launch.logging starts afresh."""

import launch.logging
import pytest


@pytest.fixture(autouse=True)
def launch_log_dir(tmp_path, monkeypatch):
    """Point ROS_LOG_DIR at a temporary folder and reset launch's logging around the test."""
    monkeypatch.setenv('ROS_LOG_DIR', str(tmp_path / 'log'))
    launch.logging.reset()
    yield tmp_path / 'log'
    launch.logging.reset()
