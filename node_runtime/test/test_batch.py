# SPDX-License-Identifier: Apache-2.0
"""
node_runtime.batch: polled subscriptions taken in batches, one wake-up for all that waits.

In one process on a domain of its own (the flood comes from a second process): every message
of several topics is delivered, in order per topic, in fewer handler calls than messages;
subscriptions are added and removed while the reader runs; stop() wakes a wait without a
timeout; while a flood keeps the reader busy, the executor of the same node still answers
parameter sets.
"""

import subprocess
import sys
import threading
import time

from node_runtime.batch import BatchReader, max_rate
import pytest
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.parameter import Parameter
from rclpy.qos import HistoryPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import UInt32
from workspace_testing import allocate_domain, localhost_env, release_domain

DEEP = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=1000,
                  reliability=ReliabilityPolicy.RELIABLE)
TOPICS = ('batch_a', 'batch_b', 'batch_c')
N = 200

FLOOD = r"""
import sys, rclpy
from rclpy.qos import QoSProfile, ReliabilityPolicy
from std_msgs.msg import UInt32
rclpy.init()
node = rclpy.create_node('batch_flooder')
pub = node.create_publisher(UInt32, 'batch_flood',
                            QoSProfile(depth=10, reliability=ReliabilityPolicy.BEST_EFFORT))
print('flooding', flush=True)
msg = UInt32()
try:
    while rclpy.ok():
        msg.data += 1
        pub.publish(msg)
except BaseException:
    pass
"""


@pytest.fixture(scope='module')
def domain():
    value = allocate_domain()
    yield value
    release_domain(value)


@pytest.fixture(scope='module')
def context(domain):
    ctx = rclpy.Context()
    rclpy.init(context=ctx, domain_id=domain)
    yield ctx
    rclpy.try_shutdown(context=ctx)


@pytest.fixture
def nodes(context):
    made = []

    def make(name):
        node = rclpy.create_node(name, context=context)
        made.append(node)
        return node
    yield make
    for node in reversed(made):
        node.destroy_node()


def _wait_matched(publisher, count=1):
    end = time.monotonic() + 10.0
    while publisher.get_subscription_count() < count:
        assert time.monotonic() < end, 'the batched subscription was never matched'
        time.sleep(0.01)


def _collect(received, topic):
    def handler(samples):
        received.setdefault(topic, []).append([m.data for m in samples])
    return handler


def _until(condition, what, timeout=20.0):
    """Wait for `condition()` (a failure guard, not a time budget)."""
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, what
        time.sleep(0.01)


@pytest.mark.parametrize('mode', ['thread', 'spin_once'])
def test_every_message_of_every_topic_in_order(context, nodes, mode):
    owner, talker = nodes('batch_owner'), nodes('batch_talker')
    received = {}
    with BatchReader(context, min_interval=0.005, limit=64) as reader:
        entries = [reader.add(owner, UInt32, t, DEEP, _collect(received, t)) for t in TOPICS]
        pubs = [talker.create_publisher(UInt32, t, DEEP) for t in TOPICS]
        for pub in pubs:
            _wait_matched(pub)
        for i in range(N):
            for pub in pubs:
                pub.publish(UInt32(data=i))
        total = len(TOPICS) * N

        def done():
            return sum(e.taken for e in entries) >= total
        if mode == 'thread':
            reader.start()
            _until(done, 'not every message was taken')
            reader.stop()
            assert not reader.running
        else:
            end = time.monotonic() + 20.0
            while not done() and time.monotonic() < end:
                reader.spin_once(0.1)
        for topic in TOPICS:
            batches = received[topic]
            assert [v for batch in batches for v in batch] == list(range(N)), topic
            # Taken in batches, not one wake-up a message; none larger than the limit.
            assert len(batches) < N
            assert max(len(b) for b in batches) <= 64
        assert reader.wakeups < total
        reader.check()
        # The node lists its subscriptions (ros2 node info); no executor ever served them.
        names = {name for name, _ in owner.get_subscriber_names_and_types_by_node(
            'batch_owner', '/')}
        assert {'/' + t for t in TOPICS} <= names


