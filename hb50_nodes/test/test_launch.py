# SPDX-License-Identifier: Apache-2.0
"""
The launch file starts the nodes under the vendor's node names.

(That every package, executable and share file it names is installed is checked for every
launch file of the workspace by workspace_tests/test_launch_files.py.)
"""

import ast
import os

from ament_index_python.packages import get_package_share_directory


def test_launch_file_uses_the_vendor_node_names():
    path = os.path.join(get_package_share_directory('hb50_nodes'), 'launch', 'hb50_sim.launch.py')
    names = set()
    for call in ast.walk(ast.parse(open(path, encoding='utf-8').read(), path)):
        if isinstance(call, ast.Call) and getattr(call.func, 'id', None) == 'Node':
            names |= {k.value.value for k in call.keywords
                      if k.arg == 'name' and isinstance(k.value, ast.Constant)}
    assert names >= {'bridge_node', 'control_node'}
