# SPDX-License-Identifier: Apache-2.0
"""
`ros2 doctor` check and report of the HORUS link (entry points in setup.py).

The topics looked at: every route of every running ``horus_bridge`` node (its
``horus_namespace``, ``horus_to_ros`` and ``ros_to_horus`` parameters), and, when the shell
sets HORUS_NAMESPACE, every topic file of that namespace. None: the check is silent and the
report says "not running". For each topic:

- its shared-memory file exists (``/dev/shm/horus_<ns>/topics/<topic>``); if not, the other
  namespaces that have it;
- its header and size match the layout of its type (horus_msg_py: magic, header version,
  type size and name, ring geometry);
- for the topics HORUS publishes (horus_to_ros, and the namespace's own), its head moves
  within MEASURE_S; the report gives the messages per second.

Each finding is one line with the fix.
"""

import glob
import os
import time
from typing import Any, Dict, List, Optional, Tuple

from ros2doctor.api.link import DoctorLink
from ros2doctor.api.link import Finding
from ros2doctor.api.link import LinkCheck
from ros2doctor.api.link import LinkDiagnosis
from ros2doctor.api.link import LinkReport
from ros2doctor.api.link import node_parameters
from ros2doctor.api.link import nodes_named

NODE_NAME = 'horus_bridge'
MEASURE_S = 1.0
PARAMS = ('horus_namespace', 'horus_to_ros', 'ros_to_horus')
PREFIX = 'HORUS'


class Route:
    """One HORUS topic to look at: type, topic, namespace, and whether HORUS publishes it."""

    def __init__(self, type_name: str, topic: str, namespace: str, produced: bool,
                 origin: str) -> None:
        """Hold the route; ``origin`` names the bridge (or the shell) it comes from."""
        self.type_name = type_name
        self.topic = topic
        self.namespace = namespace
        self.produced = produced
        self.origin = origin

    def path(self) -> str:
        """Return the topic's shared-memory file."""
        from horus_msg_py import shm
        return shm.topic_path(self.topic, self.namespace)


def bridge_routes(fqn: str, params: Dict[str, Any]) -> List[Route]:
    """Return the routes of one bridge from its parameters."""
    namespace = str(params.get('horus_namespace') or '') or \
        os.environ.get('HORUS_NAMESPACE') or 'default'
    routes = []
    for entry in params.get('horus_to_ros') or []:
        parts = str(entry).split(':')
        if len(parts) >= 3 and parts[1]:
            routes.append(Route(parts[0], parts[1], namespace, True, fqn))
    for entry in params.get('ros_to_horus') or []:
        parts = str(entry).split(':')
        if len(parts) >= 3 and parts[2]:
            routes.append(Route(parts[0], parts[2], namespace, False, fqn))
    return routes


def namespace_routes(namespace: str) -> List[Route]:
    """Return a route per topic file of ``namespace`` (its type read from the header)."""
    from horus_msg_py import shm
    base = os.path.join(shm.namespace_dir(namespace), 'topics')
    routes = []
    for path in sorted(glob.glob(os.path.join(base, '**', '*'), recursive=True)):
        if os.path.isdir(path) or path.endswith('.meta'):
            continue
        try:
            with open(path, 'rb') as f:
                raw = f.read(shm.HEADER_SIZE)
            name = raw[216:248].split(b'\0', 1)[0].decode('ascii', 'replace')
        except OSError:
            continue
        routes.append(Route(name or '?', os.path.relpath(path, base), namespace, True,
                            f'HORUS_NAMESPACE={namespace}'))
    return routes


def _namespaces_with(topic: str) -> List[str]:
    found = []
    for path in glob.glob(os.path.join('/dev/shm', 'horus_*', 'topics', topic)):
        found.append(path.split(os.sep)[3][len('horus_'):])
    return sorted(found)


