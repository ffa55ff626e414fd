# SPDX-License-Identifier: Apache-2.0
"""The types accepted wherever one or more launch description entities are."""

from typing import Iterable, Union

from .launch_description_entity import LaunchDescriptionEntity

SomeEntitiesType = Union[
    LaunchDescriptionEntity,
    Iterable[LaunchDescriptionEntity],
]

SomeEntitiesType_types_tuple = (
    LaunchDescriptionEntity,
    Iterable,
)

SomeActionsType = SomeEntitiesType
SomeActionsType_types_tuple = SomeEntitiesType_types_tuple
