# SPDX-License-Identifier: Apache-2.0
"""
Binary protobuf and AimRT-style JSON codecs with named errors.

Binary:
  * decode() parses into a fresh message and returns it only when the whole
    input parsed: truncated or malformed bytes raise DecodeError, so no
    half-built message is ever handed on.
  * Unknown fields (e.g. AimRT >= 0.10's Header.sequence_num = 3) are kept by
    protobuf and re-emitted by encode(), so they survive a decode/encode.
  * A field number the schema declares but arriving with another wire type is
    not "unknown data from a newer AimRT", it is bytes of another message type
    or garbage: decode() rejects it (DecodeError) instead of silently keeping it.

JSON (AimRT's http backend form): to_json() prints proto field names and every
field including defaults (uint64 as a string, per the proto3 JSON mapping);
from_json() accepts both snake_case and lowerCamelCase names.  JSON cannot carry
unknown binary fields: to_json() omits them (protobuf has no JSON form for
them) and from_json() rejects unknown keys unless ignore_unknown_fields=True,
in which case they are dropped (protobuf keeps nothing of them).
"""
import json
from typing import Any, Dict, Iterator, List, Optional, Tuple, Type, Union

from aimrt_protocols_py.errors import DecodeError, JsonFormatError, UnsupportedContentTypeError
from google.protobuf import json_format
from google.protobuf import message as _pb_message
from google.protobuf import unknown_fields as _unknown_fields
from google.protobuf.descriptor import FieldDescriptor

JSON_CONTENT_TYPE = 'application/json'
PROTOBUF_CONTENT_TYPE = 'application/protobuf'


# Protobuf classes and messages are Any here: protobuf ships no type stubs.
Body = Union[bytes, bytearray, memoryview, str]

_MESSAGE_FIELDS: Dict[Any, Tuple[Tuple[str, bool], ...]] = {}


def _message_fields(descriptor: Any) -> Tuple[Tuple[str, bool], ...]:
    """(name, is_repeated) of the message-typed fields, cached per descriptor."""
    fields = _MESSAGE_FIELDS.get(descriptor)
    if fields is None:
        fields = tuple((f.name, f.is_repeated) for f in descriptor.fields
                       if f.type == FieldDescriptor.TYPE_MESSAGE)
        _MESSAGE_FIELDS[descriptor] = fields
    return fields


def _submessages(msg: Any) -> Iterator[Any]:
    """Yield the directly nested messages that are set."""
    for name, repeated in _message_fields(msg.DESCRIPTOR):
        if repeated:
            yield from getattr(msg, name)
        elif msg.HasField(name):
            yield getattr(msg, name)


def unknown_field_numbers(msg: Any, _path: str = '') -> Dict[str, List[int]]:
    """{path: [field numbers]} of unknown fields anywhere in msg (empty when none)."""
    found: Dict[str, List[int]] = {}
    numbers = [f.field_number for f in _unknown_fields.UnknownFieldSet(msg)]
    if numbers:
        found[_path or msg.DESCRIPTOR.full_name] = numbers
    for sub in _submessages(msg):
        found.update(unknown_field_numbers(sub, (_path or msg.DESCRIPTOR.name) + '.' +
                                           sub.DESCRIPTOR.name))
    return found


def has_unknown_fields(msg: Any) -> bool:
    """
    Return True when msg or any nested message holds unknown fields.

    Compares sizes with a copy stripped of unknown fields (an unknown field
    always adds at least its tag byte): cheaper than walking every nested
    message's UnknownFieldSet (benchmarks/README.md).
    """
    stripped = type(msg)()
    stripped.CopyFrom(msg)
    stripped.DiscardUnknownFields()
    return bool(stripped.ByteSize() != msg.ByteSize())


def _check_wire_types(msg: Any) -> None:
    declared = msg.DESCRIPTOR.fields_by_number
    for field in _unknown_fields.UnknownFieldSet(msg):
        if field.field_number in declared:
            raise DecodeError(
                f'{msg.DESCRIPTOR.full_name}: field {field.field_number} '
                f'({declared[field.field_number].name}) has wire type {field.wire_type}, '
                'which does not match its declared type (wrong message type or corrupt bytes)')
    for sub in _submessages(msg):
        _check_wire_types(sub)


