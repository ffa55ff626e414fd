# SPDX-License-Identifier: Apache-2.0
"""
The installed HB50 stack (bridge_node, control_node, heartbeat_monitor) as subprocesses.

For the tests and benchmarks of the tools that record or show it (ros2bag_mcap,
foxglove_live). It runs the installed executables only; nothing of hb50_nodes is imported.
"""

import os
import re
from typing import Dict, List, Tuple

from .process import executable, NodeProcess, start

HB50_EXECUTABLES = ('bridge_node', 'control_node', 'heartbeat_monitor')
PUBLISHED = re.compile(r'published n=(\d+) t_ns=(\d+)')


def start_hb50_stack(debug_counts: bool = True) -> Dict[str, NodeProcess]:
    """
    Start bridge_node, control_node, heartbeat_monitor with the installed params file.

    With debug_counts the 500 Hz nodes log `published n=... t_ns=...` at 10 Hz. Returns the
    processes by executable name; the caller stops them.
    """
    from ament_index_python.packages import get_package_share_directory
    params = os.path.join(get_package_share_directory('hb50_nodes'), 'config', 'hb50.yaml')
    procs = {}
    for name in HB50_EXECUTABLES:
        # The recorder does not care which physics runs the robot: the cheap engine keeps
        # the machine free for the 500 Hz loops (undeclared parameters are ignored).
        args = [executable('hb50_nodes', name), '--ros-args', '--params-file', params,
                '-p', 'physics_engine:=simple']
        if debug_counts and name != 'heartbeat_monitor':
            # The logger of a node in /hb50 is hb50.<node>.
            args += ['--log-level', f'hb50.{name}:=debug']
        procs[name] = start(args)
    return procs


def published_counts(output: str) -> List[Tuple[int, int]]:
    """
    Return [(n, t_ns)] of a 500 Hz node's debug lines.

    The first n samples were stamped before t_ns, sample n+1 after it.
    """
    return [(int(n), int(t)) for n, t in PUBLISHED.findall(output)]
