# SPDX-License-Identifier: Apache-2.0
"""
The exceptions of the hardware interface's commands and services (RobstrideHardware).

The ROS node turns each into a refused request (result=false) with the reason logged.
"""


class UnknownMotorError(LookupError):
    """No configured joint has this CAN id."""


class UnknownItemError(LookupError):
    """An item_name Get does not know."""


class CommandError(ValueError):
    """A joint command that cannot be applied (nothing of it was applied)."""

    def __init__(self, text: str, reason: str = 'invalid') -> None:
        super().__init__(text)
        self.reason = reason      # counter key: invalid, non_finite, out_of_range, stale


class CommandIgnoredError(RuntimeError):
    """A joint command arrived while the interface is frozen after a joint loss."""


class ReactivationError(RuntimeError):
    """Reactivation refused (a joint still gives no feedback)."""
