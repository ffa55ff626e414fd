# SPDX-License-Identifier: Apache-2.0
"""The command's own hidden node, DDS discovery waits and ROS graph queries."""

import os
import time
from typing import Any, Callable, List, Optional, Tuple, TYPE_CHECKING, TypeVar

from ros2cli_py.errors import CommandError

if TYPE_CHECKING:
    from ros2cli_py.daemon import Client

# ros2cli without its daemon spins 0.5 s before answering; this waits at least 1 s and
# then until the graph (names, types and endpoint counts) stopped changing for SETTLE_S, so a
# loaded machine does not truncate the answer: the endpoints of one remote node can arrive
# more than 0.5 s apart there.
MIN_DISCOVERY_S = 1.0
SETTLE_S = 1.0
MAX_DISCOVERY_S = 5.0


# The node methods the graph verbs call, answered by the daemon as by a node of our own.
GRAPH_METHODS = (
    'get_node_names_and_namespaces', 'get_topic_names_and_types',
    'get_service_names_and_types', 'count_publishers', 'count_subscribers',
    'get_subscriber_names_and_types_by_node', 'get_publisher_names_and_types_by_node',
    'get_service_names_and_types_by_node', 'get_client_names_and_types_by_node',
    'get_publishers_info_by_topic', 'get_subscriptions_info_by_topic',
    'get_fully_qualified_name')

# Hidden nodes of this tool that no listing shows: every command's own node and the daemon's.
OWN_NODE_PREFIX = '_ros2cli_py_'

#: [(name, [types])] of topics, services or actions
NamesAndTypes = List[Tuple[str, List[str]]]

#: What decides that discovery moved on: nodes, topics with their endpoint counts, services.
GraphSnapshot = Tuple[Tuple[Any, ...], Tuple[Any, ...], Tuple[Any, ...]]

_T = TypeVar('_T')
_View = TypeVar('_View', bound='GraphView')


def topic_or_service_is_hidden(name: str) -> bool:
    """Return whether a topic/service name has a token starting with '_' (rclpy's rule)."""
    return any(token.startswith('_') for token in name.split('/'))


class GraphView:
    """
    The graph queries of the verbs, over ``self.node`` (a node or the daemon's answers).

    Subclasses give ``node``, ``spin_for``, ``discover`` and ``close``.
    """

    node: Any = None
    spin_time: Optional[float] = None

    def __enter__(self: _View) -> _View:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release what the view holds."""

    def spin_for(self, seconds: float) -> None:
        """Let ``seconds`` pass (serving callbacks where there are any)."""
        time.sleep(seconds)

    def discover(self) -> None:
        """Make sure the graph is discovered before an answer is read."""

    def wait_until(self, predicate: Callable[[], _T], timeout: float) -> Optional[_T]:
        """Spin until ``predicate()`` is truthy (returned) or ``timeout`` s pass (None)."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() >= deadline:
                return None
            self.spin_for(0.05)

    # -- graph queries ----------------------------------------------------------------------

    def topics(self, include_hidden: bool = False) -> NamesAndTypes:
        """[(name, [types])] sorted by name."""
        return sorted((n, list(t)) for n, t in self.node.get_topic_names_and_types()
                      if include_hidden or not topic_or_service_is_hidden(n))

    def topic_types(self, topic: str) -> List[str]:
        """Types of one topic ([] when unknown)."""
        for name, types in self.node.get_topic_names_and_types():
            if name == topic:
                return list(types)
        return []

    def services(self, include_hidden: bool = False) -> NamesAndTypes:
        """[(name, [types])] sorted by name; never the services of this tool's own nodes."""
        own = '/' + OWN_NODE_PREFIX
        return sorted((n, list(t)) for n, t in self.node.get_service_names_and_types()
                      if (include_hidden or not topic_or_service_is_hidden(n))
                      and not n.startswith(own))

    def node_pairs(self, include_hidden: bool = False,
                   include_own: bool = False) -> List[Tuple[str, str]]:
        """
        [(name, namespace)] of the graph's nodes, this tool's own nodes left out.

        ``include_own`` keeps them (hidden names: with ``include_hidden`` only), as ros2cli's
        ``node list -a`` lists its daemon's node.
        """
        return [(n, ns) for n, ns in self.node.get_node_names_and_namespaces()
                if (include_hidden or not n.startswith('_'))
                and (include_own or not n.startswith(OWN_NODE_PREFIX))]

    def node_names(self, include_hidden: bool = False) -> List[str]:
        """Sorted full names of the nodes in the graph."""
        return sorted({full_node_name(ns, n) for n, ns in self.node_pairs(include_hidden)})

    def find_node(self, wanted: str, timeout: Optional[float] = None,
                  include_hidden: bool = True) -> Tuple[str, str]:
        """(name, namespace) of a node by full name, waiting for discovery; CommandError."""
        full = absolute_node_name(wanted)
        if not include_hidden and full.rsplit('/', 1)[-1].startswith('_'):
            raise CommandError('Node not found')

        def lookup() -> Optional[Tuple[str, str]]:
            for name, ns in self.node.get_node_names_and_namespaces():
                if full_node_name(ns, name) == full:
                    return (name, ns)
            return None
        found = self.wait_until(lookup, MAX_DISCOVERY_S if timeout is None else timeout)
        if not found:
            raise CommandError('Node not found')
        return found

    def count_node(self, full: str) -> int:
        """How many nodes in the graph have the full name ``full``."""
        return sum(1 for name, ns in self.node.get_node_names_and_namespaces()
                   if full_node_name(ns, name) == full)

    def actions(self) -> NamesAndTypes:
        """[(name, [types])] of the actions in the graph, sorted by name."""
        return sorted((n, list(t)) for n, t in self.action_names_and_types())

    def action_names_and_types(self) -> NamesAndTypes:
        """Actions in the graph (from their topics and services, as rclpy.action.graph)."""
        raise NotImplementedError

    def action_endpoints_by_node(self, kind: str, name: str, namespace: str) -> NamesAndTypes:
        """Return [(action, [types])] of one node's action servers ('server') or clients."""
        raise NotImplementedError


