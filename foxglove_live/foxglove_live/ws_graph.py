# SPDX-License-Identifier: Apache-2.0
"""
connectionGraph on the WebSocket side (no ROS).

A new subscriber is sent the whole graph, then every subscriber only what changed. The
listener hears when the first client subscribes and when the last one leaves.
"""

from typing import Any, Dict, List, Mapping

from . import protocol as p
from .ws_client import Client
from .ws_context import Capability, Op, ServerContext
from .ws_listener import EMPTY_GRAPH, Graph


class ConnectionGraph(Capability):
    """subscribeConnectionGraph / unsubscribeConnectionGraph and the updates."""

    def __init__(self, server: ServerContext) -> None:
        """Start with an empty graph, until the ROS side publishes one."""
        super().__init__(server)
        self.graph = EMPTY_GRAPH

    def ops(self) -> Dict[str, Op]:
        """Subscribe and unsubscribe (connectionGraph)."""
        return {'subscribeConnectionGraph': (p.CONNECTION_GRAPH, self._subscribe),
                'unsubscribeConnectionGraph': (p.CONNECTION_GRAPH, self._unsubscribe)}

    def drop(self, client: Client) -> None:
        """Unsubscribe a client that left from the graph."""
        self._unsubscribe(client, {})

    def _subscribe(self, client: Client, msg: Dict[str, Any]) -> None:
        if client.graph:
            return
        first = not any(c.graph for c in self.server.clients.values())
        client.graph = True
        client.send_json(graph_update(EMPTY_GRAPH, self.graph))
        if first:
            self.server.call(self.listener.on_connection_graph_subscribe)

    def _unsubscribe(self, client: Client, msg: Dict[str, Any]) -> None:
        if client.graph:
            client.graph = False
            if not any(c.graph for c in self.server.clients.values()):
                self.server.call(self.listener.on_connection_graph_unsubscribe)

    def publish(self, graph: Graph) -> None:
        """Send graph subscribers what changed since the last graph (any thread)."""
        self.server.on_loop(self._publish, graph)

    def _publish(self, graph: Graph) -> None:
        old, self.graph = self.graph, graph
        update = graph_update(old, graph)
        if not any(update[k] for k in update if k != 'op'):
            return
        for client in list(self.server.clients.values()):
            if client.graph:
                client.send_json(update)


def graph_update(old: Graph, new: Graph) -> Dict[str, Any]:
    """Return the connectionGraphUpdate turning `old` into `new` (from EMPTY_GRAPH: all)."""
    old_topics = set(old.published) | set(old.subscribed)
    new_topics = set(new.published) | set(new.subscribed)

    def changed(before: Mapping[str, List[str]], after: Mapping[str, List[str]],
                key: str) -> List[Dict[str, Any]]:
        # A topic left with subscribers only keeps an entry with no publishers (and the
        # reverse); one with neither is in removedTopics.
        return [{'name': name, key: after.get(name, [])}
                for name in sorted(set(before) | set(after))
                if before.get(name) != after.get(name) and name in new_topics]
    return {'op': 'connectionGraphUpdate',
            'publishedTopics': changed(old.published, new.published, 'publisherIds'),
            'subscribedTopics': changed(old.subscribed, new.subscribed, 'subscriberIds'),
            'advertisedServices': [{'name': n, 'providerIds': new.services[n]}
                                   for n in sorted(new.services)
                                   if old.services.get(n) != new.services[n]],
            'removedTopics': sorted(old_topics - new_topics),
            'removedServices': sorted(set(old.services) - set(new.services))}