def test_add_and_remove_while_running(context, nodes):
    owner, talker = nodes('batch_owner2'), nodes('batch_talker2')
    received = {}
    with BatchReader(context) as reader:
        first = reader.add(owner, UInt32, 'batch_first', DEEP, _collect(received, 'first'))
        reader.start()
        pub_first = talker.create_publisher(UInt32, 'batch_first', DEEP)
        _wait_matched(pub_first)
        pub_first.publish(UInt32(data=1))
        _until(lambda: first.taken == 1, 'the first subscription got nothing')
        # Added while the reader waits: its guard condition wakes it for the new one.
        second = reader.add(owner, UInt32, 'batch_second', DEEP, _collect(received, 'second'))
        # Its QoS event handlers are off the node's waitables: an executor that waits on them
        # would find them ready while samples wait, again and again (a busy loop).
        handlers = set(second.polled.subscription.event_handlers)
        assert handlers and not handlers & set(owner.waitables)
        pub_second = talker.create_publisher(UInt32, 'batch_second', DEEP)
        _wait_matched(pub_second)
        for i in range(10):
            pub_second.publish(UInt32(data=i))
        _until(lambda: second.taken == 10, 'the added subscription got not all')
        assert [v for b in received['second'] for v in b] == list(range(10))
        # Removed while running: no handler call after remove(), and the subscription goes.
        reader.remove(first)
        calls = len(received['first'])
        for i in range(5):
            pub_first.publish(UInt32(data=i))
        pub_second.publish(UInt32(data=10))
        _until(lambda: second.taken == 11, 'the remaining subscription stopped')
        _until(lambda: pub_first.get_subscription_count() == 0,
               'the removed subscription was never destroyed')
        assert len(received['first']) == calls
        assert [e.topic_name for e in reader.subscriptions] == ['/batch_second']
        reader.check()


def test_stop_wakes_a_wait_without_timeout(context, nodes):
    owner = nodes('batch_owner3')
    reader = BatchReader(context)
    try:
        reader.add(owner, UInt32, 'batch_silent', DEEP, lambda samples: None)
        results = []
        waiter = threading.Thread(target=lambda: results.append(reader.spin_once(None)))
        reader.spin_once(0.0)       # the subscription is in the wait set from now on
        waiter.start()
        time.sleep(0.2)
        assert waiter.is_alive()    # nothing arrives on batch_silent: it waits
        reader.stop()
        waiter.join(10.0)
        assert not waiter.is_alive(), 'stop() did not wake the wait'
        assert results == [0]
    finally:
        reader.close()


def test_handler_error_stops_the_thread_and_is_kept(context, nodes):
    owner, talker = nodes('batch_owner4'), nodes('batch_talker4')

    def broken(samples):
        raise ValueError('bad sample')
    with BatchReader(context) as reader:
        reader.add(owner, UInt32, 'batch_broken', DEEP, broken)
        reader.start()
        pub = talker.create_publisher(UInt32, 'batch_broken', DEEP)
        _wait_matched(pub)
        pub.publish(UInt32(data=1))
        _until(lambda: not reader.running, 'the reader thread went on after the error')
        with pytest.raises(ValueError, match='bad sample'):
            reader.check()


def test_executor_is_not_starved_by_a_flood(domain, context, nodes):
    owner, caller = nodes('batch_flooded'), nodes('batch_param_caller')
    owner.declare_parameter('gain', 0)
    taken = [0]

    def count(samples):
        taken[0] += len(samples)
    flood_qos = QoSProfile(depth=100, reliability=ReliabilityPolicy.BEST_EFFORT)
    executor = SingleThreadedExecutor(context=context)
    executor.add_node(owner)
    executor.add_node(caller)
    flooder = subprocess.Popen([sys.executable, '-c', FLOOD], env=localhost_env(domain),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        with BatchReader(context) as reader:
            reader.add(owner, UInt32, 'batch_flood', flood_qos, count)
            reader.start()
            assert flooder.stdout.readline().strip() == 'flooding'
            _until(lambda: taken[0] > 1000, 'the flood never reached the reader')
            from rclpy.parameter_client import AsyncParameterClient
            client = AsyncParameterClient(caller, 'batch_flooded')
            assert client.wait_for_services(timeout_sec=20.0)
            for value in range(1, 6):
                before = taken[0]
                future = client.set_parameters([Parameter('gain', value=value)])
                executor.spin_until_future_complete(future, timeout_sec=30.0)
                assert future.done(), f'set {value} was not answered during the flood'
                assert future.result().results[0].successful
                assert owner.get_parameter('gain').value == value
                # The reader went on taking meanwhile: neither side starves the other.
                _until(lambda: taken[0] > before, 'the reader stopped during the set')
            reader.check()
    finally:
        flooder.terminate()
        flooder.wait(10)
        executor.shutdown(timeout_sec=1.0)


def test_max_rate_and_arguments(context):
    assert max_rate(25, 0.005) == pytest.approx(5000.0)
    assert max_rate(1, 0.0) == float('inf')
    with pytest.raises(ValueError):
        BatchReader(context, limit=0)
    with pytest.raises(ValueError):
        BatchReader(context, min_interval=-1.0)


def test_closed_reader_refuses_adds(context, nodes):
    owner = nodes('batch_owner5')
    reader = BatchReader(context)
    reader.close()
    reader.close()      # idempotent
    with pytest.raises(RuntimeError):
        reader.add(owner, UInt32, 'batch_late', DEEP, lambda samples: None)
