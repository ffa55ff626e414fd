# SPDX-License-Identifier: Apache-2.0
"""
`ros2 doctor` check and report of the HB50 stack (entry points in setup.py).

Silent when no HB50 stack runs (no topic of type hb50_commons/msg/BridgeData): the check
passes with nothing to say and the report says "not running". Otherwise, for each namespace
with a bridge: every topic of the table present with its documented type and its publishers
with the documented QoS (mabRT best effort / Reliable), subscribers of the Reliable topics
reliable; the 500 Hz topics measured for WINDOW_S against their rate +- RATE_TOLERANCE (from
the publishers' header stamps: a sample lost by this reader does not lower the figure); a
heartbeat from every node that publishes heartbeats within HEARTBEAT_S; more than one
JointCommand source, and which one the bridge obeys; robot_description present. Each finding
is one line that names the fix.
"""

import contextlib
import os
import statistics
import struct
import threading
import time
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from ros2doctor.api import DoctorCheck
from ros2doctor.api import DoctorReport
from ros2doctor.api import Report
from ros2doctor.api import Result
from ros2doctor.api.format import doctor_error
from ros2doctor.api.format import doctor_warn

from . import topics

WINDOW_S = 1.2          # s of listening once the samples flow
LONGEST_S = 5.0         # s of listening at most when nothing arrives
RATE_TOLERANCE = 0.02
HEARTBEAT_S = 1.0
BRIDGE_TYPE = 'hb50_commons/msg/BridgeData'
# Topics every running stack has (velocity_command only when a user publishes it).
REQUIRED = (topics.BRIDGE_DATA, topics.BRIDGE_STATE, topics.BRIDGE_STATE_10HZ,
            topics.JOINT_COMMAND, topics.ROBOT_STATE, topics.ROBOT_STATE_10HZ, topics.STATUS,
            topics.HEARTBEAT)
# The 500 Hz topics whose rate is measured: they start with a std_msgs/Header.
MEASURED = (topics.BRIDGE_DATA, topics.ROBOT_STATE)
PRODUCER = {topics.BRIDGE_DATA: 'bridge_node', topics.BRIDGE_STATE: 'bridge_node',
            topics.BRIDGE_STATE_10HZ: 'bridge_node', topics.JOINT_COMMAND: 'control_node',
            topics.ROBOT_STATE: 'control_node', topics.ROBOT_STATE_10HZ: 'control_node',
            topics.STATUS: 'any HB50 node', topics.HEARTBEAT: 'any HB50 node'}
PRIMARY_SOURCE = 'control_node'


@contextlib.contextmanager
def _graph() -> Iterator[Any]:
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


def _namespaces(topic_types: Iterable[Tuple[str, Sequence[str]]]) -> List[str]:
    """Return the namespaces of the BridgeData topics in [(topic, [types])]."""
    return sorted(name[:-len(topics.BRIDGE_DATA) - 1] or '/' for name, types in topic_types
                  if name.endswith('/' + topics.BRIDGE_DATA) and BRIDGE_TYPE in types)


def bridge_namespaces(node: Any) -> List[str]:
    """Return the namespaces in which a bridge publishes BridgeData ('/hb50' by default)."""
    return [namespace for namespace in _namespaces(node.get_topic_names_and_types())
            if node.count_publishers(topics.resolve(topics.BRIDGE_DATA, namespace))]


def _stamp_ns(data: bytes) -> Optional[int]:
    """Return header.stamp of a serialized message that starts with a std_msgs/Header."""
    if len(data) < 12:
        return None
    sec: int
    nanosec: int
    sec, nanosec = struct.unpack('<iI' if data[1] == 1 else '>iI', data[4:12])
    return sec * 1_000_000_000 + nanosec


