# SPDX-License-Identifier: Apache-2.0
"""normalize_to_list_of_entities: one list of entities from an iterable of some entities."""

from typing import Iterable, List

from ..launch_description_entity import LaunchDescriptionEntity
from ..some_entities_type import SomeEntitiesType


def normalize_to_list_of_entities(
    entities: Iterable[SomeEntitiesType]
) -> List[LaunchDescriptionEntity]:
    """Flatten an iterable of entities and lists of entities into one list."""
    flattened: List[LaunchDescriptionEntity] = []
    for entity in entities:
        if isinstance(entity, LaunchDescriptionEntity):
            flattened.append(entity)
        else:
            flattened.extend(normalize_to_list_of_entities(entity))
    return flattened
