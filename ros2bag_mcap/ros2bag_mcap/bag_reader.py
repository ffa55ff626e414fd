# SPDX-License-Identifier: Apache-2.0
"""Reading a rosbag2 MCAP bag: its files, its messages, and a scan of a possibly cut file."""

import os
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Tuple

from mcap.exceptions import McapError
from mcap.reader import make_reader
from mcap.records import Channel, Message, Schema
from mcap.stream_reader import StreamReader

from .bag_metadata import read_metadata

# What read_messages yields: (topic, type, cdr bytes, log time, publish time).
BagMessage = Tuple[str, str, bytes, int, int]


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
