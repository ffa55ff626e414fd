# SPDX-License-Identifier: Apache-2.0
"""The metadata.yaml of a rosbag2 bag (metadata version 9): building, writing, reading."""

import os
from typing import Any, cast, Dict, Iterable, Optional, Sequence, Tuple

import yaml

from . import qos as qos_util

METADATA_VERSION = 9
STORAGE_ID = 'mcap'

# One file of the bag for the metadata: (relative path, start ns, end ns, message count).
FileEntry = Tuple[str, Optional[int], Optional[int], int]


def ros_distro() -> str:
    """Return the ROS_DISTRO the bag is written under ('' when unset)."""
    return os.environ.get('ROS_DISTRO', '')


class TopicInfo:
    """A topic of the bag: name, type, offered QoS profiles (list of QoSProfile)."""

    def __init__(self, name: str, type_name: str, offered: Iterable[Any],
                 type_hash: str = '') -> None:
        """Describe a topic with no message yet."""
        self.name = name
        self.type = type_name
        self.offered = list(offered)
        self.type_hash = type_hash
        self.count = 0


def build_metadata(topics: Iterable[TopicInfo], files: Sequence[FileEntry]) -> Dict[str, Any]:
    """Return the metadata.yaml dictionary; files: [(path, start ns, end ns, count)]."""
    starts = [s for _, s, _, _ in files if s is not None]
    ends = [e for _, _, e, _ in files if e is not None]
    start = min(starts) if starts else 0
    end = max(ends) if ends else start
    return {'rosbag2_bagfile_information': {
        'version': METADATA_VERSION,
        'storage_identifier': STORAGE_ID,
        'duration': {'nanoseconds': end - start},
        'starting_time': {'nanoseconds_since_epoch': start},
        'message_count': sum(c for _, _, _, c in files),
        'topics_with_message_count': [{
            'topic_metadata': {
                'name': t.name,
                'type': t.type,
                'serialization_format': 'cdr',
                'offered_qos_profiles': [qos_util.to_dict(p) for p in t.offered],
                'type_description_hash': t.type_hash,
            },
            'message_count': t.count,
        } for t in topics],
        'compression_format': '',
        'compression_mode': '',
        'relative_file_paths': [p for p, _, _, _ in files],
        'files': [{
            'path': p,
            'starting_time': {'nanoseconds_since_epoch': s or 0},
            'duration': {'nanoseconds': (cast(int, e) - s) if s is not None else 0},
            'message_count': c,
        } for p, s, e, c in files],
        'custom_data': None,
        'ros_distro': ros_distro(),
    }}


def write_metadata(uri: str, metadata: Dict[str, Any]) -> None:
    """Write `<uri>/metadata.yaml` atomically (a temporary file, then a rename)."""
    path = os.path.join(uri, 'metadata.yaml')
    tmp = path + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        yaml.safe_dump(metadata, f, sort_keys=False)
    os.replace(tmp, path)


def read_metadata(uri: str) -> Dict[str, Any]:
    """Return the rosbag2_bagfile_information of `<uri>/metadata.yaml`; ValueError if none."""
    path = os.path.join(uri, 'metadata.yaml')
    try:
        with open(path, encoding='utf-8') as f:
            data = yaml.safe_load(f)
    except OSError:
        raise ValueError(f"'{uri}' is not a bag: no metadata.yaml") from None
    try:
        info: Dict[str, Any] = data['rosbag2_bagfile_information']
        return info
    except (KeyError, TypeError):
        raise ValueError(f'{path} has no rosbag2_bagfile_information') from None
