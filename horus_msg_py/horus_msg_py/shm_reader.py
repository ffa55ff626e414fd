# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
Reading a HORUS topic: :class:`ShmTopicReader`, a consumer of the shared ring.

Follows the writer's head and the slots' ready words with ``pread`` (see
:mod:`horus_msg_py.shm_topic`), one message or a batch at a time: overrun messages are
counted in ``lost``, a head that moves backwards is reported once per occurrence
(:class:`ShmRewoundError`) after the reader has resynchronised, and a slot whose ready
word stays wrong while later messages are published is skipped after ``STALL_LIMIT_S``
(counted in ``corrupt``).
"""

import os
import time
from typing import List, Optional, Tuple, TypeVar

from .errors import ShmError, ShmRewoundError, ShmTruncatedError
from .messages import HorusMessage
from .shm_layout import READY_WORD, ROLE_CONSUMER, SMALL_SLOT_SIZE, U64
from .shm_topic import MessageType, ShmTopic

#: How long a published slot may keep a wrong ready word before the reader skips it.
STALL_LIMIT_S = 0.1

_R = TypeVar('_R', bound='ShmTopicReader')


class ShmTopicReader(ShmTopic):
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
            return U64.unpack_from(raw)[0], raw[READY_WORD:]
        return (U64.unpack(self._pread(READY_WORD, self._ready_at(slot)))[0],
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
                    U64.unpack(self._pread(READY_WORD, self._ready_at(slot)))[0] != seq + 1):
                self.lost += 1
                self.next_seq = seq + 1
                continue
            self.next_seq = seq + 1
            return data

    def _ready_words(self, slot: int, count: int) -> Tuple[List[int], Optional[bytes]]:
        """Ready words of ``count`` consecutive slots from ``slot``, in one pread."""
        if self.is_small_ring:
            raw = self._pread(count * SMALL_SLOT_SIZE, self._ready_at(slot))
            return [w[0] for w in U64.iter_unpack(raw)][::SMALL_SLOT_SIZE // READY_WORD], raw
        raw = self._pread(count * READY_WORD, self._ready_at(slot))
        return [w[0] for w in U64.iter_unpack(raw)], None

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

        The ring is not mapped (see :mod:`horus_msg_py.shm_topic`), so this is a copy too.
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
