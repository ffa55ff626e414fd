# SPDX-License-Identifier: Apache-2.0
"""PushROSNamespace: put the nodes that follow into a namespace."""

from typing import Any, Dict, List, Tuple, Type

from launch.action import Action
from launch.frontend import expose_action
from launch.some_substitutions_type import SomeSubstitutionsType
from launch.substitution import Substitution
from launch.utilities import normalize_to_list_of_substitutions, perform_substitutions

from ..utilities import make_namespace_absolute, prefix_namespace, validate_namespace


@expose_action('push_ros_namespace')
@expose_action('push-ros-namespace')
class PushROSNamespace(Action):
    """
    Pushes ``namespace`` onto the namespace of the Nodes that follow (in its scope).

    A relative namespace goes inside the one pushed before; an absolute one replaces it.
    Scope it with a GroupAction.
    """

    def __init__(self, namespace: SomeSubstitutionsType, **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(**kwargs)
        self.__namespace = normalize_to_list_of_substitutions(namespace)

    @classmethod
    def parse(cls, entity: Any, parser: Any) -> Tuple[Type[Action], Dict[str, Any]]:
        """Parse ``<push-ros-namespace namespace/>``."""
        _, kwargs = super().parse(entity, parser)
        kwargs['namespace'] = parser.parse_substitution(entity.get_attr('namespace'))
        return cls, kwargs

    @property
    def namespace(self) -> List[Substitution]:
        """Getter for self.__namespace."""
        return self.__namespace

    def execute(self, context: Any) -> None:
        """Push the namespace (the launch configuration 'ros_namespace')."""
        pushed = perform_substitutions(context, self.__namespace)
        previous = context.launch_configurations.get('ros_namespace', None)
        namespace = make_namespace_absolute(prefix_namespace(previous, pushed))
        if namespace is not None and namespace != '/':
            namespace = namespace.rstrip('/')
        assert namespace is not None     # a pushed namespace is never None
        validate_namespace(namespace)
        context.launch_configurations['ros_namespace'] = namespace
        return None


PushRosNamespace = PushROSNamespace
