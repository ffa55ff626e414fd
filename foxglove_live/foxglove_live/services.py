# SPDX-License-Identifier: Apache-2.0
"""
Services capability: every ROS service, with ros2msg request/response schemas, called in CDR.

A request is decoded into the service's Request class first (a payload that does not decode
is refused), then called through RosCalls with a timeout; the response goes back as CDR.
Every failure raises, which the server answers with serviceCallFailure to the calling client.
"""

import functools
import importlib
import os
from typing import Any, Callable, Dict, List, Set, Tuple

from node_runtime.bounded_text import bounded
from rclpy.serialization import deserialize_message, serialize_message
from ros2bag_mcap.schema import (DefinitionNotFound, dependencies, message_definition,
                                 SEPARATOR)

from .ros_calls import RosCalls
from .settings import allowed, hidden, Patterns
from .ws_listener import CallFailed, Service


class ServiceRefused(ValueError):
    """A service request refused before the call (its text goes to the client)."""


def service_class(type_name: str) -> Any:
    """Return the generated class of 'pkg/srv/Type'."""
    parts = type_name.split('/')
    if len(parts) != 3 or parts[1] != 'srv':
        raise DefinitionNotFound(f'not a service type name: {type_name!r}')
    try:
        return getattr(importlib.import_module(f'{parts[0]}.srv'), parts[2])
    except (ImportError, AttributeError):
        raise DefinitionNotFound(f'service type {type_name} is not installed') from None


@functools.lru_cache(maxsize=None)
def service_definitions(type_name: str) -> Tuple[str, str]:
    """Return the ros2msg texts (request, response) of 'pkg/srv/Type', nested types included."""
    from ament_index_python.packages import get_package_share_directory, PackageNotFoundError
    package, _, name = type_name.split('/')
    try:
        path = os.path.join(get_package_share_directory(package), 'srv', name + '.srv')
        with open(path, encoding='utf-8') as f:
            text = f.read()
    except (PackageNotFoundError, ValueError, OSError):
        raise DefinitionNotFound(f'no definition of {type_name}') from None
    lines = text.splitlines(keepends=True)
    cut = next((i for i, line in enumerate(lines) if line.strip() == '---'), len(lines))
    return (_with_dependencies(''.join(lines[:cut]), package),
            _with_dependencies(''.join(lines[cut + 1:]), package))


def _with_dependencies(text: str, package: str) -> str:
    out, seen = text, set()
    for dep in dependencies(text, package):
        # Each dependency's own definition lists its nested types after it; a type both
        # parts of a definition need appears once.
        for block in [dep] + _nested(dep):
            if block in seen:
                continue
            seen.add(block)
            own = message_definition(block).split(f'\n{SEPARATOR}\n', 1)[0]
            out += f'\n{SEPARATOR}\nMSG: {block}\n' + own
    return out


def _nested(type_name: str) -> List[str]:
    text = message_definition(type_name)
    return [line[len('MSG: '):] for line in text.splitlines() if line.startswith('MSG: ')]


def decode_request(cls: Any, encoding: str, payload: bytes) -> Any:
    """Return the Request of a client's CDR payload, or raise ServiceRefused."""
    if encoding != 'cdr':       # the server already refuses what the service does not take
        raise ServiceRefused(f'encoding {encoding!r} (supported: cdr)')
    try:
        return deserialize_message(bytes(payload), cls.Request)
    except Exception as exc:     # rclpy raises bare RuntimeError kinds here
        raise ServiceRefused(f'malformed CDR request: {" ".join(str(exc).split())[:200]}') \
            from None


def encode_response(response: Any) -> bytes:
    """Return the CDR bytes of a Response."""
    data: bytes = serialize_message(response)
    return data


class RosServices:
    """The services of the ROS graph offered to clients, and the calls made for them."""

    def __init__(self, node: Any, calls: RosCalls, offered_re: Patterns, call_re: Patterns,
                 include_hidden: bool, timeout: float,
                 warn: Callable[[str], None]) -> None:
        """Offer the services `offered_re` allows; call those `call_re` allows."""
        self.node = node
        self.calls = calls
        self.offered_re = offered_re
        self.call_re = call_re
        self.include_hidden = include_hidden
        self.timeout = timeout
        self.warn = warn
        self.classes: Dict[str, Tuple[str, Any]] = {}   # name -> (type name, generated class)
        self.skipped: Set[str] = set()

    def offered(self) -> List[Tuple[str, str, str, str]]:
        """Return (name, type, request schema, response schema) of every service offered."""
        found = {}
        for name, types in self.node.get_service_names_and_types():
            if not self.include_hidden and hidden(name):
                continue
            if allowed(self.offered_re, name) and types:
                found[name] = types[0]
        offered = []
        for name, type_name in sorted(found.items()):
            if name in self.skipped:
                continue
            try:
                request, response = service_definitions(type_name)
                cls = service_class(type_name)
            except DefinitionNotFound as exc:
                self.node.get_logger().warning(f'not offering {name}: {exc}')
                self.skipped.add(name)
                continue
            self.classes[name] = (type_name, cls)
            offered.append((name, type_name, request, response))
        return offered

    def call(self, client_id: int, service: Service, payload: bytes) -> bytes:
        """Call a ROS service for a client (a worker thread); CallFailed says why not."""
        try:
            if not allowed(self.call_re, service.name):
                raise ServiceRefused('not in service_call_whitelist')
            type_name, cls = self.classes[service.name]
            if type_name != service.type:
                raise ServiceRefused(f'now of type {type_name}')
            request = decode_request(cls, 'cdr', payload)
            response = self.calls.call(cls, service.name, request, self.timeout)
        except Exception as exc:    # noqa: B902 - every failure goes back to the caller
            text = bounded(' '.join(str(exc).split()) or type(exc).__name__)
            self.warn(f'client {client_id}: {service.name}: call failed: {text}')
            raise CallFailed(f'{service.name}: {text}') from None
        return encode_response(response)
