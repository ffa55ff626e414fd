# SPDX-License-Identifier: Apache-2.0
"""
The launch file starts the nodes under the vendor's node names, in a namespace argument.

(That every package, executable and share file it names is installed is checked for every
launch file of the workspace by workspace_tests/test_launch_files.py.)
"""

import ast
import os

from ament_index_python.packages import get_package_share_directory
from hb50_nodes import topics


def _calls(name):
    path = os.path.join(get_package_share_directory('hb50_nodes'), 'launch', 'hb50_sim.launch.py')
    tree = ast.parse(open(path, encoding='utf-8').read(), path)
    return [call for call in ast.walk(tree)
            if isinstance(call, ast.Call) and getattr(call.func, 'id', None) == name]


def _keyword(call, arg):
    return next((k.value for k in call.keywords if k.arg == arg), None)


def test_launch_file_uses_the_vendor_node_names_in_the_namespace_argument():
    nodes = _calls('Node')
    names = {_keyword(c, 'name').value for c in nodes
             if isinstance(_keyword(c, 'name'), ast.Constant)}
    assert names == {'bridge_node', 'control_node', 'heartbeat_monitor'}
    # Every node in the `namespace` launch argument, whose default is /hb50.
    (argument,) = [c for c in _calls('DeclareLaunchArgument')
                   if c.args and c.args[0].value == 'namespace']
    assert _keyword(argument, 'default_value').value == topics.DEFAULT_NAMESPACE == '/hb50'
    (configuration,) = [c for c in _calls('LaunchConfiguration')
                        if c.args and c.args[0].value == 'namespace']
    assert all(getattr(_keyword(c, 'namespace'), 'id', None) == 'namespace' for c in nodes)
