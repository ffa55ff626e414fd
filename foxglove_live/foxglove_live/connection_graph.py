# SPDX-License-Identifier: Apache-2.0
"""connectionGraph on the ROS side: the publishers, subscribers and service providers."""

from typing import Any, Dict, List, Set

from .settings import hidden
from .ws_listener import Graph


def ros_graph(node: Any, include_hidden: bool) -> Graph:
    """Return the publishers, subscribers and service providers of the ROS graph."""
    published: Dict[str, List[str]] = {}
    subscribed: Dict[str, List[str]] = {}
    for topic, _ in node.get_topic_names_and_types():
        if not include_hidden and hidden(topic):
            continue
        pubs = sorted({_full_name(i) for i in node.get_publishers_info_by_topic(topic)})
        subs = sorted({_full_name(i) for i in node.get_subscriptions_info_by_topic(topic)})
        if pubs:
            published[topic] = pubs
        if subs:
            subscribed[topic] = subs
    services: Dict[str, Set[str]] = {}
    for name, namespace in node.get_node_names_and_namespaces():
        try:
            offered = node.get_service_names_and_types_by_node(name, namespace)
        except Exception:   # noqa: B902 - the node left the graph between the two calls
            continue
        for service, _ in offered:
            if include_hidden or not hidden(service):
                services.setdefault(service, set()).add(_join(namespace, name))
    return Graph(published, subscribed, {s: sorted(ids) for s, ids in services.items()})


def _join(namespace: str, name: str) -> str:
    return (namespace.rstrip('/') + '/' + name) if namespace else '/' + name


def _full_name(info: Any) -> str:
    return _join(info.node_namespace, info.node_name)