class Measurement:
    """
    What listening to one HB50 namespace found.

    The listener subscribes at once and listens in a thread of its own until WINDOW_S after
    the later of its first 500 Hz sample and the match of its heartbeat subscription's last
    publisher, so that the window starts when the data flows rather than when discovery
    began; at most LONGEST_S when nothing arrives (LONGEST_S + WINDOW_S in all). ``wait()``
    returns when it is done.
    """

    def __init__(self, node: Any, namespace: str, window: float = WINDOW_S,
                 longest: float = LONGEST_S):
        """Subscribe on a node of ``node``'s context and start listening."""
        import rclpy
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.qos import qos_profile_sensor_data

        from hb50_commons.msg import BridgeData, BridgeState, JointCommand, RobotState, Status
        from . import qos
        self.window, self.longest = window, longest
        self.stamps: Dict[str, List[int]] = {name: [] for name in MEASURED}
        self.sources: Dict[str, int] = {}
        self.heartbeats: Dict[str, List[float]] = {}       # received (monotonic s)
        self.beat_stamps: Dict[str, List[float]] = {}      # their header stamps (s)
        self.bridge_status: List[str] = []
        self.first_sample: Optional[float] = None
        self.beats_matched: Optional[float] = None
        self._listener = rclpy.create_node(f'_hb50_doctor_{os.getpid()}', context=node.context,
                                           start_parameter_services=False)
        self._executor = SingleThreadedExecutor(context=node.context)
        self._executor.add_node(self._listener)
        try:
            classes = {topics.BRIDGE_DATA: BridgeData, topics.ROBOT_STATE: RobotState}
            for name in MEASURED:
                self._listener.create_subscription(
                    classes[name], topics.resolve(name, namespace),
                    lambda data, n=name: self._stamp(n, data), qos_profile_sensor_data, raw=True)
            self._listener.create_subscription(
                JointCommand, topics.resolve(topics.JOINT_COMMAND, namespace), self._command,
                qos.JOINT_COMMAND_READER)
            self._beats = self._listener.create_subscription(
                Status, topics.resolve(topics.HEARTBEAT, namespace), self._heartbeat,
                qos.RELIABLE)
            self._listener.create_subscription(
                BridgeState, topics.resolve(topics.BRIDGE_STATE_10HZ, namespace),
                self._bridge_state, qos.RELIABLE)
        except BaseException:
            self._close()
            raise
        self.start = self.end = time.monotonic()
        self._thread = threading.Thread(target=self._listen, name=f'hb50-doctor{namespace}',
                                        daemon=True)
        self._thread.start()

    def _done(self, now: float) -> bool:
        if self.first_sample is None:
            return now - self.start >= self.longest
        if now - self.start >= self.longest + self.window:
            return True
        anchor = max(self.first_sample, self.beats_matched or self.first_sample)
        # a heartbeat writer may learn of this reader well after the reader matched it
        return now - anchor >= self.window and self._heard_every_beating_node()

    def _heard_every_beating_node(self) -> bool:
        beating = {info.node_name
                   for info in self._listener.get_publishers_info_by_topic(self._beats.topic_name)}
        # the listener's graph may still lack a publisher its subscription has matched
        return beating <= set(self.heartbeats) \
            and len(self.heartbeats) >= self._beats.get_publisher_count()

    def _listen(self) -> None:
        matched = 0
        try:
            while True:
                now = time.monotonic()
                count = self._beats.get_publisher_count()
                if count > matched:     # one more heartbeat publisher: its window starts
                    matched, self.beats_matched = count, now
                if self._done(now):
                    break
                self._executor.spin_once(timeout_sec=0.02)
            self.end = time.monotonic()
        finally:
            self._close()

    def _close(self) -> None:
        self._executor.shutdown()
        self._listener.destroy_node()

    def wait(self) -> 'Measurement':
        """Return once the listening is over."""
        self._thread.join()
        return self

    def _stamp(self, name: str, data: bytes) -> None:
        stamp = _stamp_ns(data)
        if stamp is not None:
            self.stamps[name].append(stamp)
            if self.first_sample is None:
                self.first_sample = time.monotonic()

    def _command(self, msg: Any) -> None:
        self.sources[msg.source_node] = self.sources.get(msg.source_node, 0) + 1

    def _heartbeat(self, msg: Any) -> None:
        self.heartbeats.setdefault(msg.reporting_node, []).append(time.monotonic())
        stamp = msg.header.stamp
        self.beat_stamps.setdefault(msg.reporting_node, []).append(
            stamp.sec + stamp.nanosec * 1e-9)

    def _bridge_state(self, msg: Any) -> None:
        self.bridge_status = list(msg.status)

    def rate(self, name: str) -> Optional[float]:
        """Return the publisher's rate from the median stamp step (None: < 3 samples)."""
        stamps = sorted(set(self.stamps[name]))
        steps = [b - a for a, b in zip(stamps, stamps[1:]) if b > a]
        if len(steps) < 2:
            return None
        return 1e9 / statistics.median(steps)

    def chosen_source(self) -> str:
        """Return the JointCommand source the bridge obeys (its BridgeState says a custom one)."""
        for text in self.bridge_status:
            if text.startswith('command source: '):
                return text[len('command source: '):]
        return PRIMARY_SOURCE

    def heartbeat_gap(self, node: str) -> float:
        """
        Return the longest silence of ``node``'s heartbeats in the window (s).

        Between two beats by their stamps (this listener's own delays do not count), and from
        the last beat's arrival to the end; a node without a beat is silent from when the
        last heartbeat publisher matched (before that, discovery).
        """
        beats = self.heartbeats.get(node, [])
        if not beats:
            return self.end - (self.beats_matched or self.first_sample or self.start)
        stamps = sorted(self.beat_stamps.get(node, []))
        return max([b - a for a, b in zip(stamps, stamps[1:])] + [self.end - beats[-1]])


