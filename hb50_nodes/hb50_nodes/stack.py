# SPDX-License-Identifier: Apache-2.0
"""
hb50_stack: bridge_node, control_node, heartbeat_monitor and state_publisher_node in one process.

One DeadlineLoop (node_runtime.loop) in the main thread ticks bridge_node then control_node
every 2 ms and spins the one executor (HB50_EXECUTOR, default events) between the deadlines,
serving every subscription and slow timer in the same thread (loop_mode:=loop, the
default). `--ros-args --params-file config/hb50.yaml` works as for the separate executables
(each node reads its own section).
"""

from typing import List, Optional

from .bridge_node import BridgeNode
from .control_node import ControlNode
from .heartbeat_monitor import HeartbeatMonitor
from .runtime import run
from .state_publisher_node import StatePublisher


def main(args: Optional[List[str]] = None) -> int:
    """Run the four nodes in this process until SIGINT/SIGTERM."""
    return run([BridgeNode, ControlNode, HeartbeatMonitor, StatePublisher], args)


if __name__ == '__main__':
    main()
