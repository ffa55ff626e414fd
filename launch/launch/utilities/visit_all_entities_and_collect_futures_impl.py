# SPDX-License-Identifier: Apache-2.0
"""visit_all_entities_and_collect_futures: visit an entity tree depth first."""

import asyncio
from typing import Any, List, Tuple, TYPE_CHECKING

from ..launch_description_entity import LaunchDescriptionEntity

if TYPE_CHECKING:
    from ..launch_context import LaunchContext


def visit_all_entities_and_collect_futures(
    entity: LaunchDescriptionEntity, context: 'LaunchContext'
) -> List[Tuple[LaunchDescriptionEntity, 'asyncio.Future[Any]']]:
    """
    Visit ``entity`` and, recursively, the entities its visit returns.

    Each sub-entity is visited with its own copy of the locals. Returns the
    (entity, future) pairs of the entities that have ongoing work.
    """
    pairs: List[Tuple[LaunchDescriptionEntity, 'asyncio.Future[Any]']] = []
    sub_entities = entity.visit(context)
    future = entity.get_asyncio_future()
    if future is not None:
        pairs.append((entity, future))
    for sub_entity in sub_entities or []:
        context._push_locals()
        try:
            pairs.extend(visit_all_entities_and_collect_futures(sub_entity, context))
        finally:
            context._pop_locals()
    return pairs
