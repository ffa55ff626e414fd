# SPDX-License-Identifier: Apache-2.0
"""
`ros2 doctor` check and report of the AimRT link (entry points in setup.py).

For every running ``aimrt_bridge`` node (silent when there is none; the report then says "not
running"), from its parameters:

- each AimRT target of ``command_addresses`` accepts a connection (an AimRT http-channel
  subscriber listens there);
- the bridge's own HTTP server (``http_host:http_port``) answers an ``application/protobuf``
  POST (to a channel no route has: answered 404, nothing published);
- the ROS side flows: for MEASURE_S, the messages the bridge publishes on each state topic
  (what AimRT POSTs) and the messages on each command topic (what the bridge forwards).

The last successful forward per channel comes from the bridge's /diagnostics (its command
targets' status, kept for late joiners); a target whose last POST failed or was refused is
an error. Each finding is one line with the fix.
"""

from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import quote

from ros2doctor.api.link import DoctorLink
from ros2doctor.api.link import Finding
from ros2doctor.api.link import LinkCheck
from ros2doctor.api.link import LinkDiagnosis
from ros2doctor.api.link import LinkReport
from ros2doctor.api.link import message_class
from ros2doctor.api.link import node_parameters
from ros2doctor.api.link import nodes_named
from ros2doctor.api.link import private_node
from ros2doctor.api.link import spin_for
from ros2doctor.api.link import tcp_probe

NODE_NAME = 'aimrt_bridge'
MEASURE_S = 1.0
HTTP_TIMEOUT_S = 1.0
PROBE_TOPIC = '__ros2_doctor__'
PROBE_TYPE = 'pb:aimrt.protocols.sensor.JointState'
PARAMS = ('http_host', 'http_port', 'state_aimrt_topics', 'state_ros_topics',
          'command_ros_topics', 'command_aimrt_topics', 'command_addresses')
PREFIX = 'AimRT'


def split_address(address: str) -> Tuple[str, int]:
    """Return (host, port) of ``ip:port`` (a ``http://`` prefix allowed); ValueError if not."""
    text = address.strip()
    if text.startswith('http://'):
        text = text[len('http://'):]
    host, sep, port = text.rstrip('/').rpartition(':')
    if not sep or not host or not port.isdigit():
        raise ValueError(f'{address!r} is not ip:port')
    return host, int(port)


def post_probe(host: str, port: int, timeout_s: float = HTTP_TIMEOUT_S
               ) -> Tuple[Optional[int], str]:
    """POST an empty protobuf body to a channel of no route; (HTTP status or None, why)."""
    import http.client
    path = f"/channel/{quote(PROBE_TOPIC, safe='')}/{quote(PROBE_TYPE, safe='')}"
    connection = http.client.HTTPConnection(host, port, timeout=timeout_s)
    try:
        connection.request('POST', path, body=b'',
                           headers={'content-type': 'application/protobuf'})
        response = connection.getresponse()
        response.read()
        return response.status, response.reason
    except (OSError, http.client.HTTPException) as exc:
        return None, str(exc) or type(exc).__name__
    finally:
        connection.close()


class Flow:
    """MEASURE_S of counting the messages on some topics (raw, any publisher's QoS)."""

    def __init__(self, node: Any, topics: Dict[str, str], seconds: float = MEASURE_S) -> None:
        """Count the messages of ``topics`` ({name: type}) on a node of ``node``'s context."""
        from diagnostic_msgs.msg import DiagnosticArray
        from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
        self.counts: Dict[str, int] = dict.fromkeys(topics, 0)
        self.statuses: Dict[str, Any] = {}    # the bridges' /diagnostics, by status name
        with private_node(node, 'aimrt_doctor') as (listener, executor):
            for name, type_name in topics.items():
                listener.create_subscription(
                    message_class(type_name), name, lambda _, n=name: self._count(n),
                    QoSProfile(depth=100, reliability=ReliabilityPolicy.BEST_EFFORT), raw=True)
            # the bridge keeps its last array for late joiners (transient local)
            listener.create_subscription(
                DiagnosticArray, '/diagnostics', self._diagnostics,
                QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE,
                           durability=DurabilityPolicy.TRANSIENT_LOCAL))
            spin_for(executor, seconds)

    def _count(self, name: str) -> None:
        self.counts[name] += 1

    def _diagnostics(self, array: Any) -> None:
        for status in array.status:
            self.statuses[status.name] = status

    def forward(self, fqn: str, topic: str) -> List[Tuple[int, str, Dict[str, str]]]:
        """Return (level, message, values) of each target of ``fqn``'s command ``topic``."""
        prefix = f'{fqn}: {topic} -> '
        return [(int.from_bytes(status.level, 'little') if isinstance(status.level, bytes)
                 else int(status.level), status.message,
                 {kv.key: kv.value for kv in status.values})
                for name, status in sorted(self.statuses.items()) if name.startswith(prefix)]


def _resolve(namespace: str, topic: str) -> str:
    return topic if topic.startswith('/') else namespace.rstrip('/') + '/' + topic


