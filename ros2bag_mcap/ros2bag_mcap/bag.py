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
"""

import os
import time
from typing import (Any, BinaryIO, Callable, cast, Dict, Iterable, Iterator, List, Optional,
                    Sequence, Tuple)

from mcap.exceptions import McapError
from mcap.reader import make_reader
from mcap.records import Channel, Message, Schema
from mcap.stream_reader import StreamReader
from mcap.writer import CompressionType, Writer
import yaml

from . import qos as qos_util
from .schema import message_definition

METADATA_VERSION = 9
STORAGE_ID = 'mcap'
LIBRARY = 'ros2bag_mcap 0.1.0 (python mcap)'
CHUNK_SIZE = 256 * 1024

# One file of the bag for the metadata: (relative path, start ns, end ns, message count).
FileEntry = Tuple[str, Optional[int], Optional[int], int]
# What read_messages yields: (topic, type, cdr bytes, log time, publish time).
BagMessage = Tuple[str, str, bytes, int, int]


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


class _File:
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
        self.files: List[_File] = []
        self._file = self._open_file()
        self.write_metadata()    # a killed recorder still leaves a bag that `info` explains

    def _open_file(self) -> _File:
        path = os.path.join(self.uri, f'{self.name}_{len(self.files)}.mcap')
        self._file = _File(path)
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


class FileCheck:
    """What a scan of one .mcap file found: complete (footer and summary) or truncated."""

    def __init__(self, path: str) -> None:
        """Nothing found yet."""
        self.path = path
        self.complete = False
        self.error: Optional[str] = None
        self.schemas: Dict[int, Schema] = {}
        self.channels: Dict[int, Channel] = {}
        self.counts: Dict[str, int] = {}
        self.start: Optional[int] = None
        self.end: Optional[int] = None

    @property
    def count(self) -> int:
        """Return the number of messages read."""
        return sum(self.counts.values())


OnMessage = Callable[[Optional[Schema], Channel, Message], None]


def scan_file(path: str, on_message: Optional[OnMessage] = None) -> FileCheck:
    """
    Read every record that can be read from `path`, in file order.

    The summary is not needed, so a killed recorder's file yields all its complete chunks.
    `on_message(schema, channel, message)` is called for each message.
    """
    check = FileCheck(path)
    try:
        with open(path, 'rb') as f:
            for record in StreamReader(f, skip_magic=False).records:
                if isinstance(record, Schema):
                    check.schemas[record.id] = record
                elif isinstance(record, Channel):
                    check.channels[record.id] = record
                elif isinstance(record, Message):
                    channel = check.channels[record.channel_id]
                    check.counts[channel.topic] = check.counts.get(channel.topic, 0) + 1
                    t = record.log_time
                    check.start = t if check.start is None else min(check.start, t)
                    check.end = t if check.end is None else max(check.end, t)
                    if on_message:
                        on_message(check.schemas.get(channel.schema_id), channel, record)
        check.complete = True
    except (McapError, EOFError, ValueError, KeyError, OSError) as exc:
        check.error = f'{type(exc).__name__}: {exc}' if str(exc) else type(exc).__name__
    if check.complete:
        try:
            with open(path, 'rb') as f:
                if make_reader(f).get_summary() is None:
                    check.complete = False
                    check.error = 'no summary section'
        except (McapError, EOFError, ValueError, OSError) as exc:
            check.complete = False
            check.error = str(exc) or type(exc).__name__
    return check


def bag_files(uri: str) -> List[str]:
    """
    Return the paths of the bag's .mcap files.

    Those metadata.yaml lists plus any found beside it (a split file that a killed recorder
    never listed).
    """
    listed: List[str] = []
    try:
        listed = [os.path.join(uri, p) for p in read_metadata(uri).get('relative_file_paths')
                  or []]
    except ValueError:
        pass
    found = sorted((os.path.join(uri, n) for n in os.listdir(uri) if n.endswith('.mcap')),
                   key=_file_index)
    return listed + [p for p in found if p not in listed]


def _file_index(path: str) -> Tuple[int, str]:
    stem = os.path.basename(path)[:-len('.mcap')]
    tail = stem.rsplit('_', 1)[-1]
    return (int(tail) if tail.isdigit() else 0, stem)


def read_messages(uri: str, topics: Optional[Iterable[str]] = None,
                  start_time: Optional[int] = None) -> Iterator[BagMessage]:
    """
    Yield (topic, type, cdr bytes, log_time, publish_time) of every message of the bag.

    Log-time order, file by file (each file's index is used; a truncated file is an error).
    `start_time`: only the messages logged at or after it (ns; the index skips the rest).
    """
    for path in bag_files(uri):
        with open(path, 'rb') as f:
            reader = make_reader(f)
            try:
                summary = reader.get_summary()
            except (McapError, EOFError, ValueError):
                summary = None
            if summary is None:
                raise ValueError(f'{path} is truncated (recorder killed?): '
                                 f'run `ros2 bag reindex {uri}` first')
            for schema, channel, message in reader.iter_messages(
                    topics=topics, starting_at=start_time, log_time_order=True):
                yield (channel.topic, schema.name if schema else '', message.data,
                       message.log_time, message.publish_time)


def reindex(uri: str, out: Callable[..., None] = print) -> int:
    """
    Recover a bag whose recorder was killed.

    Every readable message of each truncated file is rewritten into a complete file, and
    metadata.yaml is regenerated. Returns the number of messages recovered.
    """
    meta: Dict[str, Any] = {}
    try:
        meta = read_metadata(uri)
    except ValueError:
        pass
    offered: Dict[str, Tuple[str, List[Any], str]] = {}
    for t in meta.get('topics_with_message_count') or []:
        tm = t['topic_metadata']
        offered[tm['name']] = (tm['type'], qos_util.parse_profiles(tm['offered_qos_profiles']),
                               tm.get('type_description_hash', ''))
    topics: Dict[str, TopicInfo] = {}
    files: List[FileEntry] = []
    recovered = 0
    for path in bag_files(uri):
        check = scan_file(path)
        rel = os.path.basename(path)
        if not check.complete:
            recovered += _rewrite(path, check)
            out(f'{rel}: truncated ({check.error}); recovered {check.count} messages')
        for channel in check.channels.values():
            schema = check.schemas.get(channel.schema_id)
            type_name, profiles, type_hash = offered.get(
                channel.topic, (schema.name if schema else '', qos_util.parse_profiles(
                    channel.metadata.get('offered_qos_profiles', '')), ''))
            topic = topics.setdefault(channel.topic, TopicInfo(channel.topic, type_name,
                                                               profiles, type_hash))
            topic.count += check.counts.get(channel.topic, 0)
        files.append((rel, check.start, check.end, check.count))
    write_metadata(uri, build_metadata(topics.values(), files))
    return recovered


def _rewrite(path: str, check: FileCheck) -> int:
    tmp = path + '.reindex'
    with open(tmp, 'wb') as stream:
        writer = Writer(stream, chunk_size=CHUNK_SIZE, compression=CompressionType.NONE)
        writer.start(profile='ros2', library=LIBRARY)
        schema_ids: Dict[int, int] = {}
        channel_ids: Dict[int, int] = {}

        def on_message(schema: Optional[Schema], channel: Channel, message: Message) -> None:
            if schema is not None and schema.id not in schema_ids:
                schema_ids[schema.id] = writer.register_schema(schema.name, schema.encoding,
                                                               schema.data)
            if channel.id not in channel_ids:
                channel_ids[channel.id] = writer.register_channel(
                    channel.topic, channel.message_encoding,
                    schema_ids.get(channel.schema_id, 0), channel.metadata)
            writer.add_message(channel_ids[channel.id], message.log_time, message.data,
                               message.publish_time, message.sequence)

        scan_file(path, on_message)
        writer.finish()  # type: ignore[no-untyped-call,unused-ignore]
    os.replace(tmp, path)
    return check.count


def now_ns() -> int:
    """Return the wall time [ns]."""
    return time.time_ns()
