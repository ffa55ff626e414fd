# SPDX-License-Identifier: Apache-2.0
"""
`ros2 bag record`: serialized messages from raw subscriptions into a rosbag2 MCAP bag.

Never deserializes. Each topic is subscribed with a profile that matches all of its
publishers (best effort when one is), with a deep KEEP_LAST history so that samples queue in
DDS while this process is busy instead of being overwritten. Topics appearing later are
picked up by a 100 ms graph poll, as rosbag2 does.

The subscriptions are taken in batches (node_runtime.batch, issue 40): one wake-up at most
every BATCH_INTERVAL takes every sample waiting on every topic, instead of one executor
wake-up per message. Each sample keeps its own times from its message info: the log time is
its DDS receive time and the publish time its source timestamp (as rosbag2 writes them), so
batching changes neither. A history of HISTORY_DEPTH holds 100 kHz of one topic between two
wake-ups; a QoS override with a shallower KEEP_LAST history shortens the interval to what it
holds at MAX_TOPIC_RATE.
"""

import argparse
import functools
import re
import sys
import time
from typing import Any, Callable, Dict, Iterable, List, Optional, Set, Tuple

from node_runtime import runner, stop as stop_request
from node_runtime.batch import Batched, BatchReader
from node_runtime.runner import RosSession
import rclpy
from rclpy.qos import HistoryPolicy

from . import qos as qos_util
from .bag_writer import BagWriter
from .schema import DefinitionNotFound, message_class

HISTORY_DEPTH = 1000
DISCOVERY_PERIOD = 0.1
BATCH_INTERVAL = 0.01       # s between two wake-ups at least
MAX_TOPIC_RATE = 2000.0     # Hz: what a shallow overridden history must hold between wakes


