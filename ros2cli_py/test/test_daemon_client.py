# SPDX-License-Identifier: Apache-2.0
"""
The daemon client is light: it imports neither rclpy nor the graph module.

Every `ros2` command that asks the daemon loads the client, so rclpy there would cost each of
them its import time; the server side (daemon_server) is the one that runs a node. The
workspace-wide tests/test/test_import_cycles.py checks for cycles, deferred imports included.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / 'ros2cli_py'


@pytest.mark.linter
def test_daemon_client_imports_no_rclpy():
    tree = ast.parse((PACKAGE / 'daemon.py').read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    assert 'ros2cli_py.daemon_server' not in imported
    assert not {m for m in imported if m.split('.')[0] == 'rclpy' or 'graph' in m}, imported
