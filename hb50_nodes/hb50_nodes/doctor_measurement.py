# SPDX-License-Identifier: Apache-2.0
"""
Listening to one HB50 namespace for the doctor: the Measurement and what it heard.

A Measurement subscribes on its own node and spins it in a thread of its own; it counts the
500 Hz topics' header stamps, the JointCommand sources, the heartbeats and the bridge's
status, and turns them into rates, the obeyed source and heartbeat gaps.
"""

import os
import statistics
import struct
import threading
import time
from typing import Any, Dict, List, Optional

from . import topics
from .doctor_spec import LONGEST_S, MEASURED, PRIMARY_SOURCE, WINDOW_S


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
