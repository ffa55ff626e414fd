# SPDX-License-Identifier: Apache-2.0
"""Named errors raised by the codecs and conversions of aimrt_protocols_py."""

from typing import Iterable


class AimrtProtocolError(ValueError):
    """Base class: the input cannot become a valid AimRT or ROS 2 message."""


class DecodeError(AimrtProtocolError):
    """Binary protobuf input is truncated, malformed or of another type."""


class JsonFormatError(AimrtProtocolError):
    """JSON input is not valid JSON or does not match the message's fields."""


class UnknownMessageTypeError(AimrtProtocolError):
    """A type name does not name one of the AimRT messages this package knows."""


class ConversionError(AimrtProtocolError):
    """A value cannot be represented in the target message (e.g. out of range)."""


class LossyConversionError(ConversionError):
    """
    The target message cannot carry some of the data, and losing it was not accepted.

    `fields` names what would be dropped.
    """

    def __init__(self, message_type: str, fields: Iterable[str]) -> None:
        self.message_type = message_type
        self.fields = frozenset(fields)
        super().__init__(
            f'{message_type}: the ROS 2 representation cannot carry '
            f'{", ".join(sorted(self.fields))}; pass them in accept_losses to drop them')


class UnsupportedContentTypeError(DecodeError):
    """An http body's content type is neither application/protobuf nor application/json."""
