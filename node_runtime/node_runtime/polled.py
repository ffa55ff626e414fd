# SPDX-License-Identifier: Apache-2.0
"""
Subscriptions that a fixed-rate loop takes in its own tick, with no executor wake-up.

rclpy's executors wake once per message: with the EventsExecutor a 500 Hz input costs about
216 us of CPU per message, against about 72 us in C on rcl (benchmarks/README.md, issue 40).
A loop that ticks anyway can instead take every waiting sample at the start of its tick,
which costs within 1.2x of C. A ``PolledSubscription`` is an ordinary subscription of its
node (``ros2 node info`` lists it there, its QoS events and QoS-override parameters work as
usual) that no executor serves: the loop calls ``take_all()`` or ``take_newest()``.

Kept out of the executors by leaving it out of the node's subscription list, the list every
rclpy executor (SingleThreaded, MultiThreaded, Events) collects its entities from. rclpy has
no public switch for this, so the list is rclpy's private ``Node._subscriptions``; the
test of this module fails first if a release changes it.
"""

from typing import Any, Generic, List, Optional, TypeVar

MsgT = TypeVar('MsgT')

# A take_all() without a limit stops after this many samples, so a flood faster than the
# loop can never hold one tick forever; what is left is taken on the next tick.
DEFAULT_TAKE_LIMIT = 1024


def _never_called(msg: Any) -> None:
    raise RuntimeError('a PolledSubscription is taken by its loop, never by an executor')


class PolledSubscription(Generic[MsgT]):
    """
    A subscription of `node` that its owner takes in a loop instead of an executor.

    raw=True takes the serialized CDR bytes, as ``create_subscription(raw=True)`` hands
    them over. Take from one thread only: the loop that owns it. Keep a reference to it: the
    node does not hold it, so it is destroyed once unreferenced.
    """

    def __init__(self, node: Any, msg_type: Any, topic: str, qos_profile: Any, *,
                 raw: bool = False) -> None:
        self.node = node
        self.msg_type = msg_type
        self.raw = raw
        self.subscription = node.create_subscription(
            msg_type, topic, _never_called, qos_profile, raw=raw)
        node._subscriptions.remove(self.subscription)
        # Its QoS event handlers (incompatible QoS or type) go too: with rmw_fastrtps they
        # read as ready while a sample waits untaken, so a SingleThreaded or MultiThreaded
        # executor would wake for them without pause (85 % of a core beside a 500 Hz topic).
        self._event_handlers = [handler for handler in self.subscription.event_handlers
                                if handler in node.waitables]
        for handler in self._event_handlers:
            node.remove_waitable(handler)
        node._wake_executor()   # an executor that collected it meanwhile drops it now
        self._take = self.subscription.handle.take_message
        self.taken = 0      # samples taken so far
        self._destroyed = False

    @property
    def topic_name(self) -> str:
        """Return the fully qualified topic name."""
        name: str = self.subscription.topic_name
        return name

    def take(self) -> Optional[MsgT]:
        """Take the oldest waiting sample, or None when none is waiting."""
        taken = self._take(self.msg_type, self.raw)
        if taken is None:
            return None
        self.taken += 1
        msg: MsgT = taken[0]
        return msg

    def take_all(self, limit: int = DEFAULT_TAKE_LIMIT) -> List[MsgT]:
        """Take the waiting samples, oldest first, at most `limit` of them."""
        take, msg_type, raw = self._take, self.msg_type, self.raw
        samples: List[MsgT] = []
        while len(samples) < limit:
            taken = take(msg_type, raw)
            if taken is None:
                break
            samples.append(taken[0])
        self.taken += len(samples)
        return samples

    def take_newest(self, limit: int = DEFAULT_TAKE_LIMIT) -> Optional[MsgT]:
        """Take the waiting samples and return the newest (None when none was waiting)."""
        take, msg_type, raw = self._take, self.msg_type, self.raw
        newest = None
        count = 0
        while count < limit:
            taken = take(msg_type, raw)
            if taken is None:
                break
            newest = taken
            count += 1
        self.taken += count
        if newest is None:
            return None
        msg: MsgT = newest[0]
        return msg

    def destroy(self) -> None:
        """Destroy the subscription (the node's destroy_node() would not: it is not listed)."""
        if self._destroyed:
            return
        self._destroyed = True
        sub = self.subscription
        # The node's destroy_subscription() takes them off its waitables again.
        for handler in self._event_handlers:
            if handler not in self.node.waitables:
                self.node.add_waitable(handler)
        if sub not in self.node._subscriptions:
            self.node._subscriptions.append(sub)
        self.node.destroy_subscription(sub)
