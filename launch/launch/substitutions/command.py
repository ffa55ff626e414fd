# SPDX-License-Identifier: Apache-2.0
"""Command: the standard output of a command run at launch time."""

import shlex
import subprocess
from typing import Any, Dict, List, Sequence, Text, Tuple, Type, TYPE_CHECKING

import launch.logging

from .frontend_arguments import positional_arguments
from .substitution_failure import SubstitutionFailure
from ..frontend.expose import expose_substitution
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution

if TYPE_CHECKING:
    from ..launch_context import LaunchContext

_ON_STDERR = ('fail', 'ignore', 'warn', 'capture')


@expose_substitution('command')
class Command(Substitution):
    """
    Runs a command (split like a shell would) and substitutes its standard output.

    A non-zero exit fails; output on stderr fails (``on_stderr='fail'``, the default), is
    ignored ('ignore'), logged as a warning ('warn') or appended to the result ('capture').
    """

    def __init__(self, command: SomeSubstitutionsType, *,
                 on_stderr: SomeSubstitutionsType = 'fail') -> None:
        """Create the substitution."""
        from ..utilities.normalize_to_list_of_substitutions_impl import (
            normalize_to_list_of_substitutions)
        super().__init__()
        self.__command = normalize_to_list_of_substitutions(command)
        self.__on_stderr = normalize_to_list_of_substitutions(on_stderr)

    @classmethod
    def parse(
        cls, data: Sequence[SomeSubstitutionsType]
    ) -> Tuple[Type['Substitution'], Dict[str, Any]]:
        """Parse the arguments of the substitution in a frontend file."""
        return cls, positional_arguments(cls, data, ('command', 'on_stderr'), required=1)

    @property
    def command(self) -> List[Substitution]:
        """Getter for command."""
        return self.__command

    @property
    def on_stderr(self) -> List[Substitution]:
        """Getter for on_stderr."""
        return self.__on_stderr

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return 'Command({})'.format(' + '.join(s.describe() for s in self.__command))

    def perform(self, context: 'LaunchContext') -> Text:
        """Run the command and return its output."""
        from ..utilities.perform_substitutions_impl import perform_substitutions
        command_str = perform_substitutions(context, self.__command)
        on_stderr = perform_substitutions(context, self.__on_stderr)
        if on_stderr not in _ON_STDERR:
            raise SubstitutionFailure(
                f"expected 'on_stderr' to be one of [{', '.join(_ON_STDERR)}], "
                f"got '{on_stderr}'")
        try:
            result = subprocess.run(shlex.split(command_str), capture_output=True, text=True,
                                    env=dict(context.environment))
        except FileNotFoundError as e:
            raise SubstitutionFailure(f'file not found: {e}') from None
        if result.returncode != 0:
            message = f'executed command failed. Command: {command_str}'
            if result.stderr:
                message += f'\nCaptured stderr output: {result.stderr}'
            raise SubstitutionFailure(message)
        if result.stderr:
            if on_stderr == 'fail':
                raise SubstitutionFailure(
                    'executed command showed stderr output. '
                    f'Command: {command_str}\nCaptured stderr output:\n{result.stderr}')
            if on_stderr == 'warn':
                launch.logging.get_logger().warning(
                    f'Executed command showed stderr output. Command: {command_str}\n'
                    f'Captured stderr output:\n{result.stderr}')
            elif on_stderr == 'capture':
                return result.stdout + result.stderr
        return result.stdout
