# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""ShmTopicReader.recv_many: the same messages and counters as recv_bytes, batched."""

import os
import struct

from horus_msg_py import Imu, LaserScan, shm, ShmRewoundError, ShmTruncatedError
import numpy as np
import pytest


def scan(i):
    return LaserScan(ranges=np.full(360, float(i)), timestamp_ns=i).to_bytes()


def imu(i):
    return Imu(orientation=[0, 0, 0, 1], timestamp_ns=i).to_bytes()


@pytest.mark.parametrize('make,cls', [(scan, LaserScan), (imu, Imu)])
def test_matches_recv_bytes_including_overrun(horus_ns, make, cls):
    with shm.ShmTopicWriter(cls, 't', capacity=8) as writer:
        one = shm.ShmTopicReader(cls, 't', start='oldest')
        many = shm.ShmTopicReader(cls, 't', start='oldest')
        for i in range(21):             # overruns the 8-slot ring
            writer.send(make(i))
        singles = []
        while (data := one.recv_bytes()) is not None:
            singles.append(data)
        batches = many.recv_many(3) + many.recv_many(100)
        # the oldest slot still in the ring is counted lost too (the writer of the next
        # lap may start on it): recv_bytes' rule, kept
        assert batches == singles == [make(i) for i in range(14, 21)]
        assert many.lost == one.lost == 14
        assert many.recv_many(5) == []
        writer.send(make(21))
        assert many.recv_many(5) == [make(21)]
        one.close()
        many.close()


def test_wraps_around_the_ring(horus_ns):
    with shm.ShmTopicWriter(LaserScan, 't', capacity=4) as writer:
        reader = shm.ShmTopicReader(LaserScan, 't', start='latest')
        got = []
        for i in range(10):
            writer.send(scan(i))
            writer.send(scan(100 + i))
            got += reader.recv_many(10)
        assert got == [scan(j) for i in range(10) for j in (i, 100 + i)]
        assert reader.lost == 0
        reader.close()


def test_rewind_is_raised_once_and_resynchronises(horus_ns):
    with shm.ShmTopicWriter(LaserScan, 't', capacity=8) as writer:
        reader = shm.ShmTopicReader(LaserScan, 't', start='latest')
        for i in range(5):
            writer.send(scan(i))
        assert len(reader.recv_many(10)) == 5
        head = shm.HEADER_DTYPE.fields['sequence_or_head'][1]
        os.pwrite(writer._fd, struct.pack('<Q', 2), head)   # another process rewinds
        with pytest.raises(ShmRewoundError):
            reader.recv_many(10)
        assert reader.rewinds == 1
        writer.send(scan(7))
        assert reader.recv_many(10) == [scan(7)]
        reader.close()


def test_stalled_slot_waits_then_is_skipped(horus_ns, monkeypatch):
    with shm.ShmTopicWriter(LaserScan, 't', capacity=8) as writer:
        reader = shm.ShmTopicReader(LaserScan, 't', start='latest')
        writer.send(scan(0))
        writer.send(scan(1))
        # corrupt the ready word of seq 0: published but never ready
        os.pwrite(writer._fd, struct.pack('<Q', 0), shm.HEADER_SIZE)
        assert reader.recv_many(10) == []       # waits for the producer first
        assert reader.recv_many(10) == []
        monkeypatch.setattr('horus_msg_py.shm_reader.STALL_LIMIT_S', 0.0)
        assert reader.recv_many(10) == [scan(1)]
        assert (reader.corrupt, reader.lost) == (1, 1)
        reader.close()


def test_truncation_after_messages_returns_them_then_raises(horus_ns):
    with shm.ShmTopicWriter(LaserScan, 't', capacity=8) as writer:
        reader = shm.ShmTopicReader(LaserScan, 't', start='latest')
        writer.send(scan(0))
        os.truncate(writer.path, shm.HEADER_SIZE + 8)
        with pytest.raises(ShmTruncatedError):
            reader.recv_many(10)
        reader.close()
        writer.close(unlink=True)
