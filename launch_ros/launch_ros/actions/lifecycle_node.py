# SPDX-License-Identifier: Apache-2.0
"""LifecycleNode: a Node whose managed (lifecycle) states launch can follow and change."""

import asyncio
from typing import Any, Dict, List, Optional, Set, Text, Tuple, Type, Union

from launch.action import Action
from launch.actions import EmitEvent
from launch.event import Event
from launch.event_handler import BaseEventHandler, EventHandler
from launch.events import matches_action
from launch.frontend import Entity
from launch.frontend import expose_action
from launch.launch_description_entity import LaunchDescriptionEntity
import launch.logging
from launch.some_substitutions_type import SomeSubstitutionsType
from launch.utilities import normalize_to_list_of_substitutions, perform_substitutions

from .node import Node
from ..events.lifecycle import ChangeState
from ..events.lifecycle import StateTransition
from ..ros_adapters import get_ros_adapter

_TRUE = ('true', '1', 'yes', 'on')
_FALSE = ('false', '0', 'no', 'off', '')


class _ChangeStateHandler(BaseEventHandler):
    """Hands the ChangeState events that match a LifecycleNode action to it."""

    def __init__(self, action: 'LifecycleNode') -> None:
        super().__init__(matcher=lambda event: isinstance(event, ChangeState) and bool(
            event.lifecycle_node_matcher(action)))
        self.__action = action

    def handle(self, event: Event, context: Any) -> None:
        super().handle(event, context)
        assert isinstance(event, ChangeState)
        self.__action._request_transition(event.transition_id, context)
        return None

    @property
    def handler_description(self) -> Text:
        return f"call '{self.__action.node_name}/change_state'"

    @property
    def matcher_description(self) -> Text:
        return 'event == ChangeState and event.lifecycle_node_matcher(LifecycleNode)'


