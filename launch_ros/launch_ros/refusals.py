# SPDX-License-Identifier: Apache-2.0
"""What launch_ros has upstream and this workspace's toolchain cannot do: one clear error."""

from typing import Any, Text

_NO_COMPOSITION = (
    "{what} is not available on this workspace's PyPI toolchain: component containers need "
    'rclcpp_components, which the ROS 2 wheels do not provide; start each node as its own '
    'process with launch_ros.actions.Node(package=..., executable=...) instead')


class NotAvailableError(RuntimeError):
    """Raised by the launch_ros classes this toolchain cannot provide."""


def _refuse(template: Text, what: Text) -> None:
    raise NotAvailableError(template.format(what=what))


class ComposableNode:
    """Refused: composable nodes need rclcpp component containers."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Raise NotAvailableError."""
        _refuse(_NO_COMPOSITION, 'launch_ros.descriptions.ComposableNode')


class ComposableNodeContainer:
    """Refused: component containers need rclcpp_components."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Raise NotAvailableError."""
        _refuse(_NO_COMPOSITION, 'launch_ros.actions.ComposableNodeContainer')


class LoadComposableNodes:
    """Refused: component containers need rclcpp_components."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Raise NotAvailableError."""
        _refuse(_NO_COMPOSITION, 'launch_ros.actions.LoadComposableNodes')
