# SPDX-License-Identifier: Apache-2.0
"""Entity: a YAML mapping of a launch file, with its file and line."""

from typing import Any, Dict, List, Text

from launch.frontend.entity_base import MappingEntity
import yaml

_LINE = '__line__'


class _LineLoader(yaml.SafeLoader):  # type: ignore[misc]  # PyYAML ships no type hints
    """A SafeLoader that records the line of every mapping."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Dict[Any, Any]:
        mapping: Dict[Any, Any] = super().construct_mapping(node, deep=deep)
        mapping[_LINE] = node.start_mark.line + 1
        return mapping


class Entity(MappingEntity):
    """A YAML mapping: attributes keep their YAML types; lists are YAML lists."""


def _entity(path: Text, type_name: Text, value: Any, line: int) -> Entity:
    if not isinstance(value, dict):
        raise ValueError(f'{path}:{line}: <{type_name}>: expected a mapping of attributes, '
                         f'got {value!r}')
    line = value.get(_LINE, line)
    attributes: Dict[str, Any] = {}
    children: List[Entity] = []
    for key, item in value.items():
        if key == _LINE:
            continue
        if key == 'children':
            children.extend(_children(path, item, line))
        elif isinstance(item, list) and item and all(isinstance(x, dict) for x in item):
            children.extend(_entity(path, key, x, line) for x in item)
        else:
            attributes[key] = item
    return Entity(type_name, attributes, children, f'{path}:{line}')


def _children(path: Text, items: Any, line: int) -> List[Entity]:
    if not isinstance(items, list):
        raise ValueError(f'{path}:{line}: expected a list of actions')
    result = []
    for item in items:
        keys = [k for k in item if k != _LINE] if isinstance(item, dict) else []
        if len(keys) != 1:
            raise ValueError(f'{path}:{line}: every action is a mapping with one key (its '
                             f'tag), got {item!r}')
        result.append(_entity(path, keys[0], item[keys[0]], item.get(_LINE, line)))
    return result


def parse_file(path: Text, text: str) -> Entity:
    """Return the root entity of YAML ``text``; ValueError with file and line if malformed."""
    try:
        data = yaml.load(text, Loader=_LineLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, 'problem_mark', None)
        where = f'{path}:{mark.line + 1}' if mark is not None else path
        problem = getattr(e, 'problem', None) or str(e).splitlines()[0]
        raise ValueError(f'{where}: malformed YAML: {problem}') from None
    keys = [k for k in data if k != _LINE] if isinstance(data, dict) else []
    if keys != ['launch']:
        raise ValueError(f"{path}: expected one root key 'launch'")
    line = data.get(_LINE, 1)
    return Entity('launch', {}, _children(path, data['launch'] or [], line), f'{path}:{line}')
