# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""launch is not installable here: parse launch files as AST and check what they name."""

import ast
import os

from ament_index_python.packages import get_package_prefix, get_package_share_directory

SHARE = get_package_share_directory('horus_bridge')


def _node_calls(path):
    tree = ast.parse(open(path).read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, 'id', None) == 'Node':
            yield {kw.arg: kw.value.value for kw in node.keywords
                   if isinstance(kw.value, ast.Constant)}


def test_launch_files_name_installed_executables():
    launch_dir = os.path.join(SHARE, 'launch')
    files = [f for f in os.listdir(launch_dir) if f.endswith('.launch.py')]
    assert files
    for name in files:
        calls = list(_node_calls(os.path.join(launch_dir, name)))
        assert calls, name
        for call in calls:
            exe = os.path.join(get_package_prefix(call['package']), 'lib', call['package'],
                               call['executable'])
            assert os.path.isfile(exe) and os.access(exe, os.X_OK), exe


def test_default_params_file_installed():
    assert os.path.isfile(os.path.join(SHARE, 'config', 'horus_bridge.yaml'))
