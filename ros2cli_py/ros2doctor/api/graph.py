# SPDX-License-Identifier: Apache-2.0
"""
The ROS graph the checks and reports look at: one discovered node for a whole command.

``shared_graph()`` makes the node once for every check and report run inside it (its
discovery started at once, in a thread); ``graph_node()`` yields it, discovered;
``early_graph()`` hands it out before discovery ends. ros2doctor.api re-exports these.
"""

import contextlib
import threading
from typing import Iterator, List, Optional, Sequence


def _preload() -> None:
    """
    Import rclpy's core in this thread before the checks run in threads of their own.

    Two threads importing the same package for the first time can find each other's modules
    half-initialised where the package's modules import one another (rclpy.qos and
    rclpy.node do): one of them then fails with "partially initialized module".
    """
    import rclpy  # noqa: F401
    import rclpy.executors  # noqa: F401
    import rclpy.node  # noqa: F401
    import rclpy.parameter  # noqa: F401
    import rclpy.qos  # noqa: F401


class _SharedGraph:
    """One discovered node for every check and report of a command (made on first use)."""

    def __init__(self):
        self.cli = None
        self.known = None                 # what the daemon knew (see _daemon_graph), or None
        self._made = threading.Event()    # set once the node exists (or could not be made)
        self._lock = threading.Lock()     # checks run in threads of their own

    def prefetch(self) -> None:
        """Make the node now; a failure is left for the check that needs the node to report."""
        try:
            self.node()
        except Exception:       # noqa: B902 - raised again, and reported, where it is needed
            pass

    def node(self):
        with self._lock:
            if self.cli is None:
                from ros2cli_py.graph import CliNode
                # the daemon's graph first: once this command's node joins, the daemon sees
                # its graph change and would wait for it to settle before answering
                try:
                    known = _daemon_graph()
                    cli = CliNode()
                    self.cli, self.known = cli, known
                finally:
                    self._made.set()
                if known is None:
                    cli.discover()
                else:
                    _catch_up(cli, known[0], known[1])
            return self.cli.node

    def early(self, timeout: float):
        """Return (the node once it exists, the daemon's topic types or None), or None."""
        if not self._made.wait(timeout) or self.cli is None:
            return None
        return self.cli.node, (self.known[2] if self.known is not None else None)

    def close(self):
        if self.cli is not None:
            self.cli.close()
            self.cli = None


def _daemon_graph():
    """
    Return (nodes, {topic: (publishers, subscribers)}, {topic: [types]}) or None.

    What the running daemon knows; None without a daemon.

    Hidden nodes (the daemon's own, other commands', a doctor's listeners) are left out, and
    so are their endpoints: no check looks at them, their names are the last a new node
    learns, and the endpoints of one that has just exited stay in the daemon's graph until
    their lease expires, where a new node never sees them. A topic's counts are the numbers
    of the other nodes that publish / subscribe to it.
    """
    from ros2cli_py import daemon
    from ros2cli_py.graph import DaemonView
    client = daemon.connect()
    if client is None:
        return None
    try:
        with DaemonView(client) as view:
            view.discover()
            remote = view.node
            nodes = {tuple(pair) for pair in remote.get_node_names_and_namespaces()
                     if not pair[0].startswith('_')}
            publishers: dict = {}
            subscribers: dict = {}
            types = {topic: list(kinds) for topic, kinds in remote.get_topic_names_and_types()}
            for name, namespace in nodes:
                for topic, _ in remote.get_publisher_names_and_types_by_node(name, namespace):
                    publishers[topic] = publishers.get(topic, 0) + 1
                for topic, _ in remote.get_subscriber_names_and_types_by_node(name, namespace):
                    subscribers[topic] = subscribers.get(topic, 0) + 1
    except (daemon.DaemonError, daemon.DaemonCallError, ValueError):
        return None
    counts = {topic: (publishers.get(topic, 0), subscribers.get(topic, 0))
              for topic in set(publishers) | set(subscribers)}
    return nodes, counts, types


def _catch_up(cli, nodes, counts) -> None:
    """
    Spin ``cli`` until it knows what the daemon knows (at most 5 s).

    Every node but the hidden ones, every topic, and on each topic at least as many publishers
    and subscribers as the daemon counts (the checks read endpoints and their QoS). The daemon
    has kept the graph, so this replaces the settle wait of a fresh node (1 s at least, and no
    proof on a loaded host, where a fresh node's discovery may not have begun within its first
    second).
    """
    from ros2cli_py.graph import MAX_DISCOVERY_S
    node = cli.node

    def caught_up():
        if not nodes <= set(node.get_node_names_and_namespaces()):
            return False
        known = {name for name, _ in node.get_topic_names_and_types()}
        return all(name in known and node.count_publishers(name) >= pubs
                   and node.count_subscribers(name) >= subs
                   for name, (pubs, subs) in counts.items())
    cli.wait_until(caught_up, MAX_DISCOVERY_S)


_shared: Optional[_SharedGraph] = None


@contextlib.contextmanager
def shared_graph() -> Iterator[None]:
    """
    Let the checks and reports run inside share one node and one discovery wait.

    The node is made and its discovery started at once, in a thread of its own, while the
    extensions load; the first check that needs it waits for it.
    """
    global _shared
    if _shared is not None:
        yield
        return
    _shared = _SharedGraph()
    _preload()
    prefetch = threading.Thread(target=_shared.prefetch, name='doctor-graph', daemon=True)
    prefetch.start()
    try:
        yield
    finally:
        prefetch.join()
        graph, _shared = _shared, None
        graph.close()


@contextlib.contextmanager
def graph_node() -> Iterator[object]:
    """
    Yield an rclpy node that has discovered the graph (the command's hidden node).

    Inside ``shared_graph()`` every caller gets the same node; outside, a node of its own
    that is destroyed afterwards.
    """
    if _shared is not None:
        yield _shared.node()
        return
    graph = _SharedGraph()
    try:
        yield graph.node()
    finally:
        graph.close()


def early_graph(timeout: float = 10.0):
    """
    Return (the shared node, {topic: [types]} the daemon knew or None) before discovery ends.

    Inside ``shared_graph()`` only, as soon as the node exists, while it is still catching up
    with the graph: a check that listens to topics (a rate measured over a window) can
    subscribe now, so that its subscriptions are discovered alongside the node instead of
    after it. None outside ``shared_graph()`` or when the node could not be made; the caller
    then uses ``graph_node()``.
    """
    shared = _shared
    return shared.early(timeout) if shared is not None else None


def get_topic_names(skip_topics: Sequence[str] = ()) -> List[str]:
    """Return the topic names of the graph, without ``skip_topics``."""
    with graph_node() as node:
        return [name for name, _ in node.get_topic_names_and_types() if name not in skip_topics]
