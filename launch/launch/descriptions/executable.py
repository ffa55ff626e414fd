# SPDX-License-Identifier: Apache-2.0
"""Executable: the command line, name, cwd and environment of a process to run."""

import os
import re
import shlex
import threading
from typing import Dict, Iterable, List, Optional, Text, Tuple, TYPE_CHECKING

from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution
from ..substitutions import LaunchConfiguration
from ..utilities import normalize_to_list_of_substitutions, perform_substitutions

if TYPE_CHECKING:
    from ..action import Action
    from ..launch_context import LaunchContext

_counter_lock = threading.Lock()
_counter = 0


def _next_number() -> int:
    global _counter
    with _counter_lock:
        _counter += 1
        return _counter


class Executable:
    """
    A process to run: ``cmd`` (a list whose items are substitutions), ``name``, ``cwd``.

    ``env`` replaces the environment, ``additional_env`` adds to it. ``prefix`` (default
    the launch configuration 'launch-prefix') goes before the command, split like a
    shell would, for executables matching 'launch-prefix-filter' (a regex) if set.
    ``prepare`` performs everything and gives the process its unique name ``<name>-N``.
    """

    def __init__(self, *, cmd: Iterable[SomeSubstitutionsType],
                 prefix: Optional[SomeSubstitutionsType] = None,
                 name: Optional[SomeSubstitutionsType] = None,
                 cwd: Optional[SomeSubstitutionsType] = None,
                 env: Optional[Dict[SomeSubstitutionsType, SomeSubstitutionsType]] = None,
                 additional_env: Optional[Dict[SomeSubstitutionsType,
                                               SomeSubstitutionsType]] = None,
                 arguments: Optional[Iterable[SomeSubstitutionsType]] = None) -> None:
        """Create the description."""
        self.__cmd: List[List[Substitution]] = [
            normalize_to_list_of_substitutions(part) for part in cmd]
        if arguments is not None:
            self.__cmd += [normalize_to_list_of_substitutions(a) for a in arguments]
        self.__prefix = normalize_to_list_of_substitutions(
            LaunchConfiguration('launch-prefix', default='') if prefix is None else prefix)
        self.__prefix_filter = normalize_to_list_of_substitutions(
            LaunchConfiguration('launch-prefix-filter', default='')) if prefix is None else None
        self.__name = None if name is None else normalize_to_list_of_substitutions(name)
        self.__cwd = None if cwd is None else normalize_to_list_of_substitutions(cwd)
        self.__env: Optional[List[Tuple[List[Substitution], List[Substitution]]]] = None
        if env is not None:
            self.__env = [(normalize_to_list_of_substitutions(k),
                           normalize_to_list_of_substitutions(v)) for k, v in env.items()]
        self.__additional_env: Optional[List[Tuple[List[Substitution],
                                                   List[Substitution]]]] = None
        if additional_env is not None:
            self.__additional_env = [(normalize_to_list_of_substitutions(k),
                                      normalize_to_list_of_substitutions(v))
                                     for k, v in additional_env.items()]
        self.__final_cmd: Optional[List[Text]] = None
        self.__final_name: Optional[Text] = None
        self.__final_cwd: Optional[Text] = None
        self.__final_env: Optional[Dict[Text, Text]] = None

    @property
    def name(self) -> Optional[List[Substitution]]:
        """Getter for name."""
        return self.__name

    @property
    def cmd(self) -> List[List[Substitution]]:
        """Return the command line (a list; launch_ros extends it)."""
        return self.__cmd

    @property
    def prefix(self) -> List[Substitution]:
        """Getter for prefix."""
        return self.__prefix

    @property
    def cwd(self) -> Optional[List[Substitution]]:
        """Getter for cwd."""
        return self.__cwd

    @property
    def env(self) -> Optional[List[Tuple[List[Substitution], List[Substitution]]]]:
        """Getter for env."""
        return self.__env

    @property
    def additional_env(self) -> Optional[List[Tuple[List[Substitution], List[Substitution]]]]:
        """Getter for additional_env."""
        return self.__additional_env

    @property
    def final_name(self) -> Optional[Text]:
        """Return the unique name of the process (``name-N``), after prepare."""
        return self.__final_name

    @property
    def final_cmd(self) -> Optional[List[Text]]:
        """Return the performed command line, after prepare."""
        return self.__final_cmd

    @property
    def final_cwd(self) -> Optional[Text]:
        """Return the performed cwd, after prepare."""
        return self.__final_cwd

    @property
    def final_env(self) -> Optional[Dict[Text, Text]]:
        """Return the process's environment, after prepare."""
        return self.__final_env

    def prepare(self, context: 'LaunchContext', action: Optional['Action'] = None) -> None:
        """Perform the substitutions and name the process."""
        cmd = [perform_substitutions(context, part) for part in self.__cmd]
        if not cmd or not cmd[0]:
            raise RuntimeError('empty command: nothing to execute')
        base = os.path.basename(cmd[0]) if self.__name is None \
            else perform_substitutions(context, self.__name)
        prefix = perform_substitutions(context, self.__prefix)
        if prefix.strip():
            wanted = True
            if self.__prefix_filter is not None:
                pattern = perform_substitutions(context, self.__prefix_filter)
                wanted = not pattern or re.match(pattern, os.path.basename(cmd[0])) is not None
            if wanted:
                cmd = shlex.split(prefix) + cmd
        self.__final_cmd = cmd
        self.__final_name = f'{base}-{_next_number()}'
        self.__final_cwd = None if self.__cwd is None \
            else perform_substitutions(context, self.__cwd)
        if self.__env is not None:
            env = {perform_substitutions(context, k): perform_substitutions(context, v)
                   for k, v in self.__env}
        else:
            env = dict(context.environment)
        for k, v in self.__additional_env or []:
            env[perform_substitutions(context, k)] = perform_substitutions(context, v)
        self.__final_env = env
