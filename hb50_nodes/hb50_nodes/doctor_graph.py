# SPDX-License-Identifier: Apache-2.0
"""The HB50 doctor's view of the ROS graph: a discovered graph node, the bridges' namespaces."""

import contextlib
import os
import time
from typing import Any, Iterable, Iterator, List, Sequence, Tuple

from . import topics
from .doctor_spec import BRIDGE_TYPE


@contextlib.contextmanager
def discovered_graph() -> Iterator[Any]:
    """Yield a node that has discovered the graph (the doctor's shared one when there is)."""
    try:
        from ros2doctor.api import graph_node
    except ImportError:     # a ros2doctor without the workspace's shared graph
        graph_node = None
    if graph_node is not None:
        with graph_node() as node:
            yield node
        return
    import rclpy
    context = rclpy.Context()
    rclpy.init(context=context)
    node = rclpy.create_node(f'_hb50_doctor_{os.getpid()}', context=context)
    try:
        time.sleep(1.0)
        yield node
    finally:
        node.destroy_node()
        rclpy.try_shutdown(context=context)


def bridge_data_namespaces(topic_types: Iterable[Tuple[str, Sequence[str]]]) -> List[str]:
    """Return the namespaces of the BridgeData topics in [(topic, [types])]."""
    return sorted(name[:-len(topics.BRIDGE_DATA) - 1] or '/' for name, types in topic_types
                  if name.endswith('/' + topics.BRIDGE_DATA) and BRIDGE_TYPE in types)


def bridge_namespaces(node: Any) -> List[str]:
    """Return the namespaces in which a bridge publishes BridgeData ('/hb50' by default)."""
    return [namespace for namespace in bridge_data_namespaces(node.get_topic_names_and_types())
            if node.count_publishers(topics.resolve(topics.BRIDGE_DATA, namespace))]