def bridge_findings(node: Any, fqn: str, params: Optional[Dict[str, Any]]
                    ) -> Tuple[List[Finding], Dict[str, str]]:
    """Return (findings, report items) of one running bridge."""
    out: List[Finding] = []
    items: Dict[str, str] = {}
    if params is None:
        out.append(('error', f'{fqn} does not answer its get_parameters service within 1 s: '
                             'it is stalled (or started without parameter services).'))
        return out, items
    namespace = fqn.rsplit('/', 1)[0] or '/'
    # the bridge's own server
    host = str(params.get('http_host') or '127.0.0.1')
    probe_host = '127.0.0.1' if host in ('0.0.0.0', '') else host
    port = int(params.get('http_port') or 0)
    status, reason = post_probe(probe_host, port)
    items['bridge server'] = f'http://{host}:{port}: ' + (
        f'answers ({status} {reason})' if status is not None else f'no answer ({reason})')
    if status is None:
        out.append(('error', f'the bridge {fqn} does not answer an application/protobuf POST on '
                             f'http://{probe_host}:{port} ({reason}): AimRT cannot deliver '
                             'states: check http_host/http_port and that nothing else holds '
                             'the port.'))
    # the AimRT targets of the commands
    commands = list(zip(params.get('command_ros_topics') or [],
                        params.get('command_aimrt_topics') or [],
                        params.get('command_addresses') or []))
    for ros_topic, aimrt_topic, addresses in commands:
        for address in [a for a in str(addresses).split(',') if a.strip()]:
            try:
                target_host, target_port = split_address(address)
            except ValueError:
                out.append(('error', f'command_addresses entry {address!r} of {fqn} is not '
                                     'ip:port: e.g. 127.0.0.1:50081.'))
                continue
            why = tcp_probe(target_host, target_port)
            items[f'target {address.strip()}'] = f'{aimrt_topic}: ' + (why or 'reachable')
            if why:
                source = _resolve(namespace, ros_topic)
                out.append(('error', f'AimRT target {address.strip()} of {source} -> '
                                     f'{aimrt_topic} is not reachable ({why}): '
                                     'start the AimRT process whose http channel subscriber '
                                     'listens there, or fix command_addresses.'))
    # the ROS side
    known = dict(node.get_topic_names_and_types())
    state_topics = [_resolve(namespace, t) for t in params.get('state_ros_topics') or []]
    command_topics = [_resolve(namespace, c[0]) for c in commands]
    topics = {t: known[t][0] for t in state_topics + command_topics if known.get(t)}
    flow = Flow(node, topics)
    silent = []
    for topic in state_topics:
        count = flow.counts.get(topic, 0)
        items[f'state {topic}'] = f'{count / MEASURE_S:.1f} msg/s from AimRT'
        if not count:
            silent.append(topic)
    if state_topics and len(silent) == len(state_topics):
        out.append(('error', f'no AimRT state reaches ROS through {fqn} in {MEASURE_S:g} s '
                             f"({', '.join(silent)}): no AimRT publisher POSTs to "
                             f'http://{host}:{port}: put it in the AimRT http channel '
                             "backend's server_url_list."))
    else:
        for topic in silent:
            out.append(('warning', f'{topic}: no message from AimRT in {MEASURE_S:g} s: check '
                                   'that AimRT publishes its topic over the http backend.'))
    for topic in command_topics:
        count = flow.counts.get(topic, 0)
        publishers = node.count_publishers(topic)
        targets = flow.forward(fqn, topic)
        last = ', '.join(_last_forward(values) for _, _, values in targets) \
            or 'unknown (no /diagnostics from the bridge)'
        items[f'command {topic}'] = (f'{publishers} publisher(s), {count / MEASURE_S:.1f} '
                                     f'msg/s to forward; last forward: {last}')
        for level, message, values in targets:
            if level >= 2:      # diagnostic_msgs/DiagnosticStatus.ERROR
                out.append(('error', f'{topic} -> {values.get("aimrt_topic", "?")}: the '
                                     f'forwards fail ({message}; {values.get("sent", "?")} '
                                     f'sent, {values.get("failed", "?")} failed, '
                                     f'{values.get("refused", "?")} refused): check the AimRT '
                                     'target at that address, its channel and message type.'))
    return out, items


def _last_forward(values: Dict[str, str]) -> str:
    age = values.get('last_forward_age_sec', 'never')
    return 'never' if age == 'never' else f'{float(age):.1f} s ago'


def bridge_nodes(node: Any) -> List[str]:
    """Return the bridges of the graph: nodes named aimrt_bridge (or aimrt_bridge_*)."""
    names = {name for name, _ in node.get_node_names_and_namespaces()
             if name == NODE_NAME or name.startswith(NODE_NAME + '_')}
    return sorted({fqn for name in names for fqn in nodes_named(node, name)})


def diagnose() -> LinkDiagnosis:
    """Diagnose every running bridge (see the module docstring)."""
    from ros2doctor.api import graph_node
    result = LinkDiagnosis()
    with graph_node() as node:
        for fqn in bridge_nodes(node):
            found, items = bridge_findings(node, fqn, node_parameters(node, fqn, PARAMS))
            result.running = True
            result.findings += found
            result.sections.append((fqn, items))
    return result


# The check runs the diagnosis fresh; its report, beside it, shares that run.
AIMRT = DoctorLink('aimrt', diagnose, prefix=PREFIX, title='AIMRT BRIDGE', label='bridge',
                   idle=f'not running (no {NODE_NAME} node)')


# ros2doctor ships no type hints: to mypy these bases are Any (misc), which take no class
# keyword (call-arg); a wrong keyword fails at import (object.__init_subclass__).
class AimrtCheck(LinkCheck, link=AIMRT):  # type: ignore[misc,call-arg,unused-ignore]
    """Check the AimRT link: targets reachable, the bridge's server, topics flowing."""


class AimrtReport(LinkReport, link=AIMRT):  # type: ignore[misc,call-arg,unused-ignore]
    """Report the AimRT link of every running bridge."""