def _profile_name(info: Any) -> str:
    from rclpy.qos import ReliabilityPolicy
    return 'mabRT' if info.qos_profile.reliability == ReliabilityPolicy.BEST_EFFORT \
        else 'Reliable'


def findings(node: Any, namespace: str, measurement: Measurement) -> List[Tuple[str, str]]:
    """Return [(level 'error' | 'warning', one line with the fix)] of one HB50 namespace."""
    from rclpy.qos import ReliabilityPolicy
    out: List[Tuple[str, str]] = []
    known = dict(node.get_topic_names_and_types())
    for name in REQUIRED:
        topic = topics.resolve(name, namespace)
        row = topics.TOPICS[name]
        if topic not in known or not node.count_publishers(topic):
            out.append(('error', f'{topic} has no publisher: start {PRODUCER[name]} '
                                 '(`make run` starts the whole stack).'))
            continue
        if row.type_name not in known[topic] or len(known[topic]) > 1:
            out.append(('error', f"{topic} has type [{', '.join(known[topic])}] where "
                                 f'{row.type_name} is documented: a publisher uses another '
                                 'message definition; rebuild it against hb50_commons.'))
        for info in node.get_publishers_info_by_topic(topic):
            if _profile_name(info) != row.profile:
                out.append(('error', f'{topic}: publisher {info.node_name} is '
                                     f'{_profile_name(info)}, the vendor documents '
                                     f'{row.profile}: publish with hb50_nodes.qos.'
                                     f"{'MAB_RT' if row.profile == 'mabRT' else 'RELIABLE'}."))
        if row.profile == 'Reliable':
            for info in node.get_subscriptions_info_by_topic(topic):
                if info.qos_profile.reliability == ReliabilityPolicy.BEST_EFFORT:
                    out.append(('warning', f'{topic}: subscriber {info.node_name} is best '
                                           'effort where Reliable is required (events and '
                                           'heartbeats are lost): subscribe with '
                                           'hb50_nodes.qos.RELIABLE.'))
    for name in MEASURED:
        topic = topics.resolve(name, namespace)
        nominal = topics.TOPICS[name].rate or 0.0     # every measured topic has its rate
        rate = measurement.rate(name)
        if rate is None:
            out.append(('error', f'{topic}: no samples in {LONGEST_S:g} s: check the QoS '
                                 '(best effort) and that the publisher is not stalled.'))
        elif abs(rate - nominal) > RATE_TOLERANCE * nominal:
            out.append(('error', f'{topic} runs at {rate:.1f} Hz, not {nominal:g} Hz '
                                 f'+- {RATE_TOLERANCE:.0%}: check its `rate` parameter and '
                                 'the host load (chrt -f 10 keeps 500 Hz under load).'))
    beating = sorted({info.node_name for info in node.get_publishers_info_by_topic(
        topics.resolve(topics.HEARTBEAT, namespace))})
    for name in beating:
        gap = measurement.heartbeat_gap(name)
        if gap > HEARTBEAT_S:
            out.append(('error', f'no heartbeat from {name} for {gap:.1f} s on '
                                 f'{topics.resolve(topics.HEARTBEAT, namespace)}: the node is '
                                 'stalled or its heartbeat_rate is below 1 Hz.'))
    sources = sorted(measurement.sources)
    if len(sources) > 1:
        out.append(('warning', f"{len(sources)} JointCommand sources ({', '.join(sources)}) on "
                               f'{topics.resolve(topics.JOINT_COMMAND, namespace)}; the bridge '
                               f'obeys {measurement.chosen_source()}: stop the others, or '
                               'publish the custom source at >= 10 Hz to keep priority.'))
    description = namespace.rstrip('/') + '/robot_description'
    if not node.count_publishers(description):
        out.append(('warning', f'{description} has no publisher: start state_publisher_node '
                               '(`ros2 run hb50_nodes state_publisher_node`).'))
    return out


