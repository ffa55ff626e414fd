# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
Reader and writer for HORUS shared-memory topics (horus-robotics 0.4.1, header v4).

The public module: it re-exports the API of the modules that implement it, one job
each. :mod:`~horus_msg_py.shm_layout` has the format (header and participant dtypes,
constants, ring geometry, file paths), :mod:`~horus_msg_py.shm_topic` the open topic
file that both sides share (:class:`ShmTopic`), :mod:`~horus_msg_py.shm_reader` the
consumer (:class:`ShmTopicReader`) and :mod:`~horus_msg_py.shm_writer` the producer
(:class:`ShmTopicWriter`).

Facts relied on (pinned by test/test_peer_horus.py against the real wheel):

* a topic is the file ``/dev/shm/horus_<ns>/topics/<topic>`` (``<ns>`` is
  ``$HORUS_NAMESPACE`` or ``default``; ``/`` in a topic makes sub-folders),
  next to a JSON ``<topic with . and / as _>.meta``; folders are mode 0700;
* a 640-byte header (``HEADER_DTYPE``), then one of two ring layouts:
  *large* (``type_size + 8 > 64``): ``capacity`` u64 ready words, then
  ``capacity * type_size`` data bytes; *small*: ``capacity`` 64-byte slots,
  each a u64 ready word followed by the payload;
* sequence ``s`` lives in slot ``s % capacity`` and its ready word is ``s + 1``;
  ``sequence_or_head`` counts published messages.

One producer per topic (HORUS's single-producer ring); the writer publishes data,
then the ready word, then the head, in that order.

The file is shared with other processes that may truncate, corrupt or re-create it.
The ring and the head are therefore read and written with ``pread``/``pwrite``, never
through the mapping: touching a mapped page past a truncated file's end is SIGBUS,
while a ``pread`` there just comes back short (:class:`ShmTruncatedError`). A head that
moves backwards is reported once per occurrence (:class:`ShmRewoundError`) after the
reader has resynchronised; a slot whose ready word stays wrong while later messages are
published is skipped after ``STALL_LIMIT_S``. Only the participant table in the header
(page 0) is accessed through the mapping, after checking that the file still holds it.
"""

# ``shm.time`` is the time module, as it was when this module held the reader: tests
# patch ``shm.time.monotonic``, which the reader reads.
import time  # noqa: F401

from .errors import ShmError, ShmRewoundError, ShmTruncatedError
from .shm_layout import (BACKEND_SPSC_SHM, DEFAULT_CAPACITY, DEFAULT_LEASE_MS, HEADER_DTYPE,
                         HEADER_SIZE, MAGIC, MAX_PARTICIPANTS, meta_path, namespace_dir,
                         PARTICIPANT_DTYPE, POD_YES, READY_WORD, remove_namespace,
                         ring_geometry, RingGeometry, ROLE_CONSUMER, ROLE_PRODUCER,
                         SMALL_SLOT_SIZE, topic_path, TYPE_ALIGN, VERSION)
from .shm_reader import ShmTopicReader, STALL_LIMIT_S
from .shm_topic import MessageType, monotonic_ms, ShmTopic
from .shm_writer import ShmTopicWriter

#: The former private name of :func:`~horus_msg_py.shm_topic.monotonic_ms` (a peer test
#: compares HORUS's leases with it).
_monotonic_ms = monotonic_ms

__all__ = [
    'BACKEND_SPSC_SHM', 'DEFAULT_CAPACITY', 'DEFAULT_LEASE_MS', 'HEADER_DTYPE', 'HEADER_SIZE',
    'MAGIC', 'MAX_PARTICIPANTS', 'MessageType', 'meta_path', 'monotonic_ms', 'namespace_dir',
    'PARTICIPANT_DTYPE', 'POD_YES', 'READY_WORD', 'remove_namespace', 'ring_geometry',
    'RingGeometry', 'ROLE_CONSUMER', 'ROLE_PRODUCER', 'ShmError', 'ShmRewoundError',
    'ShmTopic', 'ShmTopicReader', 'ShmTopicWriter', 'ShmTruncatedError', 'SMALL_SLOT_SIZE',
    'STALL_LIMIT_S', 'topic_path', 'TYPE_ALIGN', 'VERSION',
]
