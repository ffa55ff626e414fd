# SPDX-License-Identifier: Apache-2.0
"""WaitForTopics: wait until messages arrived on every one of a list of topics."""

import threading
from types import TracebackType
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple, Type
import weakref

import rclpy
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
from rclpy.qos import HistoryPolicy, QoSProfile, ReliabilityPolicy


def _stop_spinning(context: Any, thread: threading.Thread) -> None:
    if context.ok():
        context.try_shutdown()
    thread.join(5)


class WaitForTopics:
    """
    Subscribes to ``topic_tuples`` [(name, type)] in a context of its own and waits.

    ``wait()`` returns True once a message arrived on every topic, False after ``timeout``
    seconds. ``topics_received()``, ``topics_not_received()``, ``received_messages(topic)``
    (the last ``messages_received_buffer_length``). As a context manager it waits on entry
    (RuntimeError naming the missing topics) and shuts down on exit. The subscriptions are
    best effort, which receives from reliable and best-effort publishers alike.
    """

    def __init__(self, topic_tuples: Sequence[Tuple[str, Any]], timeout: float = 5.0,
                 messages_received_buffer_length: int = 10, node_namespace: str = '') -> None:
        """Create the subscriptions and start spinning them."""
        self.topic_tuples = list(topic_tuples)
        self.timeout = timeout
        self.messages_received_buffer_length = messages_received_buffer_length
        self.__context = rclpy.Context()
        rclpy.init(context=self.__context)
        self.__node = rclpy.create_node('_wait_for_topics', namespace=node_namespace or None,
                                        context=self.__context)
        self.__executor = SingleThreadedExecutor(context=self.__context)
        self.__executor.add_node(self.__node)
        self.__lock = threading.Lock()
        self.__event = threading.Event()
        self.__expected: Set[str] = set()
        self.__received: Set[str] = set()
        self.__messages: Dict[str, List[Any]] = {}
        qos = QoSProfile(depth=messages_received_buffer_length,
                         history=HistoryPolicy.KEEP_LAST,
                         reliability=ReliabilityPolicy.BEST_EFFORT)
        for name, msg_type in self.topic_tuples:
            self.__node.create_subscription(msg_type, name, self.__callback(name), qos)
            self.__expected.add(name)
        self.__thread = threading.Thread(target=self.__spin, daemon=True)
        self.__thread.start()
        # a test that fails before shutdown(): stop the spinning before the interpreter exits
        self.__stop = weakref.finalize(self, _stop_spinning, self.__context, self.__thread)

    def __spin(self) -> None:
        try:
            while self.__context.ok():
                self.__executor.spin_once(timeout_sec=0.1)
        except (ExternalShutdownException, rclpy.executors.ShutdownException):
            pass

    def __callback(self, name: str) -> Callable[[Any], None]:
        def on_message(msg: Any) -> None:
            with self.__lock:
                buffer = self.__messages.setdefault(name, [])
                buffer.append(msg)
                del buffer[:-self.messages_received_buffer_length]
                self.__received.add(name)
                if self.__received >= self.__expected:
                    self.__event.set()
        return on_message

    def wait(self) -> bool:
        """Wait until every topic had a message; False after the timeout."""
        return self.__event.wait(self.timeout)

    def shutdown(self) -> None:
        """Stop spinning and destroy the node and the context."""
        self.__stop()
        self.__executor.shutdown()
        self.__node.destroy_node()

    def topics_received(self) -> Set[str]:
        """Return the topics a message arrived on."""
        with self.__lock:
            return set(self.__received)

    def topics_not_received(self) -> Set[str]:
        """Return the topics no message arrived on."""
        with self.__lock:
            return self.__expected - self.__received

    def received_messages(self, topic_name: str) -> List[Any]:
        """Return the last messages of a topic; KeyError if none arrived."""
        with self.__lock:
            if topic_name not in self.__messages:
                raise KeyError('No messages received for topic: ' + topic_name)
            return list(self.__messages[topic_name])

    def __enter__(self) -> 'WaitForTopics':
        """Wait; RuntimeError naming the topics without messages."""
        if not self.wait():
            missing = sorted(self.topics_not_received())
            self.shutdown()
            raise RuntimeError(f'Did not receive messages on these topics: {missing}')
        return self

    def __exit__(self, exc_type: Optional[Type[BaseException]],
                 exc_value: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> None:
        """Shut down."""
        self.shutdown()
