# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
Reader and writer for HORUS shared-memory topics (horus-robotics 0.4.1, header v4).

Facts relied on (pinned by test/test_peer_horus.py against the real wheel):

* a topic is the file ``/dev/shm/horus_<ns>/topics/<topic>`` (``<ns>`` is
  ``$HORUS_NAMESPACE`` or ``default``; ``/`` in a topic makes sub-folders),
  next to a JSON ``<topic with . and / as _>.meta``; folders are mode 0700;
* a 640-byte header (``HEADER_DTYPE`` below), then one of two ring layouts:
  *large* (``type_size + 8 > 64``): ``capacity`` u64 ready words, then
  ``capacity * type_size`` data bytes; *small*: ``capacity`` 64-byte slots,
  each a u64 ready word followed by the payload;
* sequence ``s`` lives in slot ``s % capacity`` and its ready word is ``s + 1``;
  ``sequence_or_head`` counts published messages.

One producer per topic (HORUS's single-producer ring); this module's writer
publishes data, then the ready word, then the head, in that order.

The file is shared with other processes that may truncate, corrupt or re-create it.
The ring and the head are therefore read and written with ``pread``/``pwrite``, never
through the mapping: touching a mapped page past a truncated file's end is SIGBUS,
while a ``pread`` there just comes back short (:class:`ShmTruncatedError`). A head that
moves backwards is reported once per occurrence (:class:`ShmRewoundError`) after the
reader has resynchronised; a slot whose ready word stays wrong while later messages are
published is skipped after ``STALL_LIMIT_S``. Only the participant table in the header
(page 0) is accessed through the mapping, after checking that the file still holds it.
"""

import json
import mmap
import os
import shutil
import struct
import threading
import time
from typing import Any, Callable, List, Optional, Tuple, Type, TypeVar, Union

import numpy as np

from .errors import ShmError, ShmRewoundError, ShmTruncatedError
from .messages import HorusMessage, MESSAGE_TYPES

HEADER_SIZE = 640
MAGIC = 0x4144415054495645      # "ADAPTIVE"
VERSION = 4
POD_YES = 2
TYPE_ALIGN = 8
SMALL_SLOT_SIZE = 64
READY_WORD = 8
DEFAULT_CAPACITY = 1024
DEFAULT_LEASE_MS = 5000
MAX_PARTICIPANTS = 16
ROLE_PRODUCER = 1
ROLE_CONSUMER = 2
#: BackendMode value HORUS 0.4.1 stores for a cross-process single-producer topic.
BACKEND_SPSC_SHM = 9
#: How long a published slot may keep a wrong ready word before the reader skips it.
STALL_LIMIT_S = 0.1

PARTICIPANT_DTYPE = np.dtype({
    'names': ['pid', 'thread_id_hash', 'role', 'active', 'lease_expires_ms'],
    'formats': ['<u4', '<u4', 'u1', 'u1', '<u8'],
    'offsets': [0, 4, 8, 9, 16], 'itemsize': 24})

#: The 640-byte topic header; offsets as written by horus-robotics 0.4.1.
HEADER_DTYPE = np.dtype({
    'names': ['magic', 'version', 'type_size', 'type_align', 'is_pod', 'backend_mode',
              'migration_lock', 'debug_log', 'creator_pid', 'creator_thread_id_hash',
              'migration_epoch', 'topic_kind', 'inline_ready', 'sequence_or_head', 'capacity',
              'capacity_mask', 'slot_size', 'tail', 'publisher_count',
              'subscriber_count', 'total_participants', 'lease_timeout_ms',
              'last_topology_change_ms', 'type_name', 'layout_hash', 'participants'],
    'formats': ['<u8', '<u4', '<u4', '<u4', 'u1', 'u1', 'u1', 'u1', '<u4', '<u8', '<u8',
                'u1', 'u1', '<u8', '<u4', '<u4', '<u4', '<u8', '<u4', '<u4', '<u4', '<u4', '<u8',
                'S32', '<u4', (PARTICIPANT_DTYPE, (MAX_PARTICIPANTS,))],
    'offsets': [0, 8, 12, 16, 20, 21, 22, 23, 24, 32, 40, 48, 49, 64, 72, 76, 80, 128, 192,
                196, 200, 204, 208, 216, 248, 256],
    'itemsize': HEADER_SIZE})

_HEADER_FIELDS = HEADER_DTYPE.fields
assert _HEADER_FIELDS is not None     # a structured dtype always has fields
_HEAD_OFFSET: int = _HEADER_FIELDS['sequence_or_head'][1]
_U64 = struct.Struct('<Q')
_U64_MAX = 2 ** 64 - 1
#: Header bytes that identify a topic's file: magic, version, type size and alignment
#: (0-20), capacity, mask and slot size (72-84), type name (216-248).
_IDENTITY_SPANS = ((0, 20), (72, 84), (216, 248))
_IDENTITY_END = 248

#: A topic's message type: a class from ``messages`` or its HORUS type name.
MessageType = Union[str, Type[HorusMessage]]
#: (is_small, slot_size, ready_offset(slot), data_offset(slot), file_size); see ring_geometry.
RingGeometry = Tuple[bool, int, Callable[[int], int], Callable[[int], int], int]
_Header = np.ndarray[Any, np.dtype[np.void]]
_R = TypeVar('_R', bound='ShmTopicReader')
_W = TypeVar('_W', bound='ShmTopicWriter')


def _identity(raw: bytes) -> bytes:
    return b''.join(raw[a:b] for a, b in _IDENTITY_SPANS)


def namespace_dir(namespace: Optional[str] = None) -> str:
    ns = namespace or os.environ.get('HORUS_NAMESPACE') or 'default'
    return os.path.join('/dev/shm', 'horus_' + ns)


def topic_path(topic: str, namespace: Optional[str] = None) -> str:
    _check_topic(topic)
    return os.path.join(namespace_dir(namespace), 'topics', topic)


def meta_path(topic: str, namespace: Optional[str] = None) -> str:
    _check_topic(topic)
    return os.path.join(namespace_dir(namespace), 'topics',
                        topic.replace('.', '_').replace('/', '_') + '.meta')


def remove_namespace(namespace: str) -> None:
    """Delete ``/dev/shm/horus_<namespace>`` (tests and tools clean up with this)."""
    if not namespace:
        raise ShmError('refusing to remove an unnamed HORUS namespace')
    shutil.rmtree(namespace_dir(namespace), ignore_errors=True)


def _check_topic(topic: str) -> None:
    if not topic or topic.startswith('/') or '..' in topic.split('/') or '\0' in topic:
        raise ShmError('invalid HORUS topic name %r' % (topic,))


def ring_geometry(type_size: int, capacity: int) -> RingGeometry:
    """(is_small, slot_size, ready_offset(i), data_offset(i), file_size) of a ring."""
    if type_size + READY_WORD > SMALL_SLOT_SIZE:
        data_start = HEADER_SIZE + capacity * READY_WORD
        return (False, type_size,
                lambda i: HEADER_SIZE + i * READY_WORD,
                lambda i: data_start + i * type_size,
                data_start + capacity * type_size)
    return (True, SMALL_SLOT_SIZE,
            lambda i: HEADER_SIZE + i * SMALL_SLOT_SIZE,
            lambda i: HEADER_SIZE + i * SMALL_SLOT_SIZE + READY_WORD,
            HEADER_SIZE + capacity * SMALL_SLOT_SIZE)


def _monotonic_ms() -> int:
    # HORUS leases are CLOCK_MONOTONIC milliseconds (pinned by a peer test).
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1_000_000


def _thread_hash() -> int:
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


class _Topic:
    """An mmap of one topic file plus its validated geometry."""

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
        self._identity = _identity(raw)
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
        head: int = _U64.unpack(self._pread(READY_WORD, _HEAD_OFFSET))[0]
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
        raw = self._pread(_IDENTITY_END, 0)
        if _identity(raw) != self._identity:
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
        now = _monotonic_ms()
        for i in range(MAX_PARTICIPANTS):
            p = parts[i]
            if not p['active'] or int(p['lease_expires_ms']) < now:
                p['pid'] = os.getpid()
                p['thread_id_hash'] = _thread_hash()
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
        p['lease_expires_ms'] = _monotonic_ms() + int(h['lease_timeout_ms'] or
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
            h['last_topology_change_ms'] = _monotonic_ms()
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


class ShmTopicReader(_Topic):
    """
    Reads a HORUS topic's ring in place.

    ``start='oldest'`` replays what the ring still holds (as a HORUS subscriber
    does); ``'latest'`` starts with the next message published.
    """

    def __init__(self, msg_type: MessageType, topic: str, namespace: Optional[str] = None,
                 start: str = 'oldest', register: bool = False) -> None:
        super().__init__(msg_type, topic, namespace)
        if start not in ('oldest', 'latest'):
            raise ValueError("start must be 'oldest' or 'latest'")
        self._start = start
        self._register_as_consumer = register
        self._slot = None
        #: Sequence number of the next message to read (0 until the ring is mapped).
        self.next_seq = 0
        self.lost = 0
        self.corrupt = 0
        self.rewinds = 0
        self._stall_seq: Optional[int] = None
        self._stall_since = 0.0
        try:
            fd = os.open(self.path, os.O_RDWR)
        except FileNotFoundError:
            raise ShmError('HORUS topic %s does not exist (no publisher yet?)'
                           % self.path) from None
        try:
            self._map(fd)
            if register:
                self._slot = self._register(ROLE_CONSUMER)
            head = self.head()
        except BaseException:
            self._unmap()
            raise
        self.next_seq = max(0, head - self.capacity) if start == 'oldest' else head

    def available(self) -> int:
        """Messages published and not read yet (at most what the ring holds is readable)."""
        return max(0, self.head() - self.next_seq)

    def _read_slot(self, slot: int) -> Tuple[int, bytes]:
        """(ready word, payload bytes) of a slot, read with pread (never SIGBUS)."""
        size = self.msg_type.SIZE
        if self.is_small_ring:      # ready word and payload are adjacent
            raw = self._pread(READY_WORD + size, self._ready_at(slot))
            return _U64.unpack_from(raw)[0], raw[READY_WORD:]
        return (_U64.unpack(self._pread(READY_WORD, self._ready_at(slot)))[0],
                self._pread(size, self._data_at(slot)))

    def _catch_up(self, head: int) -> int:
        """
        Return the next sequence to read against the writer's ``head``.

        A head behind it (the writer restarted) resynchronises to the head and raises
        ShmRewoundError; slots the ring overwrote before they were read are counted in
        ``lost`` and skipped.
        """
        seq = self.next_seq
        if head < seq:
            self.next_seq = head
            self.rewinds += 1
            self._stall_seq = None
            raise ShmRewoundError('%s: head index moved back from %d to %d; '
                                  'resynchronised' % (self.path, seq, head))
        if head - seq > self.capacity:
            self.lost += head - self.capacity - seq
            self.next_seq = seq = head - self.capacity
        return seq

    def _skip_unready(self, seq: int, ready: int) -> bool:
        """
        Account for slot `seq` whose ready word is not seq + 1; True: skip it, False: wait.

        A ready word past seq + 1: overwritten before we got here (lost, skip). Behind it: the
        published count is ahead of the slot, so the slot is not ready yet or its ready word
        is corrupt; the producer gets STALL_LIMIT_S, then the slot is skipped as corrupt.
        """
        if ready > seq + 1:
            self.lost += 1
            self.next_seq = seq + 1
            return True
        now = time.monotonic()
        if self._stall_seq != seq:
            self._stall_seq, self._stall_since = seq, now
            return False
        if now - self._stall_since < STALL_LIMIT_S:
            return False
        self._stall_seq = None
        self.corrupt += 1
        self.lost += 1
        self.next_seq = seq + 1
        return True

    def recv_bytes(self) -> Optional[bytes]:
        """
        Bytes of the next message, or None.

        Overrun messages are counted in ``lost``; slots with a ready word that stays
        wrong are skipped and counted in ``corrupt`` (and ``lost``). Raises
        :class:`ShmTruncatedError` when the file shrank and :class:`ShmRewoundError`
        when the head moved backwards (the reader then continues from the new head).
        """
        while True:
            head = self.head()
            seq = self._catch_up(head)
            if seq == head:
                return None
            slot = seq & self.mask
            ready, data = self._read_slot(slot)
            if ready != seq + 1:
                if self._skip_unready(seq, ready):
                    continue
                return None
            # The writer of seq + capacity starts once head reaches it: re-check.
            if (self.head() >= seq + self.capacity or
                    _U64.unpack(self._pread(READY_WORD, self._ready_at(slot)))[0] != seq + 1):
                self.lost += 1
                self.next_seq = seq + 1
                continue
            self.next_seq = seq + 1
            return data

    def _ready_words(self, slot: int, count: int) -> Tuple[List[int], Optional[bytes]]:
        """Ready words of ``count`` consecutive slots from ``slot``, in one pread."""
        if self.is_small_ring:
            raw = self._pread(count * SMALL_SLOT_SIZE, self._ready_at(slot))
            return [w[0] for w in _U64.iter_unpack(raw)][::SMALL_SLOT_SIZE // READY_WORD], raw
        raw = self._pread(count * READY_WORD, self._ready_at(slot))
        return [w[0] for w in _U64.iter_unpack(raw)], None

    def recv_many(self, limit: int) -> List[bytes]:
        """
        Up to ``limit`` next messages (a list of bytes; empty when none is ready).

        The same rules as :meth:`recv_bytes`, message by message, with the reads batched:
        per run of consecutive slots one ``pread`` of the ready words, one of the payloads
        and, after them, one of the head and one of the ready words again (a slot the
        writer has started to overwrite meanwhile is lost, as in recv_bytes). A rewind or
        a truncation found after some messages were read returns those messages; the
        next call raises.
        """
        out: List[bytes] = []
        size = self.msg_type.SIZE
        while len(out) < limit:
            try:
                head = self.head()
            except ShmTruncatedError:
                if out:
                    return out
                raise
            if head < self.next_seq and out:
                return out      # the rewind is raised by the next call
            seq = self._catch_up(head)
            if seq == head:
                return out
            slot = seq & self.mask
            count = min(head - seq, limit - len(out), self.capacity - slot)
            try:
                ready, small_raw = self._ready_words(slot, count)
                if small_raw is None:
                    data = self._pread(count * size, self._data_at(slot))
                    stride, first = size, 0
                else:
                    data, stride, first = small_raw, SMALL_SLOT_SIZE, READY_WORD
                head_after = self.head()
                ready_after = self._ready_words(slot, count)[0]
            except ShmTruncatedError:
                if out:
                    return out
                raise
            for i in range(count):
                s = seq + i
                if ready[i] != s + 1:
                    if self._skip_unready(s, ready[i]):
                        continue
                    return out
                # The writer of s + capacity starts once head reaches it.
                if head_after >= s + self.capacity or ready_after[i] != s + 1:
                    self.lost += 1
                    self.next_seq = s + 1
                    continue
                self.next_seq = s + 1
                start = i * stride + first
                out.append(data[start:start + size])
        return out

    def recv(self) -> Optional[HorusMessage]:
        """Return the next message as a ``msg_type`` object (over a private copy), or None."""
        data = self.recv_bytes()
        return None if data is None else self.msg_type.from_bytes(data)

    def read_view(self, seq: int) -> HorusMessage:
        """
        Return the message in the slot of ``seq`` (a copy; valid until overwritten).

        The ring is not mapped (see the module docstring), so this is a copy too.
        """
        return self.msg_type.from_bytes(self._pread(self.msg_type.SIZE,
                                                    self._data_at(seq & self.mask)))

    def close(self) -> None:
        """Leave the topic (the files stay: the producer owns them)."""
        if self._mm is not None:
            self._deregister(ROLE_CONSUMER)
        self._unmap()

    def __enter__(self: _R) -> _R:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ShmTopicWriter(_Topic):
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
                magic = _U64.unpack(os.pread(fd, 8, 0))[0]
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
        h['creator_thread_id_hash'] = _thread_hash()
        h['migration_epoch'] = 1
        # @49 = 1 tells HORUS the ready word sits inside each 64-byte slot; without
        # it a HORUS peer expects a separate ready-word array and rejects the file.
        h['inline_ready'] = 1 if small else 0
        h['capacity'] = capacity
        h['capacity_mask'] = capacity - 1
        h['slot_size'] = slot_size
        h['lease_timeout_ms'] = DEFAULT_LEASE_MS
        h['last_topology_change_ms'] = _monotonic_ms()
        h['type_name'] = cls.TYPE_NAME.encode('ascii')
        raw = bytearray(header.tobytes())
        os.pwrite(fd, bytes(raw[8:]), 8)
        # Magic last: a peer that sees it sees a complete header.
        os.pwrite(fd, _U64.pack(MAGIC), 0)
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
        if seq >= _U64_MAX:
            raise ShmError('%s: head index %d is corrupt (no room to publish)' % (self.path, seq))
        slot = seq & self.mask
        os.pwrite(fd, data, self._data_at(slot))
        os.pwrite(fd, _U64.pack(seq + 1), self._ready_at(slot))
        os.pwrite(fd, _U64.pack(seq + 1), _HEAD_OFFSET)
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