class Probe:
    """A topic's file opened as a reader (validated), its head at the start."""

    def __init__(self, route: Route):
        """Open and validate the topic; ``error`` says why it could not be."""
        from horus_msg_py import HorusMsgError, MESSAGE_TYPES, shm
        self.route = route
        self.reader = None
        self.error: Optional[str] = None
        self.head0 = self.head1 = 0
        if route.type_name not in MESSAGE_TYPES:
            self.error = f'unknown HORUS type {route.type_name!r}'
            return
        try:
            self.reader = shm.ShmTopicReader(route.type_name, route.topic, route.namespace,
                                             start='latest')
            self.head0 = self.reader.head()
        except (HorusMsgError, OSError) as exc:
            self.error = ' '.join(str(exc).split())

    def finish(self) -> None:
        """Read the head again and close the file."""
        if self.reader is not None:
            try:
                self.head1 = self.reader.head()
            finally:
                self.reader.close()
                self.reader = None


def _findings(probe: Probe, seconds: float) -> Tuple[List[Finding], str]:
    route = probe.route
    label = f'{route.topic} ({route.type_name}, namespace {route.namespace})'
    if probe.error is not None:
        if 'does not exist' in probe.error:
            elsewhere = [n for n in _namespaces_with(route.topic) if n != route.namespace]
            hint = (f"it exists in namespace {', '.join(elsewhere)}: set horus_namespace / "
                    'HORUS_NAMESPACE alike on both sides.') if elsewhere else \
                ('start the HORUS publisher of that topic.' if route.produced else
                 'the bridge creates it when ROS publishes: check the bridge is running.')
            return [('error', f'HORUS topic {label} has no shared-memory file '
                              f'{route.path()}: {hint}')], 'missing'
        return [('error', f'HORUS topic {label} does not match the {route.type_name} layout: '
                          f'{probe.error}: publish it with the matching type (horus_msg_py '
                          'layouts, horus-robotics 0.4.1).')], 'bad layout'
    moved = probe.head1 - probe.head0
    state = f'head {probe.head1}, {moved / seconds:.1f} msg/s'
    if route.produced and moved <= 0:
        return [('error', f'HORUS topic {label}: head stuck at {probe.head1} for {seconds:g} s: '
                          'its publisher has stopped or stalled: restart it.')], state
    return [], state


def _routes() -> List[Route]:
    from ros2doctor.api import graph_node
    routes: List[Route] = []
    with graph_node() as node:
        names = {name for name, _ in node.get_node_names_and_namespaces()
                 if name == NODE_NAME or name.startswith(NODE_NAME + '_')}
        for fqn in sorted({f for name in names for f in nodes_named(node, name)}):
            params = node_parameters(node, fqn, PARAMS)
            if params is not None:
                routes += bridge_routes(fqn, params)
    shell = os.environ.get('HORUS_NAMESPACE', '').strip()
    if shell:
        known = {(r.namespace, r.topic) for r in routes}
        routes += [r for r in namespace_routes(shell) if (r.namespace, r.topic) not in known]
    return routes


def diagnose(seconds: float = MEASURE_S) -> LinkDiagnosis:
    """Look at every route (see the module docstring): all heads over one window."""
    result = LinkDiagnosis()
    routes = _routes()
    if not routes:
        return result
    result.running = True
    probes = [Probe(route) for route in routes]
    time.sleep(seconds)
    for probe in probes:
        probe.finish()
    sections: Dict[str, Dict[str, str]] = {}
    for probe in probes:
        found, state = _findings(probe, seconds)
        result.findings += found
        sections.setdefault(probe.route.origin, {})[
            f'{probe.route.topic} ({probe.route.type_name})'] = state
    result.sections = list(sections.items())
    return result


# The check runs the diagnosis fresh; its report, beside it, shares that run.
HORUS = DoctorLink('horus', diagnose, prefix=PREFIX, title='HORUS BRIDGE', label='bridge',
                   idle=f'not running (no {NODE_NAME} node, no HORUS_NAMESPACE)')


# ros2doctor ships no type hints: to mypy these bases are Any (misc), which take no class
# keyword (call-arg); a wrong keyword fails at import (object.__init_subclass__).
class HorusCheck(LinkCheck, link=HORUS):  # type: ignore[misc,call-arg,unused-ignore]
    """Check the HORUS link: topic files present, their layout, heads moving."""


class HorusReport(LinkReport, link=HORUS):  # type: ignore[misc,call-arg,unused-ignore]
    """Report the HORUS topics of every running bridge."""
