# SPDX-License-Identifier: Apache-2.0
"""ReadyToTest: the launch is ready, the active tests may start."""

from typing import Callable, List

from launch.action import Action
from launch.frontend import expose_action


@expose_action('ready_to_test')
class ReadyToTest(Action):
    """When executed, tells the launch test runner to start the active tests."""

    def __init__(self, **kwargs) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__callbacks: List[Callable[[], None]] = []

    @classmethod
    def parse(cls, entity, parser):
        """Parse ``<ready_to_test/>``."""
        _, kwargs = super().parse(entity, parser)
        return cls, kwargs

    def _add_callback(self, callback: Callable[[], None]) -> None:
        self.__callbacks.append(callback)

    def execute(self, context) -> None:
        """Notify the runner."""
        for callback in self.__callbacks:
            callback()
        return None
