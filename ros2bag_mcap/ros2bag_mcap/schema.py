# SPDX-License-Identifier: Apache-2.0
"""
Message definitions in the `ros2msg` schema format rosbag2 and Foxglove expect.

The text is the type's own .msg file followed, for every type it depends on (recursively,
each once), by a separator line of 80 `=`, a `MSG: pkg/Type` line and that type's .msg file:
the layout rosbag2_storage_mcap writes into MCAP schema records, which Foxglove, PlotJuggler
and rosbags parse. The .msg files come from each package's share directory (ament index).
"""

import functools
import os
import re
from typing import Any, List, Set, Tuple

from ament_index_python.packages import get_package_share_directory, PackageNotFoundError
from node_runtime.type_lookup import split_type_name, type_class, TypeNotFound

SEPARATOR = '=' * 80
PRIMITIVES = frozenset((
    'bool', 'byte', 'char', 'float32', 'float64', 'int8', 'uint8', 'int16', 'uint16',
    'int32', 'uint32', 'int64', 'uint64', 'string', 'wstring'))
# First token of a field line: the type, with optional array/bound suffixes.
_FIELD = re.compile(r'^\s*([A-Za-z][A-Za-z0-9_/]*)(?:<=\d+)?(?:\[[^\]]*\])?\s+[A-Za-z]')


class DefinitionNotFound(TypeNotFound):
    """No .msg file (or no generated class) for a type in any installed package."""


def split_type(type_name: str) -> Tuple[str, str]:
    """'pkg/msg/Type' or 'pkg/Type' -> ('pkg', 'Type') (the workspace's one parse)."""
    try:
        return split_type_name(type_name, 'msg')
    except TypeNotFound as exc:
        raise DefinitionNotFound(str(exc)) from None


@functools.lru_cache(maxsize=None)
def msg_file_text(package: str, name: str) -> str:
    """Text of share/<package>/msg/<name>.msg."""
    try:
        share = get_package_share_directory(package)
    except (PackageNotFoundError, ValueError):
        raise DefinitionNotFound(f'package {package!r} not found (is it sourced?)') from None
    path = os.path.join(share, 'msg', name + '.msg')
    try:
        with open(path, encoding='utf-8') as f:
            return f.read()
    except OSError:
        raise DefinitionNotFound(f'no definition {path}') from None


def dependencies(text: str, package: str) -> List[str]:
    """Sorted 'pkg/Type' names of the non-primitive field types in a .msg text."""
    deps: Set[str] = set()
    for line in text.splitlines():
        line = line.split('#', 1)[0]
        m = _FIELD.match(line)
        if not m:
            continue
        field_type = m.group(1)
        if field_type in PRIMITIVES:
            continue
        if '/' not in field_type:
            field_type = f'{package}/{field_type}'
        deps.add(field_type)
    return sorted(deps)


@functools.lru_cache(maxsize=None)
def message_definition(type_name: str) -> str:
    """Full ros2msg text of `type_name` ('pkg/msg/Type'), nested types included."""
    package, name = split_type(type_name)
    seen: Set[str] = set()

    def append(pkg: str, nm: str, depth: int) -> str:
        if depth > 50:
            raise DefinitionNotFound(f'definition of {type_name} nests too deep')
        text = msg_file_text(pkg, nm)
        out = text
        for dep in dependencies(text, pkg):
            if dep in seen:
                continue
            seen.add(dep)
            dep_pkg, dep_name = split_type(dep)
            out += f'\n{SEPARATOR}\nMSG: {dep}\n' + append(dep_pkg, dep_name, depth + 1)
        return out

    return append(package, name, 0)


def message_class(type_name: str) -> Any:
    """Return the generated Python class of 'pkg/msg/Type' (`node_runtime.type_lookup`)."""
    try:
        return type_class(type_name, 'msg')
    except TypeNotFound as exc:
        raise DefinitionNotFound(str(exc)) from None
