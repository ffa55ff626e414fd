# SPDX-License-Identifier: Apache-2.0
"""The attribute reading both frontends share: types, lists, children, unread attributes."""

from typing import Any, Dict, List, Optional, Sequence, Set, Text

from .entity import Entity
from .type_utils import coerce_scalar, is_list_type, list_item_type


class MappingEntity(Entity):
    """
    An entity whose attributes are a mapping and whose children are entities.

    Frontends give ``_attributes`` (name -> value), ``_children`` (entities in order),
    ``_location`` (file and line) and, for list attributes, ``_list_value(name)``.
    """

    def __init__(self, type_name: Text, attributes: Dict[Text, Any],
                 children: Sequence['MappingEntity'], location: Text,
                 parent: Optional['MappingEntity'] = None) -> None:
        """Create the entity."""
        self._type_name = type_name
        self._attributes = attributes
        self._children = children
        self._location = location
        self._parent = parent
        self._read: Set[Text] = set()
        for child in children:
            child._parent = self

    @property
    def type_name(self) -> Text:
        """Return the tag."""
        return self._type_name

    @property
    def parent(self) -> Optional[Entity]:
        """Return the parent."""
        return self._parent

    @property
    def children(self) -> List[Entity]:
        """Return the child entities, marked as read."""
        self._read.add('<children>')
        return list(self._children)

    def describe_location(self) -> Text:
        """Return '<file>:<line>: <tag>'."""
        return f'{self._location}: <{self._type_name}>'

    def _list_value(self, name: Text, value: Any) -> Optional[List[Any]]:
        return value if isinstance(value, list) else None

    def get_attr(self, name: Text, *, data_type: Any = str, optional: bool = False,
                 can_be_str: bool = True) -> Any:
        """Return the attribute ``name`` (see launch.frontend.Entity)."""
        if is_list_type(data_type) and list_item_type(data_type) is Entity:
            matching = [c for c in self._children if c.type_name == name]
            if not matching:
                if optional:
                    return None
                raise AttributeError(f'{self.describe_location()}: expected at least one '
                                     f'<{name}> in it')
            for child in matching:
                child._read.add('<as-attribute>')
            return matching
        if name not in self._attributes:
            if optional:
                return None
            raise AttributeError(f"{self.describe_location()}: attribute '{name}' is required")
        self._read.add(name)
        value = self._attributes[name]
        if is_list_type(data_type):
            items = self._list_value(name, value)
            if items is None:
                if can_be_str and isinstance(value, str):
                    return value
                raise ValueError(f"{self.describe_location()}: attribute '{name}' must be a "
                                 'list')
            item_type = list_item_type(data_type)
            return [coerce_scalar(v, item_type, name, self.describe_location())
                    for v in items]
        if data_type is None:
            items = self._list_value(name, value)
            if items is not None:
                return [coerce_scalar(v, None, name, self.describe_location()) for v in items]
        if isinstance(value, str) and data_type not in (str, None) and can_be_str \
                and '$(' in value:
            return value
        return coerce_scalar(value, data_type, name, self.describe_location())

    def assert_entity_completely_parsed(self) -> None:
        """Raise ValueError for attributes nothing read (a typo in the launch file)."""
        unread = [k for k in self._attributes if k not in self._read]
        if '<children>' not in self._read:
            unread += [f'<{c.type_name}>' for c in self._children
                       if '<as-attribute>' not in c._read]
        if unread:
            raise ValueError(f'{self.describe_location()}: unexpected attribute(s) or '
                             f"child(ren) in `{self._type_name}`: {', '.join(unread)}")
