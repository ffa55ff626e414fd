# SPDX-License-Identifier: Apache-2.0
"""The state sender: one thread POSTing the newest state batch to every address."""

import logging
import queue
import threading
from typing import Sequence

LOG = logging.getLogger('aimrt_mujoco_sim')

# (topic, type, body, content type) of one state message
Post = tuple[str, str, bytes, str]


class StatePoster:
    """
    One thread POSTing the newest state batch to every address.

    Older batches are dropped when POSTs are slower than the publish rate (bounded queue,
    bounded timeouts).
    """

    def __init__(self, addresses: Sequence[str], timeout: float) -> None:
        """One http channel publisher per `ip:port` address, each POST within `timeout` s."""
        from aimrt_protocols_py.http_channel import ChannelPublisher
        self.targets = [ChannelPublisher(a, timeout) for a in addresses]
        self.queue: queue.Queue[list[Post]] = queue.Queue(maxsize=1)
        self.sent = self.failed = self.dropped = 0
        self._warned: set[tuple[str, str]] = set()
        self._thread = threading.Thread(target=self._run, name='state_poster', daemon=True)
        self._stop = threading.Event()

    def start(self) -> None:
        """Start the sender thread."""
        self._thread.start()

    def offer(self, batch: list[Post]) -> None:
        """Queue a batch for sending, in place of one still waiting (counted as dropped)."""
        try:
            self.queue.put_nowait(batch)
        except queue.Full:
            self.dropped += 1
            try:
                self.queue.get_nowait()
            except queue.Empty:
                pass
            self.queue.put_nowait(batch)

    def _run(self) -> None:
        import http.client
        while not self._stop.is_set():
            try:
                batch = self.queue.get(timeout=0.1)
            except queue.Empty:
                continue
            for target in self.targets:
                for topic, msg_type, body, ctype in batch:
                    try:
                        status = target.post(topic, msg_type, body, ctype)
                        ok = status == 200
                        reason = f'HTTP {status}'
                    except (OSError, http.client.HTTPException) as e:
                        ok, reason = False, str(e)
                    if ok:
                        self.sent += 1
                        continue
                    self.failed += 1
                    key = (target.address, topic)
                    if key not in self._warned:  # once per address and topic
                        self._warned.add(key)
                        LOG.warning('POST %s to %s failed: %s (further failures counted)',
                                    topic, target.address, reason)

    def stop(self) -> None:
        """Stop the thread (within 5 s) and close the connections."""
        self._stop.set()
        self._thread.join(timeout=5.0)
        for target in self.targets:
            target.close()
