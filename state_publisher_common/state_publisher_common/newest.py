# SPDX-License-Identifier: Apache-2.0
"""
Newest-sample decoding and refusals with rate-limited warnings.

A state publisher's sources run at hundreds of Hz while it publishes at 10-100 Hz: the
subscriptions are raw (bytes), NewestSample keeps only the latest one and decodes it when the
publish timer asks, refusing an oversized sample on its raw size, before decoding.
``subscribe()`` makes the subscription a polled one (node_runtime.polled): no executor wakes
for the 500 Hz source; the publish timer's ``take()`` takes every waiting sample at once and
keeps the newest (issue 40: one wake-up per publish instead of one per source sample).
Refusals (InvalidSample) are logged through Refusals: bounded text, each reason at most once
per period, the held-back count on the next line of that reason.
"""

import re
from typing import Any, Optional, TYPE_CHECKING

from node_runtime.bounded_text import bounded, RateLimiter
from rclpy.serialization import deserialize_message

if TYPE_CHECKING:
    from node_runtime.polled import PolledSubscription


_NUMBER = re.compile(r'[-+]?\d+(\.\d*)?(e[-+]?\d+)?')


class InvalidSample(ValueError):
    """A source message that must not be published; the text says why."""


class NewestSample:
    """The newest raw sample of one topic, decoded on demand (once)."""

    def __init__(self, msg_type: Any, topic: str, max_bytes: int) -> None:
        self.msg_type = msg_type
        self.topic = topic
        self.max_bytes = max_bytes
        self.raw: Optional[bytes] = None
        self.received = 0
        self.polled: Optional['PolledSubscription[bytes]'] = None

    def subscribe(self, node: Any, topic: str,
                  qos_profile: Any) -> 'PolledSubscription[bytes]':
        """
        Subscribe `node` to `topic` (raw) with a subscription that take() polls.

        The subscription is the node's (``ros2 node info`` lists it) but no executor serves
        it; destroy() destroys it (the node's destroy_node() would not).
        """
        from node_runtime.polled import PolledSubscription
        polled: PolledSubscription[bytes] = PolledSubscription(node, self.msg_type, topic,
                                                               qos_profile, raw=True)
        self.polled = polled
        return polled

    def store(self, data: bytes) -> None:
        """Subscription callback (raw=True): keep only the newest bytes."""
        self.raw = data
        self.received += 1

    def take(self) -> Any:
        """Return the message of the newest sample since the last call, or None if none."""
        polled = self.polled
        if polled is not None:
            before = polled.taken
            data = polled.take_newest()
            if data is not None:
                self.raw = data
                self.received += polled.taken - before
        data, self.raw = self.raw, None
        if data is None:
            return None
        if len(data) > self.max_bytes:
            raise InvalidSample(f'{self.topic} oversized: {len(data)} bytes (at most '
                                f'{self.max_bytes})')
        try:
            return deserialize_message(data, self.msg_type)
        except Exception as exc:  # rclpy raises a bare exception type for bad CDR
            raise InvalidSample(f'{self.topic}: undecodable ({type(exc).__name__})') from None

    def destroy(self) -> None:
        """Destroy the polled subscription, if subscribe() made one."""
        if self.polled is not None:
            self.polled.destroy()


class Refusals:
    """Warn about refused samples: bounded, each reason once per `period` s."""

    def __init__(self, logger: Any, period: float = 1.0) -> None:
        self.logger = logger
        self.limiter = RateLimiter(period, max_keys=64, on_full='merge')
        self.count = 0

    def refuse(self, error: object) -> None:
        """Count one refused sample and maybe log it; its reason is the text without numbers."""
        self.count += 1
        text = str(error)
        allowed, repeats = self.limiter.allow(_NUMBER.sub('#', text)[:80])
        if allowed:
            more = f' ({repeats} more since the last warning)' if repeats else ''
            self.logger.warning(f'not published: {bounded(text)}{more}')
