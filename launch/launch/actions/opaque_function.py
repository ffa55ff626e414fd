# SPDX-License-Identifier: Apache-2.0
"""OpaqueFunction: call a Python function when executed."""

from typing import Any, Callable, Dict, Iterable, List, Optional, Text, TYPE_CHECKING

from ..action import Action
from ..launch_description_entity import LaunchDescriptionEntity

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


class OpaqueFunction(Action):
    """
    Calls ``function(context, *args, **kwargs)`` when executed.

    The function may return launch description entities, which are visited next.
    """

    def __init__(self, *, function: Callable[..., Optional[List[LaunchDescriptionEntity]]],
                 args: Optional[Iterable[Any]] = None,
                 kwargs: Optional[Dict[Text, Any]] = None, **left_over_kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**left_over_kwargs)
        if not callable(function):
            raise TypeError("OpaqueFunction expected a callable for 'function', got "
                            f"'{type(function)}'")
        self.__function = function
        self.__args = list(args) if args is not None else []
        self.__kwargs = dict(kwargs) if kwargs is not None else {}

    @property
    def function(self) -> Callable[..., Optional[List[LaunchDescriptionEntity]]]:
        """Getter for function."""
        return self.__function

    def execute(self, context: 'LaunchContext') -> Optional[List[LaunchDescriptionEntity]]:
        """Call the function."""
        return self.__function(context, *self.__args, **self.__kwargs)
