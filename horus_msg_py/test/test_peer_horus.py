# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
Byte-level tests against the real peer, horus-robotics==0.4.1, in other processes.

1. every type sent by horus-robotics is read from its shared memory by our reader
   and equals our encoding of the same values (padding ignored);
2. every type written by our writer is received by a horus-robotics subscriber
   with equal values.
Also pins the shared-memory facts that horus_msg_py.shm relies on.
"""

import json
import math
import os
import stat
import subprocess
import sys
import time

from horus_msg_py import MESSAGE_TYPES, SENSOR_TYPES, shm
from horus_msg_py.layouts import PADDING
from horus_testing import peer_samples
import numpy as np
import pytest

PEER = ['-m', 'horus_testing.horus_peer']
TIMEOUT = 30.0


@pytest.fixture
def horus_publisher(horus_ns):
    """Start a horus-robotics process that has sent one sample of every sensor type."""
    proc = subprocess.Popen([sys.executable, *PEER, 'publish', 'peer.', '0', *SENSOR_TYPES],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ))
    try:
        line = proc.stdout.readline()
        assert line.strip() == 'READY', 'peer publisher failed: %r' % line
        yield proc
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _with_padding_zeroed(type_name, raw):
    out = bytearray(raw)
    for start, end in PADDING[type_name]:
        out[start:end] = bytes(end - start)
    return bytes(out)


@pytest.mark.parametrize('type_name', SENSOR_TYPES)
def test_peer_sent_bytes_equal_our_encoding(horus_publisher, type_name):
    cls = MESSAGE_TYPES[type_name]
    with shm.ShmTopicReader(cls, 'peer.' + type_name) as reader:
        raw = reader.recv_bytes()
        assert raw is not None
        assert reader.recv_bytes() is None            # exactly one message
    got = cls.from_bytes(raw)
    expected = cls(**peer_samples.horus_fields(type_name))
    if type_name == 'Odometry':
        # The wheel stamps the nested Pose2D/Twist with wall time when it builds them.
        expected.pose.timestamp_ns = got.pose.timestamp_ns
        expected.twist.timestamp_ns = got.twist.timestamp_ns
        assert abs(got.pose.timestamp_ns - time.time_ns()) < 3600 * 10**9
    # The slot's bytes outside padding are exactly our encoding (names are
    # NUL-terminated and zero-filled by the peer too).
    assert _with_padding_zeroed(type_name, raw) == expected.to_bytes()
    assert got == expected


def test_peer_published_into_spec_paths_and_header(horus_publisher, horus_ns):
    base = shm.namespace_dir(horus_ns)
    assert stat.S_IMODE(os.stat(base).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(os.path.join(base, 'topics')).st_mode) == 0o700
    for type_name in SENSOR_TYPES:
        path = shm.topic_path('peer.' + type_name)
        cls = MESSAGE_TYPES[type_name]
        small = cls.SIZE + 8 <= 64
        cap = 1024
        expected_size = 640 + cap * 64 if small else 640 + cap * 8 + cap * cls.SIZE
        assert os.path.getsize(path) == expected_size
        with open(path, 'rb') as f:
            h = np.frombuffer(f.read(640), dtype=shm.HEADER_DTYPE)[0]
        assert int(h['magic']) == 0x4144415054495645 and int(h['version']) == 4
        assert (int(h['type_size']), int(h['type_align']), int(h['is_pod'])) == (cls.SIZE, 8, 2)
        assert int(h['backend_mode']) == shm.BACKEND_SPSC_SHM
        assert (int(h['capacity']), int(h['capacity_mask'])) == (cap, cap - 1)
        assert int(h['slot_size']) == (64 if small else cls.SIZE)
        assert int(h['inline_ready']) == (1 if small else 0)
        assert bytes(h['type_name']) == type_name.encode()
        assert int(h['sequence_or_head']) == 1 and int(h['publisher_count']) == 1
        assert int(h['lease_timeout_ms']) == 5000
        part = h['participants'][0]
        assert int(part['pid']) == horus_publisher.pid and int(part['role']) == 1
        # Leases are CLOCK_MONOTONIC ms + lease_timeout_ms.
        assert 0 < int(part['lease_expires_ms']) - shm._monotonic_ms() <= 5000
        with open(shm.meta_path('peer.' + type_name)) as f:
            meta = json.load(f)
        assert meta['name'] == 'peer.' + type_name and meta['size'] == expected_size
        assert meta['creator_pid'] == horus_publisher.pid
    assert os.path.basename(shm.meta_path('a/b.c')) == 'a_b_c.meta'
    assert large_layout_example() == (8832, 1524352)


def large_layout_example():
    _small, _slot, _ready, data_at, size = shm.ring_geometry(1480, 1024)
    return data_at(0), size


def test_peer_files_disappear_when_last_handle_closes(horus_publisher, horus_ns):
    path = shm.topic_path('peer.LaserScan')
    assert os.path.exists(path)
    horus_publisher.stdin.close()
    horus_publisher.wait(timeout=10)
    assert not os.path.exists(path)
    assert not os.path.exists(shm.meta_path('peer.LaserScan'))


def _run_peer_subscriber(types, timeout=TIMEOUT):
    out = subprocess.run([sys.executable, *PEER, 'subscribe', 'ours.', str(timeout), *types],
                         capture_output=True, text=True, timeout=timeout + 30,
                         env=dict(os.environ))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def _same(a, b):
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def test_our_writer_received_by_peer_subscriber(horus_ns):
    writers = []
    try:
        for type_name in SENSOR_TYPES:
            cls = MESSAGE_TYPES[type_name]
            w = shm.ShmTopicWriter(cls, 'ours.' + type_name)
            writers.append(w)
            w.send(cls(**peer_samples.horus_fields(type_name)))
        got = _run_peer_subscriber(SENSOR_TYPES)
    finally:
        for w in writers:
            w.close()
    assert sorted(got) == sorted(SENSOR_TYPES)
    for type_name in SENSOR_TYPES:
        expected = peer_samples.SAMPLES[type_name]
        received = got[type_name]
        for key, value in expected.items():
            assert _same(received[key], value), (type_name, key, received[key], value)
    # Our writer removed its files as the last participant.
    for type_name in SENSOR_TYPES:
        assert not os.path.exists(shm.topic_path('ours.' + type_name))


def test_our_writer_joins_a_topic_the_peer_created(horus_publisher):
    # The peer process created peer.Temperature; we publish into the same ring.
    cls = MESSAGE_TYPES['Temperature']
    with shm.ShmTopicWriter(cls, 'peer.Temperature') as w:
        assert not w.created
        seq = w.send(cls(temperature=-5.5, variance=0.125, timestamp_ns=11))
        assert seq == 1
        with shm.ShmTopicReader(cls, 'peer.Temperature') as r:
            assert r.recv().temperature == 36.625
            assert r.recv() == cls(temperature=-5.5, variance=0.125, timestamp_ns=11)


def test_reader_counts_overrun_messages(horus_ns):
    cls = MESSAGE_TYPES['RangeSensor']
    with shm.ShmTopicWriter(cls, 'ring', capacity=8) as w:
        with shm.ShmTopicReader(cls, 'ring') as r:
            for i in range(20):
                w.send(cls(range=float(i), timestamp_ns=i))
            got = []
            while True:
                m = r.recv()
                if m is None:
                    break
                got.append(m.timestamp_ns)
            # Only the ring's last 8 messages survive; the slot the writer would
            # overwrite next (seq 12) is reported lost rather than read torn.
            assert got == list(range(13, 20))
            assert r.lost == 13
            w.send(cls(timestamp_ns=20))
            assert r.recv().timestamp_ns == 20


def test_reader_refuses_a_foreign_type(horus_publisher):
    with pytest.raises(shm.ShmError):
        shm.ShmTopicReader(MESSAGE_TYPES['Illuminance'], 'peer.Imu')
    with pytest.raises(shm.ShmError):
        shm.ShmTopicReader(MESSAGE_TYPES['FluidPressure'], 'peer.Temperature')
    with pytest.raises(shm.ShmError):
        shm.ShmTopicReader(MESSAGE_TYPES['Imu'], 'no.such.topic')
