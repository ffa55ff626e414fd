# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
Publishing into a HORUS topic: :class:`ShmTopicWriter`, the topic's one producer.

Creates the topic if needed (ring file with its header, magic written last, then the
JSON ``.meta``), registers as the producer and publishes each message's data, then its
ready word, then the head, in that order, with ``pwrite``. Like HORUS, the last
participant to leave removes the files.
"""

import json
import os
import time
from typing import Optional, TypeVar, Union

import numpy as np

from .errors import ShmError, ShmTruncatedError
from .messages import HorusMessage
from .shm_layout import (BACKEND_SPSC_SHM, DEFAULT_CAPACITY, DEFAULT_LEASE_MS, HEAD_OFFSET,
                         HEADER_DTYPE, HEADER_SIZE, MAGIC, meta_path, POD_YES, ring_geometry,
                         ROLE_PRODUCER, TYPE_ALIGN, U64, U64_MAX, VERSION)
from .shm_topic import MessageType, monotonic_ms, ShmTopic, thread_hash

_W = TypeVar('_W', bound='ShmTopicWriter')


class ShmTopicWriter(ShmTopic):
    """Publishes into a HORUS topic, creating it (header, ring, .meta) if needed."""

    def __init__(self, msg_type: MessageType, topic: str, namespace: Optional[str] = None,
                 capacity: int = DEFAULT_CAPACITY) -> None:
        super().__init__(msg_type, topic, namespace)
        self._slot = None
        self.created = False
        self._last_lease = 0.0
        if capacity <= 0 or capacity & (capacity - 1):
            raise ShmError('capacity %d is not a power of two' % capacity)
        self._open_or_create(capacity)

    def _open_or_create(self, capacity: int) -> None:
        folder = os.path.dirname(self.path)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
            created = True
        except FileExistsError:
            fd = os.open(self.path, os.O_RDWR)
            created = False
        try:
            if created:
                self._init_file(fd, capacity)
                self.created = True
            else:
                self._wait_initialised(fd)
            self._map(fd)
            self._slot = self._register(ROLE_PRODUCER)
        except BaseException:
            self._unmap()
            if created:
                self._unlink()
            raise

    def _wait_initialised(self, fd: int, timeout: float = 1.0) -> None:
        # Another process may have created the file a moment ago; HORUS writes the
        # magic last, so wait (bounded) for it.
        deadline = time.monotonic() + timeout
        while True:
            if os.fstat(fd).st_size >= HEADER_SIZE:
                magic = U64.unpack(os.pread(fd, 8, 0))[0]
                if magic == MAGIC:
                    return
            if time.monotonic() > deadline:
                os.close(fd)
                raise ShmError('%s exists but was never initialised' % self.path)
            time.sleep(0.005)

    def _init_file(self, fd: int, capacity: int) -> None:
        cls = self.msg_type
        small, slot_size, _r, _d, size = ring_geometry(cls.SIZE, capacity)
        os.ftruncate(fd, size)
        header = np.zeros(1, dtype=HEADER_DTYPE)
        h = header[0]
        h['version'] = VERSION
        h['type_size'] = cls.SIZE
        h['type_align'] = TYPE_ALIGN
        h['is_pod'] = POD_YES
        h['backend_mode'] = BACKEND_SPSC_SHM
        h['creator_pid'] = os.getpid()
        h['creator_thread_id_hash'] = thread_hash()
        h['migration_epoch'] = 1
        # @49 = 1 tells HORUS the ready word sits inside each 64-byte slot; without
        # it a HORUS peer expects a separate ready-word array and rejects the file.
        h['inline_ready'] = 1 if small else 0
        h['capacity'] = capacity
        h['capacity_mask'] = capacity - 1
        h['slot_size'] = slot_size
        h['lease_timeout_ms'] = DEFAULT_LEASE_MS
        h['last_topology_change_ms'] = monotonic_ms()
        h['type_name'] = cls.TYPE_NAME.encode('ascii')
        raw = bytearray(header.tobytes())
        os.pwrite(fd, bytes(raw[8:]), 8)
        # Magic last: a peer that sees it sees a complete header.
        os.pwrite(fd, U64.pack(MAGIC), 0)
        meta = {'name': self.topic, 'size': size, 'creator_pid': os.getpid(),
                'created_at': int(time.time())}
        mpath = meta_path(self.topic, self.namespace)
        tmp = mpath + '.tmp.%d' % os.getpid()
        with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 'w') as f:
            json.dump(meta, f, separators=(',', ':'))
        os.replace(tmp, mpath)

    def send(self, msg: Union[HorusMessage, bytes, bytearray, memoryview]) -> int:
        """Publish one message (a ``msg_type`` object or its exact bytes); return its sequence."""
        if isinstance(msg, HorusMessage):
            if type(msg) is not self.msg_type:
                raise ShmError('topic %s carries %s, got %s' % (
                    self.topic, self.msg_type.TYPE_NAME, msg.TYPE_NAME))
            data = msg.to_bytes()
        else:
            data = bytes(msg)
            if len(data) != self.msg_type.SIZE:
                raise ShmError('%s needs %d bytes, got %d' % (
                    self.msg_type.TYPE_NAME, self.msg_type.SIZE, len(data)))
        fd = self._open_fd()
        size = os.fstat(fd).st_size
        if size < self.file_size:
            raise ShmTruncatedError('%s was truncated to %d bytes (the ring needs %d)'
                                    % (self.path, size, self.file_size))
        seq = self.head()
        if seq >= U64_MAX:
            raise ShmError('%s: head index %d is corrupt (no room to publish)' % (self.path, seq))
        slot = seq & self.mask
        os.pwrite(fd, data, self._data_at(slot))
        os.pwrite(fd, U64.pack(seq + 1), self._ready_at(slot))
        os.pwrite(fd, U64.pack(seq + 1), HEAD_OFFSET)
        now = time.monotonic()
        if now - self._last_lease > 1.0:
            self.refresh_lease()
            self._last_lease = now
        return seq

    def _unlink(self) -> None:
        for path in (self.path, meta_path(self.topic, self.namespace)):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass

    def close(self, unlink: Optional[bool] = None) -> None:
        """
        Leave the topic; like HORUS, the last participant removes the files.

        ``unlink`` forces (True) or prevents (False) the removal.
        """
        if self._mm is None:
            return
        self._deregister(ROLE_PRODUCER)
        last = self._active_participants() == 0
        self._unmap()
        if unlink or (unlink is None and last and not self.replaced()):
            self._unlink()

    def __enter__(self: _W) -> _W:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