class CliNode(GraphView):
    """A hidden node (name starting with '_') on its own context, spun on demand."""

    def __init__(self, name: Optional[str] = None, spin_time: Optional[float] = None,
                 executor: Optional[str] = None, use_sim_time: bool = False) -> None:
        from node_runtime.runner import RosSession
        import rclpy
        from rclpy.executors import SingleThreadedExecutor
        # node_runtime.runner's start and ordered teardown on a context of the command's own
        # (rclpy's signal handlers off: main() decides what a signal does).
        self._session = RosSession([], context=rclpy.Context()).init()
        self.context = self._session.context
        from rclpy.parameter import Parameter
        # no type-description service: the tool's own node offers no services to list
        overrides = [Parameter('start_type_description_service', Parameter.Type.BOOL, False)]
        if use_sim_time:
            overrides.append(Parameter('use_sim_time', Parameter.Type.BOOL, True))
        try:
            self.node = self._session.add_node(rclpy.create_node(
                name or f'{OWN_NODE_PREFIX}{os.getpid()}', context=self.context,
                start_parameter_services=False, parameter_overrides=overrides))
        except BaseException:
            self._session.close()
            raise
        kind = os.environ.get('ROS2CLI_PY_EXECUTOR', executor or 'single')
        if kind == 'events':
            from rclpy.experimental import EventsExecutor
            self.executor = EventsExecutor(context=self.context)
        else:
            self.executor = SingleThreadedExecutor(context=self.context)
        self._session.add_executor(self.executor)
        self.executor.add_node(self.node)
        self.spin_time = spin_time

    def close(self) -> None:
        """Shut the executor down, destroy the node, shut its context down (idempotent)."""
        self._session.close()

    def spin_once(self, timeout_sec: float = 0.1) -> None:
        """Serve callbacks for at most ``timeout_sec``."""
        self.executor.spin_once(timeout_sec=timeout_sec)

    def spin_for(self, seconds: float) -> None:
        """Serve callbacks for ``seconds``."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            self.executor.spin_once(timeout_sec=min(left, 0.05))

    def snapshot(self) -> GraphSnapshot:
        """
        Return what this node knows of the graph now, to compare with a later snapshot.

        Endpoint counts too: a topic already known from one node's subscription gains its
        publisher when the publishing node's endpoints are discovered, which changes no name.
        """
        n = self.node
        return (tuple(sorted(n.get_node_names_and_namespaces())),
                tuple(sorted((t, tuple(ty), n.count_publishers(t), n.count_subscribers(t))
                             for t, ty in n.get_topic_names_and_types())),
                tuple(sorted((s, tuple(ty)) for s, ty in n.get_service_names_and_types())))

    def discover(self) -> None:
        """Wait for DDS discovery: spin_time if given, else until the graph settles."""
        if self.spin_time is not None:
            self.spin_for(self.spin_time)
            return
        start = time.monotonic()
        last = self.snapshot()
        changed = start
        while True:
            self.spin_for(0.05)
            now = time.monotonic()
            snap = self.snapshot()
            if snap != last:
                last, changed = snap, now
            if now - start >= MIN_DISCOVERY_S and now - changed >= SETTLE_S \
                    and self._endpoints_known():
                return
            if now - start >= MAX_DISCOVERY_S:
                return

    def _endpoints_known(self) -> bool:
        # Every rclpy/rclcpp node publishes at least /rosout and /parameter_events: a node
        # known without a publisher has had its name discovered and its endpoints not yet
        # (a loaded host can take more than SETTLE_S between the two).
        n = self.node
        for name, namespace in n.get_node_names_and_namespaces():
            if name.startswith('_'):
                continue
            try:
                if not n.get_publisher_names_and_types_by_node(name, namespace):
                    return False
            except Exception:   # noqa: B902 - the node left meanwhile: nothing to wait for
                continue
        return True

    def action_names_and_types(self) -> NamesAndTypes:
        """Actions in the graph (from their topics and services, as rclpy.action.graph)."""
        from rclpy.action.graph import get_action_names_and_types
        found: NamesAndTypes = get_action_names_and_types(self.node)
        return found

    def action_endpoints_by_node(self, kind: str, name: str, namespace: str) -> NamesAndTypes:
        """Return [(action, [types])] of one node's action servers ('server') or clients."""
        from rclpy.action import graph
        query = (graph.get_action_server_names_and_types_by_node if kind == 'server'
                 else graph.get_action_client_names_and_types_by_node)
        found: NamesAndTypes = query(self.node, name, namespace)
        return found


