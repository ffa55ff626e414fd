# SPDX-License-Identifier: Apache-2.0
"""Writing a rosbag2 MCAP bag: its .mcap files (split by duration) and metadata.yaml."""

import os
from typing import Any, BinaryIO, Dict, Iterable, List, Optional

from mcap.writer import CompressionType, Writer
import yaml

from . import qos as qos_util
from .bag_metadata import build_metadata, ros_distro, TopicInfo, write_metadata
from .schema import message_definition

LIBRARY = 'ros2bag_mcap 0.1.0 (python mcap)'
CHUNK_SIZE = 256 * 1024


class BagFile:
    """One open .mcap file of the bag."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.stream: BinaryIO = open(path, 'wb')
        self.writer = Writer(self.stream, chunk_size=CHUNK_SIZE,
                             compression=CompressionType.NONE)
        self.writer.start(profile='ros2', library=LIBRARY)
        self.schemas: Dict[str, int] = {}      # type -> schema id
        self.channels: Dict[str, int] = {}     # topic -> channel id
        self.start: Optional[int] = None
        self.end: Optional[int] = None
        self.count = 0


class BagWriter:
    """
    Writes serialized (CDR) messages into a rosbag2 MCAP bag directory.

    Not thread-safe: one thread writes. `max_bag_duration` (s, 0 = none) starts a new .mcap
    file when a message is that much later than its file's first one.
    """

    def __init__(self, uri: str, max_bag_duration: float = 0.0) -> None:
        """Create the bag directory `uri` (FileExistsError if it exists) and its first file."""
        if os.path.exists(uri):
            raise FileExistsError(f"output folder '{uri}' already exists")
        os.makedirs(uri)
        self.uri = uri
        self.name = os.path.basename(os.path.normpath(uri))
        self.max_ns = int(max_bag_duration * 1e9)
        self.topics: Dict[str, TopicInfo] = {}
        self.files: List[BagFile] = []
        self._file = self._open_file()
        self.write_metadata()    # a killed recorder still leaves a bag that `info` explains

    def _open_file(self) -> BagFile:
        path = os.path.join(self.uri, f'{self.name}_{len(self.files)}.mcap')
        self._file = BagFile(path)
        self.files.append(self._file)
        for topic in self.topics.values():
            self._register(topic)
        return self._file

    def _register(self, topic: TopicInfo) -> None:
        f = self._file
        if topic.type not in f.schemas:
            f.schemas[topic.type] = f.writer.register_schema(
                name=topic.type, encoding='ros2msg',
                data=message_definition(topic.type).encode('utf-8'))
        f.channels[topic.name] = f.writer.register_channel(
            topic=topic.name, message_encoding='cdr', schema_id=f.schemas[topic.type],
            metadata={'offered_qos_profiles': qos_util.dump_profiles(topic.offered),
                      'topic_type_hash': topic.type_hash})

    def add_topic(self, name: str, type_name: str, offered: Iterable[Any],
                  type_hash: str = '') -> TopicInfo:
        """Register a topic (schema + channel); raises DefinitionNotFound without a .msg."""
        topic = TopicInfo(name, type_name, offered, type_hash)
        message_definition(type_name)
        self.topics[name] = topic
        self._register(topic)
        return topic

    def write(self, topic: str, data: bytes, log_time: int, publish_time: Optional[int] = None,
              sequence: int = 0) -> None:
        """Write one message of `topic` (CDR bytes; times in ns)."""
        f = self._file
        if self.max_ns and f.start is not None and log_time - f.start >= self.max_ns:
            self._close_file()
            self._open_file()
            f = self._file
        f.writer.add_message(channel_id=f.channels[topic], log_time=log_time, data=data,
                             publish_time=publish_time if publish_time else log_time,
                             sequence=sequence & 0xFFFFFFFF)
        if f.start is None or log_time < f.start:
            f.start = log_time
        if f.end is None or log_time > f.end:
            f.end = log_time
        f.count += 1
        self.topics[topic].count += 1

    def flush(self) -> None:
        """
        Close the open chunk and push it to the file.

        What a SIGKILL can lose is only what arrived since the last flush.
        """
        self._file.writer.flush()  # type: ignore[no-untyped-call,unused-ignore]
        self._file.stream.flush()

    def _close_file(self) -> None:
        f = self._file
        f.writer.add_metadata('rosbag2', {'serialized_metadata': yaml.safe_dump(
            self.metadata()['rosbag2_bagfile_information'], sort_keys=False),
            'ROS_DISTRO': ros_distro()})
        f.writer.finish()  # type: ignore[no-untyped-call,unused-ignore]
        f.stream.close()

    def close(self) -> None:
        """Finish the open file and write the final metadata.yaml."""
        self._close_file()
        self.write_metadata()

    def metadata(self) -> Dict[str, Any]:
        """Return the metadata.yaml dictionary of what was written so far."""
        return build_metadata(self.topics.values(), [
            (os.path.basename(f.path), f.start, f.end, f.count) for f in self.files])

    def write_metadata(self) -> None:
        """Write metadata.yaml (atomically)."""
        write_metadata(self.uri, self.metadata())
