# SPDX-License-Identifier: Apache-2.0
"""
Test-only helpers shared by every package's tests and the benchmarks.

- `domain`: one ROS_DOMAIN_ID allocator for the whole workspace (no two concurrent test
  processes get the same domain) and the environment that keeps discovery on this host.
- `process`: a node (or any executable) as a subprocess with its output in a file, waits on
  that output, and a stop that escalates SIGINT -> SIGTERM -> SIGKILL and reports which
  signal ended it.
- `shm`: removal of the Fast DDS shared-memory segments a killed process leaves behind.
- `waiting`: polling with a timeout.
- `ports`: a free local TCP port, and whether a port accepts connections.
- `pytest_fixtures`: the `domain_id` fixture (a conftest.py imports it; not imported here,
  so that using workspace_testing does not import pytest).

The byte-for-byte comparison of hand-made CDR with rclpy's is `ros_wire.testing`, beside
the wire format it checks.
"""

from .domain import allocate_domain, isolate, localhost_env, release_domain
from .ports import accepting, free_port
from .process import executable, NodeProcess, start, stop, Stopped
from .shm import clean_shared_memory
from .waiting import wait_for

__all__ = ['accepting', 'allocate_domain', 'clean_shared_memory', 'executable', 'free_port',
           'isolate', 'localhost_env', 'NodeProcess', 'release_domain', 'start', 'stop',
           'Stopped', 'wait_for']
