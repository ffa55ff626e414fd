# SPDX-License-Identifier: Apache-2.0
"""What the service verbs share: the types of a service in the graph."""

from typing import List

from ros2cli_py.graph import GraphView


def service_types(cli: GraphView, name: str) -> List[str]:
    """Return the types of a service in the graph ([] when unknown)."""
    for n, types in cli.node.get_service_names_and_types():
        if n == name:
            return list(types)
    return []
