# SPDX-License-Identifier: Apache-2.0
"""`ros2 bag info` and `ros2 bag reindex`."""

import argparse
import datetime
import os
import sys
from typing import Any, Callable, Dict, Optional

from .bag_metadata import read_metadata
from .bag_reader import bag_files, scan_file
from .bag_reindex import reindex


def _time(ns: int) -> str:
    t = datetime.datetime.fromtimestamp(ns / 1e9, tz=datetime.timezone.utc)
    return f'{t.strftime("%b %d %Y %H:%M:%S.%f")[:-3]} UTC ({ns // 10**9}.{ns % 10**9:09d})'


def _size(n: float) -> str:
    for unit in ('B', 'KiB', 'MiB', 'GiB'):
        if n < 1024 or unit == 'GiB':
            return f'{n:.1f} {unit}' if unit != 'B' else f'{n} B'
        n /= 1024
    raise AssertionError('unreachable: GiB returns')


def info(uri: str, out: Callable[..., None] = print) -> int:
    """Print the bag summary; returns 0 for a clean bag, 1 for a truncated/unlisted one."""
    if not os.path.isdir(uri):
        out(f"error: '{uri}' is not a bag directory", file=sys.stderr)
        return 2
    try:
        meta: Optional[Dict[str, Any]] = read_metadata(uri)
    except ValueError as exc:
        meta = None
        out(f'[WARN] {exc}')
    paths = bag_files(uri)
    checks = [scan_file(p) for p in paths]
    problems = [c for c in checks if not c.complete]
    listed = set((meta or {}).get('relative_file_paths') or [])
    unlisted = [c for c in checks if os.path.basename(c.path) not in listed]
    size = sum(os.path.getsize(p) for p in paths)
    out(f'Files:             {", ".join(os.path.basename(p) for p in paths)}')
    out(f'Bag size:          {_size(size)}')
    out(f'Storage id:        {(meta or {}).get("storage_identifier", "mcap")}')
    out(f'ROS Distro:        {(meta or {}).get("ros_distro", "")}')
    out(f'Metadata version:  {(meta or {}).get("version", "?")}')
    starts = [c.start for c in checks if c.start is not None]
    ends = [c.end for c in checks if c.end is not None]
    if starts:
        d = max(ends) - min(starts)
        out(f'Duration:          {d // 10**9}.{d % 10**9:09d}s')
        out(f'Start:             {_time(min(starts))}')
        out(f'End:               {_time(max(ends))}')
    counts: Dict[str, int] = {}
    for c in checks:
        for topic, n in c.counts.items():
            counts[topic] = counts.get(topic, 0) + n
    out(f'Messages:          {sum(counts.values())}')
    types = {t['topic_metadata']['name']: t['topic_metadata']['type']
             for t in (meta or {}).get('topics_with_message_count') or []}
    for c in checks:
        for ch in c.channels.values():
            schema = c.schemas.get(ch.schema_id)
            types.setdefault(ch.topic, schema.name if schema else '?')
    lines = [f'Topic: {t} | Type: {types[t]} | Count: {counts.get(t, 0)} | '
             'Serialization Format: cdr' for t in sorted(types)]
    out('Topic information: ' + ('\n                   '.join(lines) if lines else ''))
    for c in problems:
        out(f'[WARN] {os.path.basename(c.path)} was not closed cleanly ({c.error}): '
            f'{c.count} messages are readable; `ros2 bag reindex {uri}` recovers them')
    for c in unlisted:
        if c not in problems:
            out(f'[WARN] {os.path.basename(c.path)} is not listed in metadata.yaml; '
                f'`ros2 bag reindex {uri}` adds it')
    if meta and not problems and not unlisted:
        meta_counts = {t['topic_metadata']['name']: t['message_count']
                       for t in meta.get('topics_with_message_count') or []}
        diff = {t: (meta_counts.get(t), counts.get(t, 0)) for t in set(meta_counts) | set(counts)
                if meta_counts.get(t) != counts.get(t, 0)}
        if diff:
            out(f'[WARN] metadata.yaml counts differ from the files: {diff}; '
                f'`ros2 bag reindex {uri}` rewrites it')
            return 1
    return 1 if problems or unlisted else 0


def run_info(args: argparse.Namespace) -> int:
    """`ros2 bag info BAG`: return the exit code."""
    return info(args.bag)


def run_reindex(args: argparse.Namespace) -> int:
    """`ros2 bag reindex BAG`: return the exit code."""
    if not os.path.isdir(args.bag):
        print(f"error: '{args.bag}' is not a bag directory", file=sys.stderr)
        return 2
    n = reindex(args.bag)
    print(f'[INFO] metadata.yaml rewritten; {n} messages recovered from truncated files')
    return 0
