# SPDX-License-Identifier: Apache-2.0
"""Entity: one element of a frontend launch file (an XML element, a YAML mapping)."""

from typing import Any, List, Optional, Text


class Entity:
    """
    An element of a launch file, as the frontends give it to the parse methods.

    ``get_attr(name, data_type=str, optional=False, can_be_str=True)`` reads an attribute:
    ``data_type`` str, int, float, bool, a ``List[...]`` of those, ``List[Entity]`` (child
    elements of that name) or None (the value's own YAML type). A missing attribute raises
    AttributeError unless ``optional``.
    """

    @property
    def type_name(self) -> Text:
        """Return the name of the element (the tag)."""
        raise NotImplementedError()

    @property
    def parent(self) -> Optional['Entity']:
        """Return the parent element, None for the root."""
        raise NotImplementedError()

    @property
    def children(self) -> List['Entity']:
        """Return the child elements."""
        raise NotImplementedError()

    def get_attr(self, name: Text, *, data_type: Any = str, optional: bool = False,
                 can_be_str: bool = True) -> Any:
        """Return the attribute ``name`` (see the class docstring)."""
        raise NotImplementedError()

    def assert_entity_completely_parsed(self) -> None:
        """Raise ValueError naming attributes or children nothing read (a typo)."""
        raise NotImplementedError()

    def describe_location(self) -> Text:
        """Return where the element is ('<file>:<line>: <tag>') for error messages."""
        return f'<{self.type_name}>'