def decode(cls: Type[Any], data: Any, *, reject_unknown: bool = False) -> Any:
    """
    Parse binary protobuf `data` into a new `cls`; raise DecodeError if invalid.

    reject_unknown=True also refuses unknown fields (strict peers).
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise DecodeError(f'{cls.DESCRIPTOR.full_name}: expected bytes, got {type(data).__name__}')
    msg = cls()
    try:
        msg.ParseFromString(bytes(data))
    except _pb_message.DecodeError as exc:
        raise DecodeError(f'{cls.DESCRIPTOR.full_name}: {exc}') from exc
    if has_unknown_fields(msg):
        _check_wire_types(msg)
        if reject_unknown:
            raise DecodeError(f'{cls.DESCRIPTOR.full_name}: unknown fields '
                              f'{unknown_field_numbers(msg)}')
    return msg


def encode(msg: Any) -> bytes:
    """Binary protobuf bytes of msg (unknown fields included)."""
    data: bytes = msg.SerializeToString()
    return data


def to_json(msg: Any, *, indent: Optional[int] = None) -> str:
    """Return the AimRT JSON form: proto field names, defaults printed."""
    text: str = json_format.MessageToJson(
        msg, preserving_proto_field_name=True,
        always_print_fields_with_no_presence=True, indent=indent)
    return text


def from_json(cls: Type[Any], text: Any, *, ignore_unknown_fields: bool = False) -> Any:
    """Parse JSON (str or UTF-8 bytes) into a new `cls`; raise JsonFormatError if invalid."""
    name = cls.DESCRIPTOR.full_name
    if isinstance(text, (bytes, bytearray, memoryview)):
        try:
            text = bytes(text).decode('utf-8')
        except UnicodeDecodeError as exc:
            raise JsonFormatError(f'{name}: JSON body is not UTF-8: {exc}') from exc
    if not isinstance(text, str):
        raise JsonFormatError(f'{name}: expected JSON text, got {type(text).__name__}')
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise JsonFormatError(f'{name}: not valid JSON: {exc}') from exc
    if not isinstance(value, dict):
        raise JsonFormatError(f'{name}: JSON must be an object, got {type(value).__name__}')
    msg = cls()
    try:
        json_format.ParseDict(value, msg, ignore_unknown_fields=ignore_unknown_fields)
    except (json_format.ParseError, ValueError, TypeError, RecursionError) as exc:
        raise JsonFormatError(f'{name}: {exc}') from exc
    return msg


def decode_body(cls: Type[Any], body: Body, content_type: Optional[str], *,
                ignore_unknown_json_fields: bool = False) -> Any:
    """Decode an AimRT http-channel body by its content type (pb or JSON)."""
    kind = serialization_of(content_type)
    if kind == 'pb':
        return decode(cls, body)
    return from_json(cls, body, ignore_unknown_fields=ignore_unknown_json_fields)


def serialization_of(content_type: Optional[str]) -> str:
    """
    'pb' or 'json' for an http content-type; UnsupportedContentTypeError otherwise.

    AimRT's http backend accepts exactly application/protobuf and
    application/json (it also accepts its own misspelling
    'application/json charset=utf-8'); parameters after ';' are tolerated.
    """
    base = (content_type or '').split(';')[0].strip().lower()
    if base == PROTOBUF_CONTENT_TYPE:
        return 'pb'
    if base == JSON_CONTENT_TYPE or base.startswith(JSON_CONTENT_TYPE + ' charset='):
        return 'json'
    raise UnsupportedContentTypeError(f'unsupported content type {content_type!r} '
                                      f'(expected {PROTOBUF_CONTENT_TYPE} or '
                                      f'{JSON_CONTENT_TYPE})')


def encode_body(msg: Any, serialization: str) -> Tuple[bytes, str]:
    """(body bytes, content type) for an AimRT http-channel POST."""
    if serialization == 'pb':
        return encode(msg), PROTOBUF_CONTENT_TYPE
    if serialization == 'json':
        return to_json(msg).encode('utf-8'), JSON_CONTENT_TYPE
    raise ValueError(f"serialization must be 'pb' or 'json', not {serialization!r}")
