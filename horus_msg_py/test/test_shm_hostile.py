# SPDX-License-Identifier: Apache-2.0
"""
Hostile shared memory: HORUS topic files corrupted, truncated, rewound or removed.

Property tests (hypothesis, derandomized): whatever another process does to a topic
file, the reader only raises ShmError subclasses (never SIGBUS, which would kill this
test process, nor any other exception), returns only whole messages, stops within a
bounded number of calls, and a fresh valid topic works afterwards. Random message bytes
either convert to a valid ROS 2 message or raise HorusMsgError.
"""

import os
import uuid

from horus_msg_py import (HorusMsgError, MESSAGE_TYPES, SENSOR_TYPES, shm, ShmError,
                          ShmRewoundError, ShmTruncatedError)
from horus_msg_py.ros_conversions import CONVERTERS
from hypothesis import given, HealthCheck, settings
from hypothesis import strategies as st
import pytest

BASE = settings(derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
#: One small-ring type (inline ready words) and two large-ring types.
RING_TYPES = ['RangeSensor', 'Imu', 'LaserScan']
U64_MAX = 2 ** 64 - 1

CORRUPTION = st.one_of(
    st.tuples(st.just('header'), st.integers(0, shm.HEADER_SIZE - 1),
              st.binary(min_size=1, max_size=64)),
    st.tuples(st.just('ring'), st.integers(0, 1 << 20), st.binary(min_size=1, max_size=256)),
    st.tuples(st.just('head'), st.integers(0, U64_MAX)),
    st.tuples(st.just('rewind'), st.integers(1, 64)),
    st.tuples(st.just('ready'), st.integers(0, 7), st.integers(0, U64_MAX)),
    st.tuples(st.just('truncate'), st.integers(0, 1 << 20)),
    st.tuples(st.just('remove')),
)


def _sample(cls, stamp):
    """Return a valid message of type cls, told apart by its timestamp."""
    return cls(timestamp_ns=stamp)


def _corrupt(path, op, file_size):
    """Apply one corruption to the topic file (as a hostile process would)."""
    kind = op[0]
    if not os.path.exists(path):
        return
    if kind == 'remove':
        os.unlink(path)
        return
    with open(path, 'r+b') as f:
        fd = f.fileno()
        head = int.from_bytes(os.pread(fd, 8, 64), 'little') if os.fstat(fd).st_size >= 72 \
            else 0
        if kind == 'header':
            os.pwrite(fd, op[2], op[1])
        elif kind == 'ring':
            os.pwrite(fd, op[2], shm.HEADER_SIZE + op[1] % (file_size - shm.HEADER_SIZE))
        elif kind == 'head':
            os.pwrite(fd, op[1].to_bytes(8, 'little'), 64)
        elif kind == 'rewind':
            os.pwrite(fd, max(0, head - op[1]).to_bytes(8, 'little'), 64)
        elif kind == 'ready':
            # the ready word of a slot: first word of a small slot, else the ready array
            os.pwrite(fd, op[2].to_bytes(8, 'little'), shm.HEADER_SIZE + op[1] * 8)
        elif kind == 'truncate':
            os.ftruncate(fd, op[1] % file_size)


def _drain(reader, limit=64):
    """Read until None or a ShmError other than a rewind; return the payloads read."""
    got = []
    for _ in range(limit):
        try:
            data = reader.recv_bytes()
        except ShmRewoundError:
            continue
        except ShmError:
            break
        if data is None:
            break
        got.append(data)
    return got


@settings(BASE, max_examples=150)
@given(type_name=st.sampled_from(RING_TYPES), before=st.integers(0, 20),
       ops=st.lists(CORRUPTION, min_size=1, max_size=4), after=st.integers(0, 12))
def test_reader_survives_any_corruption_and_a_fresh_topic_works(type_name, before, ops, after):
    cls = MESSAGE_TYPES[type_name]
    ns = 'hmp_hostile_%d_%s' % (os.getpid(), uuid.uuid4().hex[:8])
    try:
        writer = shm.ShmTopicWriter(cls, 'hostile', ns, capacity=8)
        reader = shm.ShmTopicReader(cls, 'hostile', ns, start='oldest')
        for i in range(before):
            writer.send(_sample(cls, 1000 + i))
        first = [cls.from_bytes(d).timestamp_ns for d in _drain(reader)]
        # Before any corruption the newest capacity - 1 messages arrive intact, in order
        # (the oldest slot may be under rewrite once head == its seq + capacity).
        assert first == [1000 + i for i in range(max(0, before - 7), before)]
        got = []
        for op in ops:
            _corrupt(writer.path, op, writer.file_size)
            try:
                reader.check()
            except ShmError:
                pass
            for i in range(after):
                try:
                    writer.send(_sample(cls, 5000 + i))
                except ShmError:        # truncated: the writer refuses, never SIGBUS
                    break
            got += _drain(reader)
        assert all(len(data) == cls.SIZE for data in got)
        reader.close()
        writer.close(unlink=True)
    finally:
        shm.remove_namespace(ns)
    # A valid topic afterwards still works.
    ns2 = ns + '_fresh'
    try:
        with shm.ShmTopicWriter(cls, 'hostile', ns2, capacity=8) as w2, \
                shm.ShmTopicReader(cls, 'hostile', ns2, start='oldest') as r2:
            w2.send(_sample(cls, 42))
            assert cls.from_bytes(r2.recv_bytes()).timestamp_ns == 42
    finally:
        shm.remove_namespace(ns2)


def test_truncation_is_an_error_not_sigbus(horus_ns):
    cls = MESSAGE_TYPES['LaserScan']
    with shm.ShmTopicWriter(cls, 'trunc', capacity=4) as writer, \
            shm.ShmTopicReader(cls, 'trunc', start='oldest') as reader:
        writer.send(_sample(cls, 1))
        os.truncate(writer.path, shm.HEADER_SIZE + 100)
        with pytest.raises(ShmTruncatedError):
            reader.check()
        with pytest.raises(ShmTruncatedError):
            reader.recv_bytes()
        with pytest.raises(ShmTruncatedError):
            writer.send(_sample(cls, 2))
        os.truncate(writer.path, 0)
        with pytest.raises(ShmTruncatedError):
            reader.recv_bytes()


def test_rewind_is_reported_once_then_the_reader_follows_the_new_head(horus_ns):
    cls = MESSAGE_TYPES['Imu']
    with shm.ShmTopicWriter(cls, 'rew', capacity=8) as writer, \
            shm.ShmTopicReader(cls, 'rew', start='oldest') as reader:
        for i in range(5):
            writer.send(_sample(cls, i))
        assert len(_drain(reader)) == 5
        with open(writer.path, 'r+b') as f:
            os.pwrite(f.fileno(), (2).to_bytes(8, 'little'), 64)
        with pytest.raises(ShmRewoundError):
            reader.recv_bytes()
        assert reader.recv_bytes() is None and reader.rewinds == 1
        writer.send(_sample(cls, 77))
        assert cls.from_bytes(reader.recv_bytes()).timestamp_ns == 77


def test_a_published_slot_with_a_corrupt_ready_word_is_skipped(horus_ns, monkeypatch):
    cls = MESSAGE_TYPES['Imu']
    with shm.ShmTopicWriter(cls, 'stall', capacity=8) as writer, \
            shm.ShmTopicReader(cls, 'stall', start='oldest') as reader:
        writer.send(_sample(cls, 1))
        writer.send(_sample(cls, 2))
        with open(writer.path, 'r+b') as f:     # slot 0's ready word back to 0
            os.pwrite(f.fileno(), (0).to_bytes(8, 'little'), shm.HEADER_SIZE)
        clock = [100.0]
        monkeypatch.setattr(shm.time, 'monotonic', lambda: clock[0])
        assert reader.recv_bytes() is None          # maybe not ready yet: wait
        clock[0] += shm.STALL_LIMIT_S * 2
        assert cls.from_bytes(reader.recv_bytes()).timestamp_ns == 2
        assert reader.corrupt == 1


@settings(BASE, max_examples=60)
@given(type_name=st.sampled_from(SENSOR_TYPES), data=st.data())
def test_random_message_bytes_convert_or_raise_horus_msg_error(type_name, data):
    conv = CONVERTERS[type_name]
    raw = data.draw(st.binary(min_size=conv.horus_type.SIZE, max_size=conv.horus_type.SIZE))
    try:
        msg = conv.to_ros(conv.horus_type.from_bytes(raw), frame_id='f')
    except HorusMsgError:
        return
    assert isinstance(msg, conv.ros_type)
