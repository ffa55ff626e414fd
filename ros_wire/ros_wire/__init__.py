# SPDX-License-Identifier: Apache-2.0
"""The ROS 2 wire format (CDR, XCDR1 little endian) in pure Python; see ros_wire.cdr."""

from .cdr import (Buffer, CdrError, ENCAPSULATION, f32_bytes, FixedLayout, HEADER_SIZE,
                  is_cdr_le, padding, Reader, string_bytes, TIME, U32, utf8, Writer)

__all__ = ['Buffer', 'CdrError', 'ENCAPSULATION', 'f32_bytes', 'FixedLayout', 'HEADER_SIZE',
           'is_cdr_le', 'padding', 'Reader', 'string_bytes', 'TIME', 'U32', 'utf8', 'Writer']