class Recorder:
    """
    Subscribes and writes; `spin()` runs until `stop()` (or a signal) and closes the bag.

    The caller destroys `node` (run(): node_runtime.runner's session).
    """

    def __init__(self, uri: str, topics: Iterable[str] = (), all_topics: bool = False,
                 regex: Optional[str] = None, overrides: Optional[Dict[str, Any]] = None,
                 max_bag_duration: float = 0.0, include_hidden: bool = False,
                 out: Callable[..., None] = print, context: Any = None) -> None:
        """Create the bag `uri` and the recorder's node; spin() records."""
        self.out = out
        self.wanted = set(topics)
        self.all = all_topics
        self.regex = re.compile(regex) if regex else None
        self.overrides: Dict[str, Any] = overrides or {}
        self.include_hidden = include_hidden
        self.writer = BagWriter(uri, max_bag_duration)
        self.node = rclpy.create_node('ros2bag_mcap_recorder', context=context,
                                      start_parameter_services=False)
        self.reader = BatchReader(self.node.context, min_interval=BATCH_INTERVAL,
                                  name='ros2bag_mcap_recorder')
        self.subscriptions: Dict[str, Batched] = {}
        self.skipped: Set[str] = set()
        self._stop = False
        self._seq: Dict[str, int] = {}
        self._last_flush = time.monotonic()

    def wants(self, topic: str) -> bool:
        """Return whether `topic` is recorded (named, -a or -e; hidden ones on request)."""
        if topic in self.wanted:
            return True
        if not self.include_hidden and any(p.startswith('_') for p in topic.split('/')):
            return False
        return self.all or bool(self.regex and self.regex.search(topic))

    def discover(self) -> None:
        """Subscribe to the wanted topics that appeared since the last call."""
        for topic, types in self.node.get_topic_names_and_types():
            if topic in self.subscriptions or topic in self.skipped or not self.wants(topic):
                continue
            offered = qos_util.offered_profiles(self.node, topic)
            if not offered:
                continue     # only a subscriber so far: wait for a publisher's QoS
            type_name = types[0]
            try:
                msg_type = message_class(type_name)
                self.writer.add_topic(topic, type_name, offered,
                                      qos_util.type_hash(self.node, topic))
            except DefinitionNotFound as exc:
                self.out(f'[WARN] not recording {topic}: {exc}', file=sys.stderr)
                self.skipped.add(topic)
                continue
            profile = self.overrides.get(topic) or qos_util.matching_profile(
                offered, HISTORY_DEPTH)
            self._seq[topic] = 0
            if profile.history != HistoryPolicy.KEEP_ALL:
                self.reader.min_interval = min(self.reader.min_interval,
                                               profile.depth / MAX_TOPIC_RATE)
            self.subscriptions[topic] = self.reader.add(
                self.node, msg_type, topic, profile, self._callback(topic), raw=True,
                with_info=True)
            # Transient local when every publisher is (as rosbag2): a latched sample published
            # before the recording started (robot_description, /tf_static) is in the bag.
            policies = qos_util.to_dict(profile)
            self.out(f'[INFO] Subscribed to topic {topic} ({type_name}, '
                     f'{policies["reliability"]}, {policies["durability"]})')

    def _callback(self, topic: str) -> Callable[[List[Tuple[bytes, Dict[str, Any]]]], None]:
        write = self.writer.write
        seq = self._seq

        # A batch of (CDR bytes, message info), oldest first: the DDS receive time is the log
        # time and the source timestamp the publish time (either 0: now).
        def on_batch(samples: List[Tuple[bytes, Dict[str, Any]]]) -> None:
            n = seq[topic]
            for data, info in samples:
                n += 1
                recv = info['received_timestamp'] or time.time_ns()
                write(topic, data, recv, info['source_timestamp'] or recv, n)
            seq[topic] = n
        return on_batch

    def stop(self, *_: Any) -> None:
        """Stop recording (a signal handler's signature)."""
        self._stop = True

    def spin(self, executor: Any) -> None:
        """Record until stop() or a stop request; then close the bag and report."""
        executor.add_node(self.node)
        next_discovery = 0.0
        try:
            while not self._stop and not stop_request.requested() and self.node.context.ok():
                now = time.monotonic()
                if now >= next_discovery:
                    self.discover()
                    next_discovery = now + DISCOVERY_PERIOD
                # Every topic's waiting samples, then the node's own services (not waiting).
                self.reader.spin_once(timeout_sec=max(0.0, next_discovery - time.monotonic()))
                executor.spin_once(timeout_sec=0.0)
                if now - self._last_flush > 1.0:
                    self.writer.flush()
                    self._last_flush = now
            # Take what is already queued before closing.
            end = time.monotonic() + 0.2
            while time.monotonic() < end and self.node.context.ok():
                self.reader.spin_once(timeout_sec=0.02)
        finally:
            self.reader.close()
            self.writer.close()
            self.report()

    def report(self) -> None:
        """Print the messages written per topic."""
        w = self.writer
        self.out(f'[INFO] Recording stopped: {w.uri}')
        for topic in sorted(w.topics):
            self.out(f'[INFO]   {topic}: {w.topics[topic].count} messages written')
        total = sum(t.count for t in w.topics.values())
        self.out(f'[INFO] {total} messages in {len(w.files)} file(s)')


def default_name() -> str:
    """Return rosbag2's default bag name (rosbag2_<date>-<time>)."""
    return time.strftime('rosbag2_%Y_%m_%d-%H_%M_%S')


def run(args: argparse.Namespace) -> int:
    """Entry of the record verb (parsed argparse namespace)."""
    if not args.all and not args.topics and not args.regex:
        print('error: give topics, -a/--all or -e/--regex', file=sys.stderr)
        return 2
    overrides: Dict[str, Any] = {}
    if args.qos_profile_overrides_path:
        try:
            overrides = qos_util.load_overrides(args.qos_profile_overrides_path)
        except ValueError as exc:
            print(f'error: {exc}', file=sys.stderr)
            return 2
    if args.max_bag_duration < 0:
        print('error: --max-bag-duration must be >= 0', file=sys.stderr)
        return 2
    uri = args.output or default_name()

    def record(session: RosSession) -> None:
        # Each line flushed: a supervisor reading the output sees a subscription at once.
        recorder = Recorder(uri, args.topics, args.all, args.regex, overrides,
                            args.max_bag_duration, args.include_hidden_topics,
                            out=functools.partial(print, flush=True), context=session.context)
        session.add_node(recorder.node)
        from rclpy.experimental import EventsExecutor
        executor = session.add_executor(EventsExecutor(context=session.context))
        print(f'[INFO] Recording to {uri} (Ctrl-C stops and closes the bag)', flush=True)
        recorder.spin(executor)
    # A bag that cannot be created (it exists, no permission) exits 1 with one line.
    return runner.run_command(record, args.ros_args, prog='ros2 bag')