class _RemoteNode:
    """The daemon's answers to the node methods of GRAPH_METHODS."""

    def __init__(self, client: 'Client') -> None:
        self._client = client

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name not in GRAPH_METHODS:
            raise AttributeError(name)
        return lambda *args: self._client.call(name, *args)


class DaemonView(GraphView):
    """
    The graph as the running daemon sees it (ros2cli's daemon strategy).

    The daemon has kept discovery going: a question is answered at once, after the daemon's
    own settle wait only while the graph is still changing; nothing is waited for beyond
    that (an unknown name is unknown now, as with ros2cli's daemon).
    """

    def __init__(self, client: 'Client') -> None:
        self.client = client
        self.node = _RemoteNode(client)

    def close(self) -> None:
        """Close the connection to the daemon."""
        self.client.close()

    def discover(self) -> None:
        """Let the daemon finish a discovery in progress."""
        self.client.call('discover')

    def wait_until(self, predicate: Callable[[], _T], timeout: float) -> Optional[_T]:
        """Return the predicate's value once the daemon's graph settled (None if falsy)."""
        self.discover()
        return predicate() or None

    def action_names_and_types(self) -> NamesAndTypes:
        """Actions in the daemon's graph."""
        found: NamesAndTypes = self.client.call('action_names_and_types')
        return found

    def action_endpoints_by_node(self, kind: str, name: str, namespace: str) -> NamesAndTypes:
        """Return [(action, [types])] of one node's action servers ('server') or clients."""
        found: NamesAndTypes = self.client.call('action_endpoints_by_node', kind, name,
                                                namespace)
        return found


def open_graph(args: Any) -> GraphView:
    """
    Return the graph view of a verb: the daemon's, else a node of our own (ros2cli's rule).

    With --no-daemon, always our own node. Otherwise a running daemon answers; when there
    is none, one is started in the background for the next command and this one discovers
    directly.
    """
    spin_time = getattr(args, 'spin_time', None)
    if not getattr(args, 'no_daemon', False):
        # the client loads with the first graph verb only (hashlib, json, socket)
        from ros2cli_py import daemon
        client = daemon.connect()
        if client is not None:
            return DaemonView(client)
        daemon.spawn()
    return CliNode(spin_time=spin_time)


def full_node_name(namespace: str, name: str) -> str:
    """'/ns/name' from a namespace and a name."""
    return namespace.rstrip('/') + '/' + name


def absolute_node_name(name: str) -> str:
    """Return a node name with its leading '/'."""
    return name if name.startswith('/') else '/' + name


def expand_topic(name: str, what: str = 'topic') -> str:
    """Fully qualified topic/service name, or CommandError for an invalid one."""
    from rclpy.expand_topic_name import expand_topic_name
    from rclpy.validate_full_topic_name import validate_full_topic_name
    try:
        full = expand_topic_name(name, 'ros2cli_py', '/')
        validate_full_topic_name(full, is_service=(what == 'service'))
    except Exception as e:      # noqa: B902 - rclpy raises several types for bad names
        text = str(e).strip().splitlines()
        raise CommandError(f"Invalid {what} name '{name}': {text[0] if text else e}") from None
    checked: str = full
    return checked