_measured: Dict[str, Measurement] = {}
_measured_on: List[object] = []     # the graph node of _measured (kept: its id is not reused)
_measured_lock = threading.Lock()


def _listen(node: Any, namespace: str) -> Measurement:
    """Start listening to the namespace, once per graph node (check and report share it)."""
    with _measured_lock:
        if not _measured_on or _measured_on[0] is not node:
            _measured.clear()
            _measured_on[:] = [node]
        if namespace not in _measured:
            _measured[namespace] = Measurement(node, namespace)
        return _measured[namespace]


def _measure(node: Any, namespace: str) -> Measurement:
    """Return the namespace's Measurement once it is over."""
    return _listen(node, namespace).wait()


def _wait_all() -> None:
    """Return once every listening started is over (none outlives the check's graph)."""
    with _measured_lock:
        started = list(_measured.values())
    for measurement in started:
        measurement.wait()


def _listen_early() -> None:
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
    for namespace in _namespaces(known.items()):
        _listen(node, namespace)


class HB50Check(DoctorCheck):  # type: ignore[misc,unused-ignore]  # ros2doctor is Any here
    """Check the HB50 stack's topics, rates, heartbeats and command sources."""

    def category(self) -> str:
        """Return 'hb50'."""
        return 'hb50'

    def check(self) -> Result:
        """Return an error per broken link, a warning per doubtful one; nothing if no HB50."""
        result = Result()
        _listen_early()
        try:
            with _graph() as node:
                for namespace in bridge_namespaces(node):
                    for level, text in findings(node, namespace, _measure(node, namespace)):
                        if level == 'error':
                            doctor_error(f'HB50: {text}')
                            result.add_error()
                        else:
                            doctor_warn(f'HB50: {text}')
                            result.add_warning()
        finally:
            _wait_all()
        return result


class HB50Report(DoctorReport):  # type: ignore[misc,unused-ignore]  # ros2doctor is Any
    """Report the HB50 stack: topics with publishers and measured rates, sources, heartbeats."""

    def category(self) -> str:
        """Return 'hb50'."""
        return 'hb50'

    def report(self) -> Report:
        """Return the HB50 STACK report; 'not running' without a bridge."""
        report = Report('HB50 STACK')
        _listen_early()
        try:
            self._fill(report)
        finally:
            _wait_all()
        return report

    def _fill(self, report: Report) -> None:
        with _graph() as node:
            namespaces = bridge_namespaces(node)
            if not namespaces:
                report.add_to_report('status', 'not running (no hb50_commons/msg/BridgeData '
                                               'publisher)')
            for namespace in namespaces:
                measurement = _measure(node, namespace)
                report.add_to_report('namespace', namespace)
                for name in REQUIRED:
                    topic = topics.resolve(name, namespace)
                    publishers = sorted(f'{i.node_name} ({_profile_name(i)})'
                                        for i in node.get_publishers_info_by_topic(topic))
                    report.add_to_report(topic, ', '.join(publishers) or 'no publisher')
                for name in MEASURED:
                    rate = measurement.rate(name)
                    report.add_to_report(f'rate {topics.resolve(name, namespace)}',
                                         'no samples' if rate is None else f'{rate:.1f} Hz')
                report.add_to_report('command sources',
                                     ', '.join(sorted(measurement.sources)) or 'none')
                report.add_to_report('bridge obeys', measurement.chosen_source())
                report.add_to_report('heartbeats', ', '.join(
                    f'{n} ({len(b)})' for n, b in sorted(measurement.heartbeats.items()))
                    or 'none')
