# SPDX-License-Identifier: Apache-2.0
"""
node_runtime.polled: a subscription its loop takes, that no executor wakes for.

In one process on a domain of its own: a publisher sends numbered messages, the executors
(Events, SingleThreaded) are spun, and the polled subscription's loop then takes them all,
in order; the executor never ran its callback, the node still lists the subscription.
"""

import time

from node_runtime.polled import PolledSubscription
import pytest
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.experimental import EventsExecutor
from rclpy.qos import HistoryPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import UInt32
from workspace_testing import allocate_domain, release_domain

DEEP = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=100,
                  reliability=ReliabilityPolicy.RELIABLE)


@pytest.fixture(scope='module')
def context():
    domain = allocate_domain()
    ctx = rclpy.Context()
    rclpy.init(context=ctx, domain_id=domain)
    yield ctx
    rclpy.try_shutdown(context=ctx)
    release_domain(domain)


@pytest.fixture(params=['events', 'single'])
def executor(request, context):
    made = EventsExecutor(context=context) if request.param == 'events' else \
        SingleThreadedExecutor(context=context)
    yield made
    made.shutdown(timeout_sec=1.0)


def _wait_matched(publisher, timeout=10.0):
    end = time.monotonic() + timeout
    while publisher.get_subscription_count() < 1:
        assert time.monotonic() < end, 'the polled subscription was never matched'
        time.sleep(0.01)


def _spin_for(executor, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        executor.spin_once(timeout_sec=0.01)


def test_executor_never_takes_and_the_loop_takes_all_in_order(context, executor):
    node = rclpy.create_node('polled_owner', context=context)
    talker = rclpy.create_node('polled_talker', context=context)
    try:
        polled = PolledSubscription(node, UInt32, 'polled_count', DEEP)
        executor.add_node(node)
        pub = talker.create_publisher(UInt32, 'polled_count', DEEP)
        _wait_matched(pub)
        for i in range(50):
            pub.publish(UInt32(data=i))
        # The executor is spun while the samples wait: a callback would raise (and the
        # samples would be gone); none runs.
        _spin_for(executor, 0.3)
        taken = []
        end = time.monotonic() + 5.0
        while len(taken) < 50 and time.monotonic() < end:
            taken += [msg.data for msg in polled.take_all()]
            time.sleep(0.01)
        assert taken == list(range(50))
        assert polled.taken == 50
        assert polled.take() is None
    finally:
        executor.remove_node(node)
        node.destroy_node()
        talker.destroy_node()


def test_listed_under_its_node(context):
    node = rclpy.create_node('polled_listed', context=context)
    try:
        polled = PolledSubscription(node, UInt32, 'polled_listed_topic', DEEP)
        end = time.monotonic() + 10.0
        while True:     # the graph cache learns of the new subscription asynchronously
            names = dict(node.get_subscriber_names_and_types_by_node('polled_listed', '/'))
            if names or time.monotonic() > end:
                break
            time.sleep(0.01)
        assert names.get('/polled_listed_topic') == ['std_msgs/msg/UInt32']
        assert node.count_subscribers('polled_listed_topic') == 1
        assert polled.subscription not in list(node.subscriptions)
    finally:
        node.destroy_node()


def test_newest_raw_and_limit(context):
    node = rclpy.create_node('polled_newest', context=context)
    try:
        newest = PolledSubscription(node, UInt32, 'polled_newest_topic', DEEP)
        raw = PolledSubscription(node, UInt32, 'polled_newest_topic', DEEP, raw=True)
        pub = node.create_publisher(UInt32, 'polled_newest_topic', DEEP)
        end = time.monotonic() + 10.0
        while pub.get_subscription_count() < 2:
            assert time.monotonic() < end
            time.sleep(0.01)
        for i in range(10):
            pub.publish(UInt32(data=100 + i))
        time.sleep(0.3)
        first = raw.take_all(limit=4)
        assert len(first) == 4 and all(isinstance(b, bytes) for b in first)
        # CDR: 4-byte encapsulation header, then the uint32 little-endian.
        assert [int.from_bytes(b[4:8], 'little') for b in first] == [100, 101, 102, 103]
        assert len(raw.take_all()) == 6
        msg = newest.take_newest()
        assert msg is not None and msg.data == 109
        assert newest.taken == 10
        assert newest.take_newest() is None
    finally:
        node.destroy_node()


def test_destroy_unmatches(context):
    node = rclpy.create_node('polled_destroy', context=context)
    try:
        polled = PolledSubscription(node, UInt32, 'polled_destroy_topic', DEEP)
        assert node.count_subscribers('polled_destroy_topic') == 1
        polled.destroy()
        polled.destroy()    # a second call changes nothing
        assert node.count_subscribers('polled_destroy_topic') == 0
    finally:
        node.destroy_node()


def test_event_handlers_leave_the_executors_too(context):
    # With rmw_fastrtps a subscription's QoS event handlers read as ready while a sample
    # waits untaken: left on the node, a SingleThreadedExecutor would spin without pause.
    node = rclpy.create_node('polled_events', context=context)
    try:
        polled = PolledSubscription(node, UInt32, 'polled_events_topic', DEEP)
        handlers = list(polled.subscription.event_handlers)
        assert handlers, 'rclpy gave the subscription no QoS event handlers'
        assert not set(handlers) & set(node.waitables)
        polled.destroy()    # gives them back first: the node's destroy removes them
        assert node.count_subscribers('polled_events_topic') == 0
    finally:
        node.destroy_node()
