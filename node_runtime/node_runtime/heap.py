# SPDX-License-Identifier: Apache-2.0
"""
Give large freed blocks back to the system at once (glibc's malloc).

glibc serves a block of at least its mmap threshold (128 KiB) with a mapping of its own, which
free() returns. But it raises that threshold to the size of each such block freed (up to 32
MiB): after the first 1 MB hostile message, every later one comes from the heap, whose freed
top is kept. A process that must stay bounded under a flood of megabyte messages (bridge_node:
+5.6 MB over 2000 of them, against +1.6 MB with the threshold fixed) fixes the threshold.
"""

import ctypes
import sys

_M_MMAP_THRESHOLD = -3      # mallopt() parameters, malloc.h
_M_TRIM_THRESHOLD = -1

DEFAULT_THRESHOLD = 128 * 1024


def return_large_blocks(threshold: int = DEFAULT_THRESHOLD) -> bool:
    """
    Fix glibc's mmap and trim thresholds at `threshold` bytes; False where not possible.

    Setting them turns glibc's dynamic adjustment off for the whole process.
    """
    if not sys.platform.startswith('linux'):
        return False
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False    # not glibc (musl has no mallopt)
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, threshold)) and \
        bool(mallopt(_M_TRIM_THRESHOLD, 2 * threshold))
