# SPDX-License-Identifier: Apache-2.0
"""ExecuteProcess: run a command line as a process."""

from typing import Any, Dict, Iterable, List, Optional, Text, Tuple, Type, TYPE_CHECKING

from .execute_local import ExecuteLocal
from ..action import Action
from ..descriptions import Executable
from ..frontend.entity import Entity
from ..frontend.expose import expose_action
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution

if TYPE_CHECKING:
    from ..frontend.parser import Parser


@expose_action('executable')
class ExecuteProcess(ExecuteLocal):
    """
    Runs ``cmd`` (a list; each item text, a substitution or a list of them).

    ``name`` (default: the executable's file name) names the process ``<name>-N`` in the
    output; ``cwd``, ``env`` (replaces the environment), ``additional_env`` (adds to it),
    ``prefix`` (default the 'launch-prefix' configuration). Everything else as ExecuteLocal:
    ``output``, ``shell``, ``sigterm_timeout``, ``sigkill_timeout``, ``emulate_tty``,
    ``on_exit``, ``respawn``, ``respawn_delay``, ``respawn_max_retries``, ``cached_output``.
    """

    def __init__(self, *, cmd: Iterable[SomeSubstitutionsType],
                 prefix: Optional[SomeSubstitutionsType] = None,
                 name: Optional[SomeSubstitutionsType] = None,
                 cwd: Optional[SomeSubstitutionsType] = None,
                 env: Optional[Dict[SomeSubstitutionsType, SomeSubstitutionsType]] = None,
                 additional_env: Optional[Dict[SomeSubstitutionsType,
                                               SomeSubstitutionsType]] = None,
                 **kwargs: Any) -> None:
        """Create the action."""
        executable = Executable(cmd=cmd, prefix=prefix, name=name, cwd=cwd, env=env,
                                additional_env=additional_env)
        super().__init__(process_description=executable, **kwargs)

    @staticmethod
    def _parse_cmdline(cmd: Text, parser: 'Parser') -> List[List[Substitution]]:
        """Split a command line with substitutions into arguments at white space."""
        from ..substitutions import TextSubstitution
        arguments: List[List[Substitution]] = []
        current: List[Substitution] = []
        for sub in parser.parse_substitution(cmd):
            if not isinstance(sub, TextSubstitution):
                current.append(sub)
                continue
            pieces = sub.text.split()
            if sub.text[:1].isspace() and current:
                arguments.append(current)
                current = []
            for i, piece in enumerate(pieces):
                if i > 0 and current:
                    arguments.append(current)
                    current = []
                current.append(TextSubstitution(text=piece))
            if sub.text[-1:].isspace() and current:
                arguments.append(current)
                current = []
        if current:
            arguments.append(current)
        return arguments

    @classmethod
    def parse(
        cls, entity: 'Entity', parser: 'Parser', ignore: Optional[List[Text]] = None
    ) -> Tuple[Type['Action'], Dict[str, Any]]:
        """Parse ``<executable cmd cwd name launch-prefix output ...><env/></executable>``."""
        from .shutdown_action import Shutdown
        ignore = ignore or []
        _, kwargs = Action.parse(entity, parser)
        if 'cmd' not in ignore:
            kwargs['cmd'] = cls._parse_cmdline(entity.get_attr('cmd'), parser)
        for attr, key in (('cwd', 'cwd'), ('name', 'name'), ('launch-prefix', 'prefix'),
                          ('output', 'output'), ('respawn', 'respawn')):
            value = entity.get_attr(attr, optional=True)
            if value is not None and attr not in ignore:
                kwargs[key] = parser.parse_substitution(str(value))
        on_exit = entity.get_attr('on_exit', optional=True)
        if on_exit is not None:
            if on_exit != 'shutdown':
                raise ValueError(f'{entity.describe_location()}: on_exit can only be '
                                 f"'shutdown', got '{on_exit}'")
            kwargs['on_exit'] = [Shutdown()]
        for attr, data_type in (('respawn_delay', float), ('respawn_max_retries', int),
                                ('shell', bool), ('emulate_tty', bool)):
            value = entity.get_attr(attr, data_type=data_type, optional=True)
            if value is not None:
                kwargs[attr] = value
        for attr in ('sigterm_timeout', 'sigkill_timeout'):
            value = entity.get_attr(attr, data_type=float, optional=True)
            if value is not None:
                kwargs[attr] = str(value)
        env = entity.get_attr('env', data_type=List[Entity], optional=True)
        if env is not None:
            kwargs['additional_env'] = {
                tuple(parser.parse_substitution(e.get_attr('name'))):
                parser.parse_substitution(e.get_attr('value')) for e in env}
        return cls, kwargs

    @property
    def cmd(self) -> List[List[Substitution]]:
        """Getter for cmd."""
        return self.process_description.cmd

    @property
    def name(self) -> Optional[List[Substitution]]:
        """Getter for name."""
        return self.process_description.name

    @property
    def cwd(self) -> Optional[List[Substitution]]:
        """Getter for cwd."""
        return self.process_description.cwd

    @property
    def env(self) -> Optional[List[Tuple[List[Substitution], List[Substitution]]]]:
        """Getter for env."""
        return self.process_description.env

    @property
    def additional_env(self) -> Optional[List[Tuple[List[Substitution], List[Substitution]]]]:
        """Getter for additional_env."""
        return self.process_description.additional_env

    def describe(self) -> Text:
        """Return the command line, described."""
        return 'ExecuteProcess(cmd=[{}])'.format(', '.join(
            ' + '.join(s.describe() for s in part) for part in self.cmd))
