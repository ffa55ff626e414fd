# SPDX-License-Identifier: Apache-2.0
"""
Rosbag2 bag directories with the MCAP storage: writing, metadata, reading, recovery.

Layout (as rosbag2 with rosbag2_storage_mcap writes it):
- `<bag>/metadata.yaml`: `rosbag2_bagfile_information` (metadata version 9).
- `<bag>/<bag>_<i>.mcap`: profile `ros2`; one Schema per type (`pkg/msg/Type`, encoding
  `ros2msg`, full definition text), one Channel per topic (message encoding `cdr`, metadata
  `offered_qos_profiles` and `topic_type_hash`), Messages with log time = the recorder's
  receive time, and a Metadata record `rosbag2` holding the serialized bag metadata
  (`serialized_metadata`, `ROS_DISTRO`).
- Publish time: the publisher's source timestamp, as rosbag2 writes it (the recorder takes
  it from each sample's message info). `BagWriter.write` takes a publish time when a
  caller has one and uses the log time otherwise.

The modules, one job each: bag_writer (BagWriter), bag_metadata (metadata.yaml), bag_reader
(reading and scanning files), bag_reindex (recovery). This module gathers their public names.
"""

from .bag_metadata import build_metadata
from .bag_metadata import FileEntry
from .bag_metadata import METADATA_VERSION
from .bag_metadata import read_metadata
from .bag_metadata import ros_distro
from .bag_metadata import STORAGE_ID
from .bag_metadata import TopicInfo
from .bag_metadata import write_metadata
from .bag_reader import bag_files
from .bag_reader import BagMessage
from .bag_reader import FileCheck
from .bag_reader import OnMessage
from .bag_reader import read_messages
from .bag_reader import scan_file
from .bag_reindex import reindex
from .bag_writer import BagWriter
from .bag_writer import CHUNK_SIZE
from .bag_writer import LIBRARY

__all__ = [
    'BagMessage', 'BagWriter', 'CHUNK_SIZE', 'FileCheck', 'FileEntry', 'LIBRARY',
    'METADATA_VERSION', 'OnMessage', 'STORAGE_ID', 'TopicInfo', 'bag_files', 'build_metadata',
    'read_messages', 'read_metadata', 'reindex', 'ros_distro', 'scan_file', 'write_metadata',
]
