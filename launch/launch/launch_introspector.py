# SPDX-License-Identifier: Apache-2.0
"""LaunchIntrospector: a text tree of a launch description (``ros2 launch --print``)."""

from typing import cast, List, Text

from .action import Action
from .actions import ExecuteLocal
from .actions import RegisterEventHandler
from .launch_description import LaunchDescription
from .launch_description_entity import LaunchDescriptionEntity
from .substitution import Substitution


def _indent(lines: List[Text], first: Text, rest: Text) -> List[Text]:
    return [(first if i == 0 else rest) + line for i, line in enumerate(lines)]


def _tree(children: List[List[Text]]) -> List[Text]:
    out: List[Text] = []
    for i, child in enumerate(children):
        last = i == len(children) - 1
        out.extend(_indent(child, '└── ' if last else '├── ', '    ' if last else '│   '))
    return out


def format_substitutions(substitutions: List[Substitution]) -> Text:
    """Return substitutions as 'a' + LaunchConfig('b') ..."""
    return ' + '.join(s.describe() for s in substitutions)


def _format_entity(entity: LaunchDescriptionEntity) -> List[Text]:
    if isinstance(entity, LaunchDescription):
        return _format_launch_description(entity)
    if isinstance(entity, ExecuteLocal):
        details = entity.process_description
        cmd = ' '.join(format_substitutions(part) for part in details.cmd)
        lines = [f'ExecuteProcess(cmd=[{cmd}], cwd=..., env=..., shell={entity.shell})']
        return lines
    if isinstance(entity, RegisterEventHandler):
        text, entities = entity.event_handler.describe()
        # the handlers describe their entities one by one (a list of entities)
        return [f"{type(entity).__name__}('{text}')"] + _tree(
            [_format_entity(cast(LaunchDescriptionEntity, e)) for e in entities])
    children = [_format_entity(e) for e in entity.describe_sub_entities()]
    for reason, sub_entities in entity.describe_conditional_sub_entities():
        children.append([reason] + _tree([_format_entity(e) for e in sub_entities]))
    if isinstance(entity, Action):
        head = entity.describe()
    else:
        head = f'{type(entity).__name__}'
    return [head] + _tree(children)


def _format_launch_description(launch_description: LaunchDescription) -> List[Text]:
    return ['<launch.launch_description.LaunchDescription object at '
            f'{hex(id(launch_description))}>'] + _tree(
        [_format_entity(e) for e in launch_description.entities])


class LaunchIntrospector:
    """Formats launch descriptions as text."""

    def format_launch_description(self, launch_description: LaunchDescription) -> Text:
        """Return the description as an indented tree."""
        return '\n'.join(_format_launch_description(launch_description))
