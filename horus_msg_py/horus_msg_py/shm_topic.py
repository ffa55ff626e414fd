# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
An open HORUS topic file: the base that the reader and the writer share.

:class:`ShmTopic` opens and validates a topic's file, maps its header page and keeps
its ring geometry; it reads the ring and the head with ``pread`` (never through the
mapping: touching a mapped page past a truncated file's end is SIGBUS, while a
``pread`` there just comes back short, :class:`ShmTruncatedError`), checks that the
file still holds the ring it mapped, and registers, refreshes and removes this
process's entry in the participant table, the only part accessed through the mapping
(page 0, after checking that the file still holds it).
"""

import mmap
import os
import threading
import time
from typing import Any, Callable, Optional, Type, Union

import numpy as np

from .errors import ShmError, ShmTruncatedError
from .messages import HorusMessage, MESSAGE_TYPES
from .shm_layout import (DEFAULT_LEASE_MS, HEAD_OFFSET, HEADER_DTYPE, header_identity,
                         HEADER_SIZE, IDENTITY_END, MAGIC, MAX_PARTICIPANTS, READY_WORD,
                         ring_geometry, ROLE_PRODUCER, SMALL_SLOT_SIZE, topic_path, U64,
                         VERSION)

#: A topic's message type: a class from ``messages`` or its HORUS type name.
MessageType = Union[str, Type[HorusMessage]]
_Header = np.ndarray[Any, np.dtype[np.void]]


def monotonic_ms() -> int:
    """Return the clock of HORUS leases: CLOCK_MONOTONIC in milliseconds."""
    # HORUS leases are CLOCK_MONOTONIC milliseconds (pinned by a peer test).
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1_000_000


def thread_hash() -> int:
    """Return the ``thread_id_hash`` this thread writes into the header."""
    return threading.get_ident() & 0xFFFFFFFF


def _resolve_type(msg_type: object) -> Type[HorusMessage]:
    if isinstance(msg_type, str):
        try:
            return MESSAGE_TYPES[msg_type]
        except KeyError:
            raise ShmError('unknown HORUS type %r' % msg_type) from None
    if isinstance(msg_type, type) and issubclass(msg_type, HorusMessage):
        return msg_type
    raise ShmError('not a HORUS message type: %r' % (msg_type,))


class ShmTopic:
    """
    An mmap of one topic file plus its validated geometry.

    The base of :class:`~horus_msg_py.shm_reader.ShmTopicReader` and
    :class:`~horus_msg_py.shm_writer.ShmTopicWriter`; it does not open a file itself
    (a subclass opens or creates it and calls ``_map``).
    """

    #: The mapped header (one HEADER_DTYPE record); None once closed.
    header: Optional[_Header]
    capacity: int
    mask: int
    is_small_ring: bool
    file_size: int
    _identity: bytes
    _ready_at: Callable[[int], int]
    _data_at: Callable[[int], int]
    _slot: Optional[int]

    def __init__(self, msg_type: MessageType, topic: str,
                 namespace: Optional[str] = None) -> None:
        self.msg_type = _resolve_type(msg_type)
        self.topic = topic
        self.namespace = namespace
        self.path = topic_path(topic, namespace)
        self._mm: Optional[mmap.mmap] = None
        self._fd: Optional[int] = None
        self._inode: Optional[int] = None

    # -- mapping ----------------------------------------------------------
    def _open_fd(self) -> int:
        if self._fd is None:
            raise ShmError('%s is closed' % self.path)
        return self._fd

    def _header_record(self) -> np.void:
        if self.header is None:
            raise ShmError('%s is closed' % self.path)
        record: np.void = self.header[0]
        return record

    def _map(self, fd: int) -> None:
        self._fd = fd
        st = os.fstat(fd)
        size = st.st_size
        raw = os.pread(fd, HEADER_SIZE, 0)
        if size < HEADER_SIZE or len(raw) < HEADER_SIZE:
            raise ShmTruncatedError('%s is %d bytes, smaller than a HORUS header'
                                    % (self.path, size))
        # Validate a private copy: another process may change the file meanwhile.
        self._validate(size, np.frombuffer(raw, dtype=HEADER_DTYPE, count=1)[0])
        self._identity = header_identity(raw)
        self._mm = mmap.mmap(fd, HEADER_SIZE, mmap.MAP_SHARED,
                             mmap.PROT_READ | mmap.PROT_WRITE)
        self._inode = st.st_ino
        self.header = np.frombuffer(self._mm, dtype=HEADER_DTYPE, count=1)

    def _validate(self, size: int, h: np.void) -> None:
        if int(h['magic']) != MAGIC:
            raise ShmError('%s: bad magic %#x (not a HORUS topic)' % (self.path, h['magic']))
        if int(h['version']) != VERSION:
            raise ShmError('%s: header version %d, expected %d (horus-robotics 0.4.1)'
                           % (self.path, h['version'], VERSION))
        if int(h['type_size']) != self.msg_type.SIZE:
            raise ShmError('%s carries %d-byte messages (%r); %s is %d bytes'
                           % (self.path, h['type_size'], h['type_name'],
                              self.msg_type.TYPE_NAME, self.msg_type.SIZE))
        type_name = bytes(h['type_name']).decode('ascii', 'replace')
        if type_name and type_name != self.msg_type.TYPE_NAME:
            raise ShmError('%s carries %s, not %s' % (self.path, type_name,
                                                      self.msg_type.TYPE_NAME))
        if int(h['inline_ready']) != (1 if self.msg_type.SIZE + READY_WORD <= SMALL_SLOT_SIZE
                                      else 0):
            raise ShmError('%s: ring layout flag @49 is %d, unexpected for %s'
                           % (self.path, h['inline_ready'], self.msg_type.TYPE_NAME))
        cap = int(h['capacity'])
        if cap == 0 or cap & (cap - 1) or int(h['capacity_mask']) != cap - 1:
            raise ShmError('%s: capacity %d is not a power of two' % (self.path, cap))
        small, slot_size, self._ready_at, self._data_at, need = ring_geometry(
            self.msg_type.SIZE, cap)
        if int(h['slot_size']) != slot_size or size < need:
            error = ShmTruncatedError if int(h['slot_size']) == slot_size else ShmError
            raise error('%s: slot size %d / file %d bytes do not match a %s ring of %d'
                        % (self.path, h['slot_size'], size, 'small' if small else 'large', cap))
        self.capacity = cap
        self.mask = cap - 1
        self.is_small_ring = small
        self.file_size = need

    def _pread(self, length: int, offset: int) -> bytes:
        fd = self._open_fd()
        data = os.pread(fd, length, offset)
        if len(data) != length:
            raise ShmTruncatedError('%s was truncated to %d bytes (the ring needs %d)'
                                    % (self.path, os.fstat(fd).st_size, self.file_size))
        return data

    def head(self) -> int:
        """Count of messages published so far (the writer's head index)."""
        head: int = U64.unpack(self._pread(READY_WORD, HEAD_OFFSET))[0]
        return head

    def check(self) -> None:
        """
        Raise ShmError unless the file still holds a complete ring with our header.

        Checks the size (truncation) and the header's identity fields (magic, version,
        type, geometry) that a corrupting or re-creating process could have changed.
        """
        if self._fd is None:
            raise ShmError('%s is closed' % self.path)
        size = os.fstat(self._fd).st_size
        if size < self.file_size:
            raise ShmTruncatedError('%s was truncated to %d bytes (the ring needs %d)'
                                    % (self.path, size, self.file_size))
        raw = self._pread(IDENTITY_END, 0)
        if header_identity(raw) != self._identity:
            h = np.frombuffer(self._pread(HEADER_SIZE, 0), dtype=HEADER_DTYPE, count=1)[0]
            self._validate(size, h)     # names what is wrong
            raise ShmError('%s: header changed since it was mapped (magic, version, type '
                           'or ring geometry)' % self.path)

    def _header_mapped(self) -> bool:
        """Return True when the mapped header page is still backed by the file (no SIGBUS)."""
        return (self._mm is not None and self._fd is not None and
                os.fstat(self._fd).st_size >= HEADER_SIZE)

    def replaced(self) -> bool:
        """Return True when the path now names another file (HORUS unlinks and re-creates)."""
        try:
            return os.stat(self.path).st_ino != self._inode
        except FileNotFoundError:
            return True

    # -- participants -------------------------------------------------------
    def _register(self, role: int) -> int:
        h = self._header_record()
        parts = h['participants']
        now = monotonic_ms()
        for i in range(MAX_PARTICIPANTS):
            p = parts[i]
            if not p['active'] or int(p['lease_expires_ms']) < now:
                p['pid'] = os.getpid()
                p['thread_id_hash'] = thread_hash()
                p['role'] = role
                p['lease_expires_ms'] = now + int(h['lease_timeout_ms'] or DEFAULT_LEASE_MS)
                p['active'] = 1
                counter = 'publisher_count' if role == ROLE_PRODUCER else 'subscriber_count'
                h[counter] += 1
                h['total_participants'] += 1
                h['last_topology_change_ms'] = now
                return i
        raise ShmError('%s: all %d participant entries are in use'
                       % (self.path, MAX_PARTICIPANTS))

    def refresh_lease(self) -> None:
        """Extend this participant's lease (HORUS expires leases not refreshed in time)."""
        if self._slot is None or not self._header_mapped():
            return
        h = self._header_record()
        p = h['participants'][self._slot]
        p['lease_expires_ms'] = monotonic_ms() + int(h['lease_timeout_ms'] or
                                                     DEFAULT_LEASE_MS)

    def _deregister(self, role: int) -> None:
        if self._slot is None or not self._header_mapped():
            self._slot = None
            return
        h = self._header_record()
        p = h['participants'][self._slot]
        if int(p['pid']) == os.getpid():
            p['active'] = 0
            p['lease_expires_ms'] = 0
            p['role'] = 0
            p['pid'] = 0
            p['thread_id_hash'] = 0
            counter = 'publisher_count' if role == ROLE_PRODUCER else 'subscriber_count'
            if h[counter] > 0:
                h[counter] -= 1
            h['last_topology_change_ms'] = monotonic_ms()
        self._slot = None

    def _active_participants(self) -> int:
        if not self._header_mapped():
            return 0
        return int(np.count_nonzero(self._header_record()['participants']['active']))

    def _unmap(self) -> None:
        if self._mm is not None:
            self.header = None
            try:
                self._mm.close()
            except BufferError:
                # A message view from read_view() still points into the map; the
                # mapping then lives until that view is garbage collected.
                pass
            self._mm = None
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
