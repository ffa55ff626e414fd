# SPDX-License-Identifier: Apache-2.0
"""LogInfo: log a message."""

from typing import Any, Dict, List, Tuple, Type, TYPE_CHECKING

import launch.logging

from ..action import Action
from ..frontend.expose import expose_action
from ..some_substitutions_type import SomeSubstitutionsType
from ..substitution import Substitution
from ..utilities import normalize_to_list_of_substitutions, perform_substitutions

if TYPE_CHECKING:
    from ..frontend.entity import Entity
    from ..frontend.parser import Parser
    from ..launch_context import LaunchContext


@expose_action('log')
class LogInfo(Action):
    """Logs ``msg`` (substitutions) at INFO level (logger 'launch.user')."""

    def __init__(self, *, msg: SomeSubstitutionsType, **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__msg = normalize_to_list_of_substitutions(msg)
        self.__logger = launch.logging.get_logger('launch.user')

    @classmethod
    def parse(cls, entity: 'Entity', parser: 'Parser') -> Tuple[Type['Action'], Dict[str, Any]]:
        """Parse ``<log message/>``."""
        _, kwargs = super().parse(entity, parser)
        kwargs['msg'] = parser.parse_substitution(entity.get_attr('message'))
        return cls, kwargs

    @property
    def msg(self) -> List[Substitution]:
        """Getter for self.__msg."""
        return self.__msg

    def execute(self, context: 'LaunchContext') -> None:
        """Log the message."""
        self.__logger.info(perform_substitutions(context, self.__msg))
        return None
