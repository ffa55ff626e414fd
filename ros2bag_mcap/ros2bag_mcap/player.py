# SPDX-License-Identifier: Apache-2.0
"""
`ros2 bag play`: publishes a bag's CDR bytes at the recorded timing with the recorded QoS.

The message times are the recorded receive times (MCAP log time). A dedicated loop sleeps
to 0.5 ms before each message's due time and busy-waits the rest, then publishes the bytes
as they are (`Publisher.publish(bytes)`). The difference between the actual publish time and
the due time is the timing error reported at the end (p50/p99/max).
"""

import argparse
import os
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from node_runtime import runner, stop as stop_request
from node_runtime.runner import RosSession
import numpy as np
import rclpy

from . import qos as qos_util
from .bag_metadata import read_metadata
from .bag_reader import read_messages
from .schema import DefinitionNotFound, message_class

SPIN_WINDOW = 0.0005


def _sleep_until(deadline: float, stopped: Callable[[], bool]) -> None:
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or stopped():
            return
        if left > SPIN_WINDOW:
            time.sleep(min(left - SPIN_WINDOW, 0.05))


class Player:
    """Publishes a bag's messages on schedule; the caller destroys `node` (run(): a session)."""

    def __init__(self, uri: str, rate: float = 1.0, topics: Optional[Sequence[str]] = None,
                 start_offset: float = 0.0, loop: bool = False,
                 overrides: Optional[Dict[str, Any]] = None, delay: float = 0.0,
                 context: Any = None, out: Callable[..., None] = print) -> None:
        """Read the bag `uri` and create a publisher per topic played."""
        if rate <= 0:
            raise ValueError('rate must be > 0')
        if start_offset < 0:
            raise ValueError('start offset must be >= 0')
        self.out = out
        self.rate = rate
        self.loop = loop
        self.delay = delay
        meta = read_metadata(uri)
        infos = {t['topic_metadata']['name']: t['topic_metadata']
                 for t in meta.get('topics_with_message_count') or []}
        if topics:
            missing = [t for t in topics if t not in infos]
            if missing:
                out(f'[WARN] not in the bag: {", ".join(missing)}', file=sys.stderr)
        selected = [t for t in infos if not topics or t in topics]
        start = meta['starting_time']['nanoseconds_since_epoch'] + int(start_offset * 1e9)
        self.messages: List[Tuple[str, bytes, int]] = [
            (topic, data, t) for topic, _, data, t, _ in
            read_messages(uri, topics=selected, start_time=start)]
        self.node = rclpy.create_node('ros2bag_mcap_player', context=context,
                                      start_parameter_services=False)
        self.publishers: Dict[str, Any] = {}
        overrides = overrides or {}
        for topic in selected:
            tm = infos[topic]
            try:
                msg_type = message_class(tm['type'])
            except DefinitionNotFound as exc:
                out(f'[WARN] not playing {topic}: {exc}', file=sys.stderr)
                continue
            profile = overrides.get(topic) or qos_util.playback_profile(
                qos_util.parse_profiles(tm['offered_qos_profiles']))
            self.publishers[topic] = self.node.create_publisher(msg_type, topic, profile)
        self.messages = [m for m in self.messages if m[0] in self.publishers]
        self._stop = False
        self.errors_ns: List[int] = []
        self.published = 0

    def stop(self, *_: Any) -> None:
        """Stop playing (a signal handler's signature)."""
        self._stop = True

    def play(self) -> None:
        """Publish every message at its recorded time (`rate` times faster)."""
        def stopped() -> bool:
            return self._stop or stop_request.requested()

        if not self.messages:
            self.out('[WARN] nothing to play')
            return
        t0 = self.messages[0][2]
        span = (self.messages[-1][2] - t0) / self.rate / 1e9
        start = time.monotonic() + self.delay
        publishers = self.publishers
        errors = self.errors_ns
        while not stopped():
            base_ns = int(start * 1e9)
            for topic, data, t in self.messages:
                due = start + (t - t0) / 1e9 / self.rate
                _sleep_until(due, stopped)
                if stopped():
                    break
                publishers[topic].publish(data)
                errors.append(time.monotonic_ns() - base_ns - int((t - t0) / self.rate))
                self.published += 1
            if not self.loop:
                break
            # Next pass starts one mean message period after the last message.
            start += span + span / max(1, len(self.messages) - 1)

    def report(self) -> None:
        """Print the count and the timing error (p50/p99/max)."""
        self.out(f'[INFO] Played {self.published} messages on {len(self.publishers)} topics')
        if self.errors_ns:
            e = np.abs(np.asarray(self.errors_ns, dtype=np.float64)) / 1e3
            self.out(f'[INFO] Timing error vs recorded schedule: p50 {np.percentile(e, 50):.1f} '
                     f'us, p99 {np.percentile(e, 99):.1f} us, max {e.max():.1f} us')


def run(args: argparse.Namespace) -> int:
    """Entry of the play verb (parsed argparse namespace)."""
    overrides: Dict[str, Any] = {}
    if args.qos_profile_overrides_path:
        try:
            overrides = qos_util.load_overrides(args.qos_profile_overrides_path)
        except ValueError as exc:
            print(f'error: {exc}', file=sys.stderr)
            return 2

    def play(session: RosSession) -> None:
        # A bag that is not there or not a bag (ValueError) exits 2 with one line.
        player = Player(args.bag, args.rate, args.topics, args.start_offset, args.loop,
                        overrides, args.delay, context=session.context)
        session.add_node(player.node)
        if args.rt_priority:
            try:
                os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(args.rt_priority))
            except (OSError, AttributeError) as exc:
                print(f'[WARN] --rt-priority {args.rt_priority}: SCHED_FIFO not available '
                      f'({exc}); playing at normal priority', file=sys.stderr)
        player.play()
        if not player._stop and not stop_request.requested():
            time.sleep(0.5)     # let reliable samples still in flight reach subscribers
        player.report()
    return runner.run_command(play, args.ros_args, prog='ros2 bag')
