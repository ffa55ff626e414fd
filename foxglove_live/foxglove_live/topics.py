# SPDX-License-Identifier: Apache-2.0
"""
Discovery and streaming: one channel per ROS topic, its CDR bytes as received; the time.

Each topic found (allowed by topic_whitelist, not hidden, with a publisher) gets a channel
with its ros2msg schema and a raw subscription whose QoS matches the publishers
(ros2bag_mcap.qos). A transient-local topic's channel keeps its last messages for the
subscription that joins late (ws_topics). The subscriptions are taken in batches
(node_runtime.batch) in a thread of their own: one wake-up at most every BATCH_INTERVAL
takes every sample waiting on every topic. Each message's log time is its DDS receive
time (with use_sim_time: the ROS clock when its batch is taken). With the `time`
capability, /clock is sent to the clients as the server's time.
"""

import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

from node_runtime.batch import Batched, BatchReader, max_rate
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy
from ros2bag_mcap import qos as qos_util
from ros2bag_mcap.schema import DefinitionNotFound, message_class, message_definition

from .settings import allowed, hidden, Patterns
from .ws_server import WsServer

DEPTH = 50
# Between two takes of the streamed topics at least [s]: a client sees a batch at most
# ws_client.FLUSH_DELAY_S after its first message anyway. A history of max_qos_depth (25 by
# default) holds 5 kHz of one topic meanwhile (DEPTH 50: 10 kHz).
BATCH_INTERVAL = 0.005
# /clock may run at kHz; clients need the time, not every tick of it.
TIME_PERIOD_S = 0.01

# A batch of (CDR bytes, message info), oldest first.
Samples = List[Tuple[bytes, Dict[str, Any]]]


class TopicStreamer:
    """The streamed topics of one server: discovery, subscriptions, log times, /clock."""

    def __init__(self, node: Node, server: WsServer, topic_re: Patterns,
                 include_hidden: bool, max_depth: int, sim_time: bool) -> None:
        """Stream the topics `topic_re` allows to `server`; start() begins."""
        self.node = node
        self.server = server
        self.topic_re = topic_re
        self.include_hidden = include_hidden
        self.max_depth = max_depth
        self.sim_time = sim_time
        self.channels: Dict[str, int] = {}          # topic -> channel id
        self.subscriptions: Dict[str, Batched] = {}
        self.skipped: Set[str] = set()
        self.reader: Optional[BatchReader] = None
        self.last_time = 0.0
        self.clock_sub: Any = None

    def start(self, send_time: bool) -> None:
        """Start the reader thread; with `send_time`, send /clock as the server's time."""
        self.reader = BatchReader(self.node.context, min_interval=BATCH_INTERVAL,
                                  name='foxglove_topics')
        self.reader.start()
        if send_time:
            from rosgraph_msgs.msg import Clock
            self.clock_sub = self.node.create_subscription(
                Clock, '/clock', self._on_clock, qos_util.matching_profile([], 10))

    def discover(self) -> None:
        """Stream the topics that appeared since the last call."""
        for topic, types in self.node.get_topic_names_and_types():
            if topic in self.subscriptions or topic in self.skipped:
                continue
            if not self.include_hidden and hidden(topic):
                continue
            if not allowed(self.topic_re, topic):
                continue
            offered = qos_util.offered_profiles(self.node, topic)
            if not offered:
                continue
            self._stream(topic, types[0], offered)

    def _stream(self, topic: str, type_name: str, offered: Sequence[Any]) -> None:
        assert self.reader is not None
        try:
            msg_type = message_class(type_name)
            definition = message_definition(type_name)
        except DefinitionNotFound as exc:
            self.node.get_logger().warning(f'not streaming {topic}: {exc}')
            self.skipped.add(topic)
            return
        profile = qos_util.matching_profile(offered, min(DEPTH, self.max_depth))
        latched_depth = 0
        if profile.durability == DurabilityPolicy.TRANSIENT_LOCAL:
            latched_depth = min(max(p.depth for p in offered) or 1, self.max_depth)
        channel_id = self.server.add_channel(topic, 'cdr', type_name, definition, 'ros2msg',
                                             latched_depth)
        self.channels[topic] = channel_id
        self.subscriptions[topic] = self.reader.add(
            self.node, msg_type, topic, profile, self._callback(channel_id), raw=True,
            with_info=True)
        self.node.get_logger().info(f'streaming {topic} ({type_name})')
        self.node.get_logger().debug(
            f'{topic}: depth {profile.depth} holds {max_rate(profile.depth, BATCH_INTERVAL):.0f}'
            ' Hz between two takes')

    def _callback(self, channel_id: int) -> Callable[[Samples], None]:
        log, now, sim_time = self.server.log, self._now, self.sim_time

        # A batch of (CDR bytes, message info), oldest first (reader thread).
        def on_batch(samples: Samples) -> None:
            if sim_time:
                stamp = now()
                for data, _ in samples:
                    log(channel_id, data, stamp)
                return
            for data, info in samples:
                log(channel_id, data, info['received_timestamp'] or time.time_ns())
        return on_batch

    def _now(self) -> int:
        """Log time of a message: ROS time with sim time (the clients' clock), else wall."""
        if self.sim_time:
            stamp: int = self.node.get_clock().now().nanoseconds
            return stamp
        return time.time_ns()

    def _on_clock(self, msg: Any) -> None:
        wall = time.monotonic()
        if wall - self.last_time >= TIME_PERIOD_S:
            self.last_time = wall
            self.server.broadcast_time(msg.clock.sec * 1_000_000_000 + msg.clock.nanosec)

    def check(self) -> None:
        """Raise the error that stopped the reader's thread, if any (main thread)."""
        if self.reader is not None:
            self.reader.check()

    def close(self) -> None:
        """Stop the reader thread."""
        if self.reader is not None:
            self.reader.close()
