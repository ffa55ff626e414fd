# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
Where a HORUS shared-memory topic lives and how its bytes are laid out.

The format of horus-robotics 0.4.1 (header v4), as data and pure functions: the header
and participant records (numpy dtypes) and their constants, the ring geometry of a
message type, and the paths of a topic's files under ``/dev/shm``. Nothing here opens
a topic; :mod:`horus_msg_py.shm` describes the format as a whole.
"""

import os
import shutil
import struct
from typing import Callable, Optional, Tuple

import numpy as np

from .errors import ShmError

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
#: File offset of the header's ``sequence_or_head`` (the writer's head index).
HEAD_OFFSET: int = _HEADER_FIELDS['sequence_or_head'][1]
#: A little-endian u64: ready words and the head.
U64 = struct.Struct('<Q')
U64_MAX = 2 ** 64 - 1
#: Header bytes that identify a topic's file: magic, version, type size and alignment
#: (0-20), capacity, mask and slot size (72-84), type name (216-248).
IDENTITY_SPANS = ((0, 20), (72, 84), (216, 248))
#: How many header bytes hold every span of IDENTITY_SPANS.
IDENTITY_END = 248

#: (is_small, slot_size, ready_offset(slot), data_offset(slot), file_size); see ring_geometry.
RingGeometry = Tuple[bool, int, Callable[[int], int], Callable[[int], int], int]


def header_identity(raw: bytes) -> bytes:
    """Return the IDENTITY_SPANS of a header's bytes, joined."""
    return b''.join(raw[a:b] for a, b in IDENTITY_SPANS)


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
