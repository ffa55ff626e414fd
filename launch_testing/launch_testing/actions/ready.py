# SPDX-License-Identifier: Apache-2.0
"""ReadyToTest: the launch is ready, the active tests may start."""

from typing import Any, Callable, Dict, List, Tuple, Type, TYPE_CHECKING

from launch.action import Action
from launch.frontend import expose_action

if TYPE_CHECKING:
    from launch.frontend.entity import Entity
    from launch.frontend.parser import Parser
    from launch.launch_context import LaunchContext


@expose_action('ready_to_test')
class ReadyToTest(Action):
    """When executed, tells the launch test runner to start the active tests."""

    def __init__(self, **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__callbacks: List[Callable[[], None]] = []

    @classmethod
    def parse(cls, entity: 'Entity', parser: 'Parser') -> Tuple[Type['Action'], Dict[str, Any]]:
        """Parse ``<ready_to_test/>``."""
        _, kwargs = super().parse(entity, parser)
        return cls, kwargs

    def _add_callback(self, callback: Callable[[], None]) -> None:
        self.__callbacks.append(callback)

    def execute(self, context: 'LaunchContext') -> None:
        """Notify the runner."""
        for callback in self.__callbacks:
            callback()
        return None
