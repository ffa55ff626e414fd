# SPDX-License-Identifier: Apache-2.0
"""Recovery of a bag whose recorder was killed (`ros2 bag reindex`)."""

import os
from typing import Any, Callable, Dict, List, Optional, Tuple

from mcap.records import Channel, Message, Schema
from mcap.writer import CompressionType, Writer

from . import qos as qos_util
from .bag_metadata import build_metadata, FileEntry, read_metadata, TopicInfo, write_metadata
from .bag_reader import bag_files, FileCheck, scan_file
from .bag_writer import CHUNK_SIZE, LIBRARY


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
