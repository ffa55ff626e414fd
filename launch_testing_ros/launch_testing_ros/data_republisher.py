# SPDX-License-Identifier: Apache-2.0
"""DataRepublisher: a test node's man in the middle between two topics."""

from typing import Any, Callable, List, Optional

from rclpy.node import Node


class DataRepublisher:
    """
    Republish the messages of ``listen_topic`` on ``publish_topic``, changed on the way.

    ``transform_fn(msg)`` returns the message to publish, or None to drop it. The node is
    the test's own: spin it (``rclpy.spin_once``) for messages to pass. Messages that arrive
    before ``publish_topic`` has a subscriber are not republished (nor counted), so every
    republished message can reach the listener.
    """

    def __init__(self, node: Node, listen_topic: str, publish_topic: str, msg_type: Any,
                 transform_fn: Callable[[Any], Optional[Any]]) -> None:
        """Subscribe to ``listen_topic`` and advertise ``publish_topic`` on ``node``."""
        self.__node = node
        self.__transform = transform_fn
        self.__republished: List[Any] = []
        self.__subscription = node.create_subscription(msg_type, listen_topic,
                                                       self.__on_message, 10)
        self.__publisher = node.create_publisher(msg_type, publish_topic, 10)

    def __on_message(self, msg: Any) -> None:
        if self.__publisher.get_subscription_count() == 0:
            return      # nobody listens yet: what would be "republished" would reach no one
        out = self.__transform(msg)
        if out is not None:
            self.__republished.append(out)
            self.__publisher.publish(out)

    def shutdown(self) -> None:
        """Destroy the subscription and the publisher."""
        self.__node.destroy_subscription(self.__subscription)
        self.__node.destroy_publisher(self.__publisher)

    def get_num_republished(self) -> int:
        """Return how many messages were republished."""
        return len(self.__republished)

    def get_republished(self) -> List[Any]:
        """Return the republished messages, oldest first."""
        return list(self.__republished)
