# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
Parsing of the bridge's topic-mapping parameters.

``horus_to_ros`` entries: ``TYPE:horus_topic:ros_topic[:frame_id]``
``ros_to_horus`` entries: ``TYPE:ros_topic:horus_topic``
TYPE is a HORUS sensor type (LaserScan, Imu, ...). frame_id is only meaningful
for HORUS types without one; it defaults to the ``default_frame_id`` parameter.
"""

from typing import Iterable, List, NamedTuple, Set

from horus_msg_py import SENSOR_TYPES
from horus_msg_py.messages import encode_name


class Route(NamedTuple):
    """One mapped topic: HORUS type, HORUS topic, ROS topic, ROS frame_id (or '')."""

    type_name: str
    horus_topic: str
    ros_topic: str
    frame_id: str


class MappingError(ValueError):
    """A mapping entry that cannot be used."""


def _split(entry: object, direction: str, max_parts: int) -> List[str]:
    if not isinstance(entry, str):
        raise MappingError('%s entry %r is not a string' % (direction, entry))
    parts = entry.split(':')
    if not 3 <= len(parts) <= max_parts or not all(parts[:3]):
        raise MappingError('%s entry %r: expected %s' % (
            direction, entry, 'TYPE:horus_topic:ros_topic[:frame_id]'
            if direction == 'horus_to_ros' else 'TYPE:ros_topic:horus_topic'))
    if parts[0] not in SENSOR_TYPES:
        raise MappingError('%s entry %r: unknown type %r (one of %s)'
                           % (direction, entry, parts[0], ', '.join(SENSOR_TYPES)))
    return parts


def parse_horus_to_ros(entries: Iterable[str], default_frame_id: str = '') -> List[Route]:
    """Return the routes of ``horus_to_ros`` entries; MappingError for a bad one."""
    routes = []
    for entry in entries:
        if not entry:
            continue
        parts = _split(entry, 'horus_to_ros', 4)
        frame_id = parts[3] if len(parts) == 4 else default_frame_id
        try:
            encode_name(frame_id, 'frame_id')
        except ValueError as exc:
            raise MappingError('horus_to_ros entry %r: %s' % (entry, exc)) from None
        routes.append(Route(parts[0], parts[1], parts[2], frame_id))
    _check_unique(routes, 'ros_topic', 'horus_to_ros')
    return routes


def parse_ros_to_horus(entries: Iterable[str]) -> List[Route]:
    """Return the routes of ``ros_to_horus`` entries; MappingError for a bad one."""
    routes = []
    for entry in entries:
        if not entry:
            continue
        parts = _split(entry, 'ros_to_horus', 3)
        routes.append(Route(parts[0], parts[2], parts[1], ''))
    _check_unique(routes, 'horus_topic', 'ros_to_horus')
    return routes


def _check_unique(routes: List[Route], field: str, direction: str) -> None:
    seen: Set[str] = set()
    for route in routes:
        key = getattr(route, field)
        if key in seen:
            raise MappingError('%s: %s %r is mapped twice' % (direction, field, key))
        seen.add(key)
