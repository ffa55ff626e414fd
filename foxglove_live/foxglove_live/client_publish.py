# SPDX-License-Identifier: Apache-2.0
"""clientPublish: messages a Foxglove client sends become ROS messages (cdr or json)."""

import json
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

from node_runtime.bounded_text import bounded
from node_runtime.qos_matching import match_subscribers, requested_profiles
from rclpy.qos import HistoryPolicy, QoSProfile
from rclpy.serialization import deserialize_message, serialize_message
from ros2bag_mcap.schema import DefinitionNotFound, message_class

from .settings import allowed, Patterns
from .ws_client import Client, ClientChannel

ENCODINGS = ('cdr', 'json')


class RejectedInput(ValueError):
    """A client message or advertisement that is refused (its text goes to the client)."""


def ros_type_name(schema_name: Optional[str]) -> str:
    """'geometry_msgs/Twist' or 'geometry_msgs/msg/Twist' -> 'geometry_msgs/msg/Twist'."""
    parts = [p for p in (schema_name or '').split('/') if p]
    if len(parts) == 2:
        parts.insert(1, 'msg')
    if len(parts) != 3 or parts[1] != 'msg':
        raise RejectedInput(f'unknown message type {schema_name!r}')
    return '/'.join(parts)


def publisher_profile(subscriber_profiles: Sequence[Any], depth: int) -> Any:
    """
    Return a publisher profile every existing subscriber of the topic accepts.

    node_runtime.qos_matching's rule for a publisher joining a topic (match_subscribers):
    best effort only when every subscriber is (the mabRT control inputs, e.g.
    /hb50/velocity_command, where a reliable writer would retransmit for nothing),
    transient local when a subscriber asks for it; KEEP_LAST `depth`.
    """
    base = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=depth)
    return match_subscribers(base, subscriber_profiles).profile


def message_class_of(schema_name: str) -> Tuple[str, Any]:
    """Return the generated class of a client channel's schema name, or raise RejectedInput."""
    type_name = ros_type_name(schema_name)
    try:
        return type_name, message_class(type_name)
    except DefinitionNotFound as exc:
        raise RejectedInput(str(exc)) from None


def fill_message(msg: Any, values: Any, path: str = '') -> None:
    """
    Set the fields of `msg` from a JSON object; unknown fields and wrong types raise.

    `msg` and every nested message are made with check_fields=True: unchecked (the default
    without ROS_PYTHON_CHECK_FIELDS=1), a string in a float field would be published as 0.
    """
    if not isinstance(values, dict):
        raise RejectedInput(f'{path or "message"}: a JSON object is expected')
    fields = msg.get_fields_and_field_types()
    for key, value in values.items():
        if key not in fields:
            raise RejectedInput(f'{path}{key}: no such field in {type(msg).__name__}')
        current = getattr(msg, key)
        where = f'{path}{key}'
        if hasattr(current, 'get_fields_and_field_types'):
            sub = type(current)(check_fields=True)
            fill_message(sub, value, where + '.')
            value = sub
        elif isinstance(value, list) and fields[key].startswith(('sequence<', )) \
                and '/' in fields[key]:
            item_cls = type(current[0]) if current else _sequence_item_class(msg, key)
            items = []
            for i, item in enumerate(value):
                sub = item_cls(check_fields=True)
                fill_message(sub, item, f'{where}[{i}].')
                items.append(sub)
            value = items
        try:
            setattr(msg, key, value)
        except (AssertionError, TypeError, ValueError, OverflowError) as exc:
            raise RejectedInput(f'{where}: {bounded(" ".join(str(exc).split()))}') from None


def _sequence_item_class(msg: Any, key: str) -> Any:
    slot = type(msg).SLOT_TYPES[list(msg.get_fields_and_field_types()).index(key)]
    inner = slot.value_type
    module = __import__(f'{inner.namespaces[0]}.{inner.namespaces[1]}', fromlist=[inner.name])
    return getattr(module, inner.name)


def to_cdr(encoding: str, cls: Any, data: bytes) -> bytes:
    """Return the CDR bytes of a client message, or raise RejectedInput (nothing published)."""
    if encoding == 'cdr':
        try:
            deserialize_message(bytes(data), cls)     # refuses truncated or malformed CDR
        except Exception as exc:   # rclpy raises bare RuntimeError/_rclpy errors here
            raise RejectedInput(f'malformed CDR for {cls.__name__}: '
                                f'{bounded(" ".join(str(exc).split()))}') from None
        return bytes(data)
    try:
        values = json.loads(bytes(data).decode('utf-8'))
    except (UnicodeDecodeError, ValueError) as exc:
        raise RejectedInput(f'malformed JSON: {bounded(exc)}') from None
    msg = cls(check_fields=True)
    fill_message(msg, values)
    out: bytes = serialize_message(msg)
    return out


class ClientPublishers:
    """The ROS publishers of the channels clients advertised, and what they publish."""

    def __init__(self, node: Any, topic_re: Patterns, max_depth: int, max_bytes: int,
                 refuse: Callable[[Optional[Client], str], None]) -> None:
        """Publish on the topics `topic_re` allows; `refuse` tells a client why not."""
        self.node = node
        self.topic_re = topic_re
        self.max_depth = max_depth
        self.max_bytes = max_bytes
        self.refuse = refuse
        # (client id, client channel id) -> (class, publisher)
        self.publishers: Dict[Tuple[int, int], Tuple[Any, Any]] = {}

    def advertise(self, client: Client, channel: ClientChannel) -> bool:
        """Create a ROS publisher for a client channel; refuse it with a status."""
        try:
            if not allowed(self.topic_re, channel.topic):
                raise RejectedInput(f'{channel.topic}: not in client_topic_whitelist')
            if channel.encoding not in ENCODINGS:
                raise RejectedInput(f'{channel.topic}: encoding {channel.encoding!r} '
                                    f'(supported: {", ".join(ENCODINGS)})')
            type_name, cls = message_class_of(channel.schema_name)
            for name, types in self.node.get_topic_names_and_types():
                if name == channel.topic and type_name not in types:
                    raise RejectedInput(f'{channel.topic}: carries {types[0]}, '
                                        f'not {type_name}')
            profiles = requested_profiles(self.node, channel.topic)
            publisher = self.node.create_publisher(
                cls, channel.topic, publisher_profile(profiles, min(10, self.max_depth)))
        except RejectedInput as exc:
            self.refuse(client, f'advertise refused: {exc}')
            return False
        self.publishers[(client.id, channel.id)] = (cls, publisher)
        self.node.get_logger().info(
            f'client {client.id} publishes {channel.topic} ({type_name}, {channel.encoding})')
        return True

    def unadvertise(self, client: Client, channel: ClientChannel) -> None:
        """Destroy the channel's publisher."""
        entry = self.publishers.pop((client.id, channel.id), None)
        if entry is not None:
            self.node.destroy_publisher(entry[1])

    def publish(self, client: Client, channel: ClientChannel, payload: bytes) -> None:
        """Publish a client message, or refuse it (nothing of it is published)."""
        cls, publisher = self.publishers[(client.id, channel.id)]
        try:
            if len(payload) > self.max_bytes:
                raise RejectedInput(f'message of {len(payload)} bytes over '
                                    f'max_client_message_bytes {self.max_bytes}')
            data = to_cdr(channel.encoding, cls, payload)
        except RejectedInput as exc:
            self.refuse(client, f'{channel.topic}: not published: {exc}')
            return
        publisher.publish(data)
