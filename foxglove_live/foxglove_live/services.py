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

from rclpy.serialization import deserialize_message, serialize_message
from ros2bag_mcap.schema import (DefinitionNotFound, dependencies, message_definition,
                                 SEPARATOR)


class ServiceRefused(ValueError):
    """A service request refused before the call (its text goes to the client)."""


def service_class(type_name):
    """Return the generated class of 'pkg/srv/Type'."""
    parts = type_name.split('/')
    if len(parts) != 3 or parts[1] != 'srv':
        raise DefinitionNotFound(f'not a service type name: {type_name!r}')
    try:
        return getattr(importlib.import_module(f'{parts[0]}.srv'), parts[2])
    except (ImportError, AttributeError):
        raise DefinitionNotFound(f'service type {type_name} is not installed') from None


@functools.lru_cache(maxsize=None)
def service_definitions(type_name):
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


def _with_dependencies(text, package):
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


def _nested(type_name):
    text = message_definition(type_name)
    return [line[len('MSG: '):] for line in text.splitlines() if line.startswith('MSG: ')]


def decode_request(cls, encoding, payload):
    """Return the Request of a client's CDR payload, or raise ServiceRefused."""
    if encoding != 'cdr':       # the server already refuses what the service does not take
        raise ServiceRefused(f'encoding {encoding!r} (supported: cdr)')
    try:
        return deserialize_message(bytes(payload), cls.Request)
    except Exception as exc:     # rclpy raises bare RuntimeError kinds here
        raise ServiceRefused(f'malformed CDR request: {" ".join(str(exc).split())[:200]}') \
            from None


def encode_response(response):
    return serialize_message(response)