@expose_action('lifecycle_node')
class LifecycleNode(Node):
    """
    Runs a lifecycle (managed) ROS 2 node, as Node does, and follows its state.

    ``name`` and ``namespace`` are required (the node's services and topics are found by
    them); everything else is Node's. While the process runs, the action:

    - emits ``launch_ros.events.lifecycle.StateTransition`` for every message the node
      publishes on ``~/transition_event`` (lifecycle_msgs/msg/TransitionEvent);
    - handles ``launch_ros.events.lifecycle.ChangeState`` events whose
      ``lifecycle_node_matcher`` matches it, by calling the node's ``~/change_state``
      service (lifecycle_msgs/srv/ChangeState) asynchronously: launch's event loop never
      blocks. The call waits until the node's service is up; a transition the node refuses
      is one logged error.

    ``autostart`` (a bool or substitutions evaluating to true/false): right after starting,
    configure the node, then activate it once it is inactive.

    The ROS side is one rclpy node of the launch (``launch_ros.ros_adapters``), spun in a
    thread of its own and destroyed at the launch's shutdown.
    """

    is_lifecycle_node = True

    def __init__(self, *, name: SomeSubstitutionsType, namespace: SomeSubstitutionsType,
                 autostart: Union[bool, SomeSubstitutionsType] = False,
                 **kwargs: Any) -> None:
        """Create the action."""
        super().__init__(name=name, namespace=namespace, **kwargs)
        self.__autostart = autostart
        self.__logger = launch.logging.get_logger(__name__)
        self.__subscription: Any = None
        self.__client: Any = None
        self.__adapter: Any = None
        self.__tasks: Set['asyncio.Task[None]'] = set()

    @classmethod
    def parse(cls, entity: Entity, parser: Any, ignore: Optional[List[Text]] = None
              ) -> Tuple[Type[Action], Dict[str, Any]]:
        """Parse ``<lifecycle_node>``: the attributes of ``<node>`` and ``autostart``."""
        _, kwargs = super().parse(entity, parser, ignore)
        autostart = entity.get_attr('autostart', data_type=None, optional=True)
        if isinstance(autostart, str):
            kwargs['autostart'] = parser.parse_substitution(autostart)
        elif autostart is not None:
            kwargs['autostart'] = autostart
        return cls, kwargs

    @property
    def autostart(self) -> Union[bool, SomeSubstitutionsType]:
        """Return the autostart option, as given."""
        return self.__autostart

    def __autostart_value(self, context: Any) -> bool:
        value = self.__autostart
        if isinstance(value, bool):
            return value
        text = perform_substitutions(context, normalize_to_list_of_substitutions(value))
        if text.strip().lower() in _TRUE:
            return True
        if text.strip().lower() in _FALSE:
            return False
        raise ValueError(f"LifecycleNode '{self.node_name}': autostart must be true or false, "
                         f"got '{text}'")

    def execute(self, context: Any) -> Optional[List[LaunchDescriptionEntity]]:
        """Start the process, follow its transitions and handle ChangeState events."""
        self._perform_substitutions(context)
        autostart = self.__autostart_value(context)
        if context.is_shutdown:
            return super().execute(context)
        import lifecycle_msgs.msg
        import lifecycle_msgs.srv
        self.__adapter = get_ros_adapter(context)
        ros_node = self.__adapter.ros_node
        loop = context.asyncio_loop
        name = self.node_name

        def on_transition_event(msg: Any) -> None:     # in the adapter's thread
            try:
                loop.call_soon_threadsafe(self.__emit_state_transition, context, msg)
            except RuntimeError:    # the launch's loop is closed: nobody listens any more
                pass

        self.__subscription = ros_node.create_subscription(
            lifecycle_msgs.msg.TransitionEvent, f'{name}/transition_event',
            on_transition_event, 10)
        self.__client = ros_node.create_client(lifecycle_msgs.srv.ChangeState,
                                               f'{name}/change_state')
        context.register_event_handler(_ChangeStateHandler(self))
        result = super().execute(context)
        if not autostart:
            return result
        # OnStateTransition's test, written here: that module imports this one
        activate = EventHandler(
            matcher=lambda event: isinstance(event, StateTransition) and event.action is self
            and event.start_state == 'configuring' and event.goal_state == 'inactive',
            entities=[EmitEvent(event=ChangeState(
                lifecycle_node_matcher=matches_action(self),
                transition_id=lifecycle_msgs.msg.Transition.TRANSITION_ACTIVATE))],
            handle_once=True)
        context.register_event_handler(activate)
        return list(result or []) + [EmitEvent(event=ChangeState(
            lifecycle_node_matcher=matches_action(self),
            transition_id=lifecycle_msgs.msg.Transition.TRANSITION_CONFIGURE))]

    def __emit_state_transition(self, context: Any, msg: Any) -> None:
        event = StateTransition(action=self, msg=msg)
        self.__logger.debug(f"LifecycleNode '{self.node_name}': {event.start_state} -> "
                            f'{event.goal_state} ({event.transition})')
        context.emit_event_sync(event)

    def _request_transition(self, transition_id: int, context: Any) -> None:
        """Call the node's ``~/change_state`` for ``transition_id``, in a task of the loop."""
        label = ChangeState.valid_transitions.get(transition_id, str(transition_id))
        if self.__client is None or context.is_shutdown:
            log = self.__logger.debug if context.is_shutdown else self.__logger.warning
            log(f"LifecycleNode '{self.node_name}': transition '{label}' not requested: the "
                'node is not running')
            return
        task = context.asyncio_loop.create_task(self.__change_state(transition_id, label,
                                                                    context))
        self.__tasks.add(task)
        task.add_done_callback(self.__tasks.discard)
        context.add_completion_future(task)

    async def __change_state(self, transition_id: int, label: Text, context: Any) -> None:
        import lifecycle_msgs.srv
        name = self.node_name
        exited = self.get_asyncio_future()
        ros_node = self.__adapter.ros_node
        topic = f'{name}/transition_event'

        def not_running(stage: Text) -> None:
            message = (f"LifecycleNode '{name}': transition '{label}' {stage}: the node's "
                       'process has exited')
            if context.is_shutdown:
                self.__logger.debug(message)
            else:
                self.__logger.warning(message)

        if exited is None:
            not_running('not requested')
            return
        try:
            # the node's service, and its transition events, before the request
            while not (self.__client.service_is_ready()
                       and ros_node.count_publishers(topic) > 0):
                if exited.done():
                    not_running('not requested')
                    return
                await asyncio.sleep(0.05)
            request = lifecycle_msgs.srv.ChangeState.Request()
            request.transition.id = transition_id
            loop = context.asyncio_loop
            answered: 'asyncio.Future[None]' = loop.create_future()

            def set_answered() -> None:
                if not answered.done():
                    answered.set_result(None)

            def on_response(_: Any) -> None:   # in the adapter's thread, or here
                try:
                    loop.call_soon_threadsafe(set_answered)
                except RuntimeError:
                    pass

            ros_future = self.__client.call_async(request)
            ros_future.add_done_callback(on_response)
            await asyncio.wait([answered, exited], return_when=asyncio.FIRST_COMPLETED)
            if not answered.done():
                ros_future.cancel()
                not_running('got no answer')
                return
            response = ros_future.result()
            if response is None or not response.success:
                self.__logger.error(f"Failed to make transition '{label}' for LifecycleNode "
                                    f"'{name}': its change_state service answered success=false")
        except asyncio.CancelledError:
            raise
        except Exception as e:      # noqa: B902 - one line, never a traceback in the loop
            self.__logger.error(f"LifecycleNode '{name}': transition '{label}' failed: "
                                f'{type(e).__name__}: {e}')
