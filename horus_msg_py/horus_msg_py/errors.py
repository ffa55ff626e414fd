# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""Named exceptions: bad input is reported, never silently cut or cast."""


class HorusMsgError(ValueError):
    """Base class of every error this package raises for bad input."""


class LayoutError(HorusMsgError):
    """A buffer is too small or a value does not fit its fixed-size field."""


class NameTooLongError(LayoutError):
    """A frame id or joint name longer than 31 UTF-8 bytes (HORUS keeps 32 with NUL)."""


class ConversionError(HorusMsgError):
    """A ROS 2 message carries something HORUS cannot represent (or vice versa)."""


class ShmError(HorusMsgError):
    """A HORUS shared-memory topic is missing, foreign or incompatible."""


class ShmTruncatedError(ShmError):
    """A mapped topic file shrank below its ring's size (truncated or being re-created)."""


class ShmRewoundError(ShmError):
    """A topic's head index moved backwards; the reader has resynchronised to the new head."""
