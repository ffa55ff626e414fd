# SPDX-License-Identifier: Apache-2.0
"""
Commands to AimRT: a dead or hanging target is counted, never waited on.

A target that accepts connections and never answers sits next to a healthy one. The
submitting thread (the ROS 2 executor in the node) is never blocked: every submit
returns while the dead target's worker is stuck in its POST; the healthy target gets
every command in order; the dead one's failures and drops are counted and reported.
"""

import socket
import threading

from aimrt_bridge.command_queue import CommandTarget
from aimrt_protocols_py.http_channel import ChannelPublisher, ChannelServer
import pytest


@pytest.fixture
def dead_target():
    """Return the address of a socket that accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(('127.0.0.1', 0))
    listener.listen(64)
    accepted = []
    stop = threading.Event()

    def accept():
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield '127.0.0.1:%d' % listener.getsockname()[1]
    stop.set()
    thread.join(timeout=2)
    for conn in accepted:
        conn.close()
    listener.close()


@pytest.fixture
def live_target():
    """Return (address, received bodies) of a working AimRT http-channel subscriber."""
    got = []
    server = ChannelServer('127.0.0.1', 0,
                           lambda t, m, c, body: (got.append(body), (200, 'OK'))[1])
    server.start()
    yield '127.0.0.1:%d' % server.port, got
    server.stop()


def test_dead_target_is_counted_and_never_blocks_the_submitter(dead_target, live_target):
    address, got = live_target
    events = []
    dead = CommandTarget(ChannelPublisher(dead_target, 0.5), depth=4,
                         on_event=lambda t, reason, text: events.append((t.address, reason)))
    live = CommandTarget(ChannelPublisher(address, 0.5), depth=1000)
    try:
        dead.submit('cmd', 'pb:x', b'first', 'application/protobuf')
        assert _wait(lambda: dead.status()['busy'])      # its worker is stuck in a POST
        for i in range(50):
            body = b'cmd%d' % i
            dead.submit('cmd', 'pb:x', body, 'application/protobuf')
            live.submit('cmd', 'pb:x', body, 'application/protobuf')
        assert live.wait_idle(timeout=20)
        assert got == [b'cmd%d' % i for i in range(50)]
        # submit never waited for the dead target: its bounded queue overflowed instead
        st = dead.status()
        assert st['queued'] <= 4 and st['dropped'] >= 50 - 4
        assert ('%s' % dead.address, 'dropped') in events
        # the timeouts turn into counted failures
        assert _wait(lambda: dead.status()['failed'] >= 1, timeout=20)
        assert dead.status()['last_error']
        assert ('%s' % dead.address, 'failed') in events
        assert live.status()['failed'] == 0 and live.status()['sent'] == 50
    finally:
        dead.stop(timeout=0.5)
        live.stop(timeout=0.5)
    # once stopped, every command submitted is accounted for (the node's exit summary)
    st = dead.status()
    assert st['sent'] == 0 and st['unsent'] + int(st['busy']) <= 4 + 1   # queue + in flight
    assert st['failed'] + st['dropped'] + st['unsent'] + int(st['busy']) == 51, st


def test_refusing_target_is_counted(live_target):
    server = ChannelServer('127.0.0.1', 0, lambda *a: (422, 'no'))
    server.start()
    target = CommandTarget(ChannelPublisher('127.0.0.1:%d' % server.port, 1.0), depth=8)
    try:
        for _ in range(3):
            target.submit('cmd', 'pb:x', b'x', 'application/protobuf')
        assert target.wait_idle(timeout=20)
        st = target.status()
        assert (st['sent'], st['refused'], st['last_error']) == (0, 3, 'answered HTTP 422')
    finally:
        target.stop()
        server.stop()


def _wait(predicate, timeout=10.0):
    done = threading.Event()
    end = threading.Timer(timeout, done.set)
    end.start()
    try:
        while not done.is_set():
            if predicate():
                return True
            done.wait(0.01)
        return predicate()
    finally:
        end.cancel()


def test_a_burst_to_a_keep_alive_target_is_pipelined_in_order(live_target):
    address, got = live_target
    publisher = ChannelPublisher(address, 5.0)
    batches = []
    post_many = publisher.post_many

    def recording_post_many(items):
        batches.append(len(items))
        return post_many(items)
    publisher.post_many = recording_post_many
    target = CommandTarget(publisher, depth=1000)
    try:
        target.submit('cmd', 'pb:x', b'first', 'application/protobuf')
        assert target.wait_idle(timeout=20)
        for i in range(500):
            target.submit('cmd', 'pb:x', b'cmd%d' % i, 'application/protobuf')
        assert target.wait_idle(timeout=20)
        st = target.status()
    finally:
        target.stop()
    assert got == [b'first'] + [b'cmd%d' % i for i in range(500)]
    assert (st['sent'], st['failed'], st['dropped']) == (501, 0, 0)
    assert batches[0] == 1 and max(batches) > 1     # alone on a new connection, then batches
    assert max(batches) <= 64


def test_submit_many_keeps_the_newest_and_counts_the_dropped(dead_target):
    events = []
    target = CommandTarget(ChannelPublisher(dead_target, 0.5), depth=5,
                           on_event=lambda t, reason, text: events.append((reason, text)))
    try:
        # the worker may already hold the first command in its POST: fill past it
        assert target.submit_many([('t', 'm', b'%d' % i, 'c') for i in range(3)]) == 0
        target.wait_idle(0.0)
        dropped = target.submit_many([('t', 'm', b'%d' % i, 'c') for i in range(3, 10)])
        st = target.status()
        assert st['queued'] <= 5
        assert dropped == st['dropped'] and st['queued'] + st['busy'] + dropped == 10
        assert [item[2] for item in target._queue] == [b'%d' % i for i in
                                                       range(10 - st['queued'], 10)]
        assert ('dropped', 'queue of 5 full, %d oldest commands dropped' % dropped) in events
    finally:
        target.stop(timeout=0.5)


def test_submit_after_stop_queues_nothing(dead_target):
    target = CommandTarget(ChannelPublisher(dead_target, 0.5), depth=5)
    target.stop(timeout=0.5)
    assert target.submit('t', 'm', b'x', 'c') is False
    assert target.submit_many([('t', 'm', b'x', 'c')] * 3) == 0
    st = target.status()
    assert (st['queued'], st['dropped'], st['unsent']) == (0, 0, 0)
