# SPDX-License-Identifier: Apache-2.0
"""Entity: an XML element of a launch file, with its file and line."""

from typing import Any, Dict, List, Optional, Text
from xml.parsers import expat

from launch.frontend.entity_base import MappingEntity


class Entity(MappingEntity):
    """
    An XML element: attributes are text; a list attribute is split by ``<name>-sep``.

    ``<param name="a" value="1,2" value-sep=","/>`` reads ``value`` as ['1', '2'].
    """

    def _list_value(self, name: Text, value: Any) -> Optional[List[Any]]:
        separator = self._attributes.get(f'{name}-sep')
        if separator is None:
            return None
        self._read.add(f'{name}-sep')
        return value.split(separator) if value else []


def parse_file(path: Text, text: bytes) -> Entity:
    """Return the root entity of XML ``text`` read from ``path``; ValueError with the line."""
    parser = expat.ParserCreate()
    stack: List[Dict[str, Any]] = [{'children': []}]

    def start(tag: str, attributes: Dict[str, str]) -> None:
        stack.append({'tag': tag, 'attributes': attributes, 'children': [],
                      'line': parser.CurrentLineNumber})

    def end(tag: str) -> None:
        node = stack.pop()
        stack[-1]['children'].append(Entity(node['tag'], node['attributes'],
                                            node['children'], f"{path}:{node['line']}"))

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        parser.Parse(text, True)
    except expat.ExpatError as e:
        raise ValueError(f'{path}:{e.lineno}: malformed XML: '
                         f'{expat.ErrorString(e.code)} (column {e.offset + 1})') from None
    roots: List[Entity] = stack[0]['children']
    if len(roots) != 1:
        raise ValueError(f'{path}: expected one root element')
    return roots[0]
