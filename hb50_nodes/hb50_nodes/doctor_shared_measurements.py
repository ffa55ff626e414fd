# SPDX-License-Identifier: Apache-2.0
"""
The Measurements the HB50 check and report share: one per namespace, per graph node.

Listening starts once per namespace and graph node (early, from the daemon's view of the
graph, when the doctor offers it); the check and the report wait for the same Measurement,
and neither returns before every listening it started is over.
"""

from dataclasses import dataclass, field
import threading
from typing import Any, Dict, Optional

from .doctor_graph import bridge_data_namespaces
from .doctor_measurement import Measurement


@dataclass
class SharedMeasurements:
    """The Measurements started on one graph node, by namespace; a new node starts afresh."""

    # the graph node of ``by_namespace`` (kept: its id is not reused); None before the first
    node: Optional[object] = None
    by_namespace: Dict[str, Measurement] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def listen(self, node: Any, namespace: str) -> Measurement:
        """Start listening to the namespace, once per graph node (check and report share it)."""
        with self.lock:
            if self.node is not node:
                self.by_namespace.clear()
                self.node = node
            if namespace not in self.by_namespace:
                self.by_namespace[namespace] = Measurement(node, namespace)
            return self.by_namespace[namespace]

    def wait_all(self) -> None:
        """Return once every listening started is over (none outlives the check's graph)."""
        with self.lock:
            started = list(self.by_namespace.values())
        for measurement in started:
            measurement.wait()


_shared = SharedMeasurements()


def measure(node: Any, namespace: str) -> Measurement:
    """Return the namespace's Measurement once it is over."""
    return _shared.listen(node, namespace).wait()


def wait_all() -> None:
    """Return once every listening started is over (none outlives the check's graph)."""
    _shared.wait_all()


def listen_early() -> None:
    """
    Start listening to the namespaces the daemon knows, while the doctor's node discovers.

    Inside `ros2 doctor` the shared node exists long before it has caught up with the graph
    (1-1.5 s here); its subscriptions are discovered alongside, so the window overlaps that.
    """
    try:
        from ros2doctor.api import early_graph
    except ImportError:     # a ros2doctor without the workspace's shared graph
        return
    early = early_graph()
    if early is None or early[1] is None:
        return
    node, known = early
    for namespace in bridge_data_namespaces(known.items()):
        _shared.listen(node, namespace)
