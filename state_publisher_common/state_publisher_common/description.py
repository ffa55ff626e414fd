# SPDX-License-Identifier: Apache-2.0
"""
robot_description on the node's own topic and, on request, on the global /robot_description.

Foxglove Studio 1.x's 3D panel reads a URDF only from the topic named exactly
`/robot_description`, while a state publisher in a namespace (`/hb50`) publishes on
`<namespace>/robot_description`. The parameter `publish_global_robot_description` adds a
second latched publisher on `/robot_description` with the same message. Its default is true
when `robot_description` already resolves to `/robot_description` (a node without namespace:
then one publisher serves both, never two on one topic), false otherwise.
"""

# The annotations stay text: Publisher[String] works only where rclpy's Publisher is Generic.
from __future__ import annotations

from typing import Tuple

from node_runtime.parameters import Parameter
from rclpy.node import Node
from rclpy.publisher import Publisher
from std_msgs.msg import String

from .qos import LATCHED

TOPIC = 'robot_description'
GLOBAL_TOPIC = '/robot_description'
PUBLISH_GLOBAL = 'publish_global_robot_description'


def is_global(node: Node) -> bool:
    """Return whether the node's `robot_description` already is `/robot_description`."""
    return bool(node.resolve_topic_name(TOPIC) == GLOBAL_TOPIC)


def publish_global_parameter(node: Node) -> Parameter:
    """Return the start-up parameter `publish_global_robot_description` of `node`."""
    return Parameter(PUBLISH_GLOBAL, is_global(node),
                     f'also publish the URDF on {GLOBAL_TOPIC} (Foxglove Studio 1.x reads it '
                     f'only there); default true without a namespace ({TOPIC} is that topic: '
                     'one publisher), false in a namespace')


def publish_description(node: Node, urdf_text: str,
                        publish_global: bool) -> Tuple[Publisher[String], ...]:
    """
    Publish `urdf_text` once, latched, on `robot_description` (and `/robot_description`).

    The second publisher is made only when `publish_global` is true and the node's own topic
    is another one. Returns the publishers (LATCHED: RELIABLE, TRANSIENT_LOCAL, depth 1).
    """
    topics = [TOPIC]
    if publish_global and not is_global(node):
        topics.append(GLOBAL_TOPIC)
    msg = String(data=urdf_text)
    publishers = tuple(node.create_publisher(String, topic, LATCHED) for topic in topics)
    for publisher in publishers:
        publisher.publish(msg)
    return publishers
