# SPDX-License-Identifier: Apache-2.0
"""The LaunchDescriptionEntity class: anything a LaunchDescription may hold."""

import asyncio
from typing import Any, ClassVar, Iterable, List, Optional, Text, Tuple, TYPE_CHECKING

if TYPE_CHECKING:
    from .launch_context import LaunchContext


class LaunchDescriptionEntity:
    """
    Base of everything a launch description holds (actions, launch descriptions, ...).

    Visiting an entity (``visit``) may return more entities to visit; an entity with
    ongoing work returns a future from ``get_asyncio_future`` which launch waits on.
    """

    #: True for an entity that includes another launch description (IncludeLaunchDescription):
    #: LaunchDescription's launch-argument walk nests the arguments it finds inside under it,
    #: and knows it by this, not by importing the action (which imports LaunchDescription).
    includes_launch_description: ClassVar[bool] = False

    def describe(self) -> Text:
        """Return a text description of the entity (NotImplementedError: subclasses do)."""
        raise NotImplementedError(
            f"describe() not implemented for '{self.__class__.__name__}'")

    def describe_sub_entities(self) -> List['LaunchDescriptionEntity']:
        """Return the sub-entities used in every case (for introspection)."""
        return []

    def describe_conditional_sub_entities(
        self
    ) -> List[Tuple[Text, Iterable['LaunchDescriptionEntity']]]:
        """Return the sub-entities used only in some cases, as (reason, entities) pairs."""
        return []

    def visit(self, context: 'LaunchContext') -> Optional[List['LaunchDescriptionEntity']]:
        """Visit the entity; returns entities to visit next, or None (the default)."""
        return None

    def get_asyncio_future(self) -> Optional['asyncio.Future[Any]']:
        """Return a future that is done when the entity's work is done, or None."""
        return None
