# SPDX-License-Identifier: Apache-2.0
"""Parser: loads frontend launch files (XML, YAML) into launch descriptions."""

import importlib.metadata
import os
from typing import Any, Dict, IO, List, Set, Text, Tuple, Type, Union

from .entity import Entity
from .expose import instantiate_action
from .parse_substitution import parse_if_substitutions
from .parse_substitution import parse_substitution
from .parse_substitution import replace_escaped_characters
from ..action import Action
from ..launch_description import LaunchDescription
from ..substitution import Substitution

_EXTENSION_GROUP = 'launch.frontend.launch_extension'
_PARSER_GROUP = 'launch.frontend.parser'


# a launch file: its path, or the open file (text or binary)
LaunchFileType = Union[Text, IO[Any]]


def _entry_points(group: Text) -> importlib.metadata.EntryPoints:
    return importlib.metadata.entry_points().select(group=group)


class Parser:
    """
    A frontend: ``load(file)`` gives its root Entity and the parser to read it with.

    Parser implementations (launch_xml, launch_yaml) are found through the entry point group
    'launch.frontend.parser'; modules exposing more actions and substitutions (launch_ros)
    through 'launch.frontend.launch_extension'. Subclasses set ``extensions``.
    """

    extensions: Tuple[Text, ...] = ()
    frontend_parsers: Dict[Text, Type['Parser']] = {}
    __extensions_loaded = False
    __parsers_loaded = False

    @classmethod
    def load_launch_extensions(cls) -> None:
        """Import the modules that expose actions and substitutions (once)."""
        if Parser.__extensions_loaded:
            return
        Parser.__extensions_loaded = True
        # launch's own actions have exposed themselves already: importing this module ran
        # launch/__init__, which imports launch.actions
        for entry_point in _entry_points(_EXTENSION_GROUP):
            try:
                entry_point.load()
            except Exception:   # noqa: B902 - a broken extension must not stop launch
                pass

    @classmethod
    def load_parser_implementations(cls) -> None:
        """Find the parser implementations (once)."""
        if Parser.__parsers_loaded:
            return
        Parser.__parsers_loaded = True
        for entry_point in _entry_points(_PARSER_GROUP):
            try:
                Parser.frontend_parsers[entry_point.name] = entry_point.load()
            except Exception:   # noqa: B902 - a broken frontend must not stop launch
                pass

    def parse_action(self, entity: Entity) -> Action:
        """Return the action an entity describes."""
        self.load_launch_extensions()
        return instantiate_action(entity, self)

    def parse_substitution(self, value: Text) -> List[Substitution]:
        """Parse text with ``$(...)`` substitutions."""
        self.load_launch_extensions()
        return parse_substitution(value)

    def parse_if_substitutions(self, value: Any) -> Any:
        """Return substitutions for text containing ``$(``, else the value unchanged."""
        self.load_launch_extensions()
        return parse_if_substitutions(value)

    def escape_characters(self, value: Text) -> Text:
        r"""Return the text with every escaped character (``\$``, ``\(`` ...) replaced."""
        return replace_escaped_characters(value)

    def parse_description(self, entity: Entity) -> LaunchDescription:
        """Return the launch description of a root <launch> entity."""
        if entity.type_name != 'launch':
            raise ValueError(f"{entity.describe_location()}: expected a root 'launch' tag, got "
                             f"'{entity.type_name}'")
        deprecated = entity.get_attr('deprecated', optional=True)
        actions = [self.parse_action(child) for child in entity.children]
        return LaunchDescription(actions, deprecated_reason=deprecated)

    @classmethod
    def get_available_extensions(cls) -> List[Text]:
        """Return the file extensions of the available frontends."""
        cls.load_parser_implementations()
        return [e for parser in Parser.frontend_parsers.values() for e in parser.extensions]

    @classmethod
    def get_file_extensions_from_parsers(cls) -> Set[Text]:
        """Return the launch file name endings the frontends accept ('launch.xml' ...)."""
        cls.load_parser_implementations()
        return {f'launch.{e}' for parser in Parser.frontend_parsers.values()
                for e in parser.extensions}

    @classmethod
    def is_filename_valid(cls, filename: Text) -> bool:
        """Return True if a frontend accepts the file's extension."""
        extension = os.path.splitext(filename)[1].lstrip('.')
        return extension in cls.get_available_extensions()

    @classmethod
    def get_parsers_from_filename(cls, filename: Text) -> List[Type['Parser']]:
        """Return the frontends for a file name (by extension)."""
        cls.load_parser_implementations()
        extension = os.path.splitext(filename)[1].lstrip('.')
        return [parser for parser in Parser.frontend_parsers.values()
                if extension in parser.extensions]

    @classmethod
    def load(cls, file: LaunchFileType) -> Tuple[Entity, 'Parser']:
        """Return the root entity of a launch file (a path or an open file) and a parser."""
        cls.load_parser_implementations()
        name = file if isinstance(file, str) else getattr(file, 'name', '')
        parsers = cls.get_parsers_from_filename(name) if name else []
        if parsers:
            return parsers[0].load(file)
        if isinstance(file, str):
            raise RuntimeError(f"no frontend for the launch file '{name}' (available: "
                               f"{', '.join(cls.get_available_extensions()) or 'none'})")
        # an open file without a name: every frontend in turn
        errors = []
        start = file.tell()
        for parser in Parser.frontend_parsers.values():
            file.seek(start)
            try:
                return parser.load(file)
            except Exception as e:  # noqa: B902 - the next frontend may read it
                errors.append(f'{parser.__module__}: {e}')
        raise ValueError('no frontend could read the launch file: ' + '; '.join(errors))
