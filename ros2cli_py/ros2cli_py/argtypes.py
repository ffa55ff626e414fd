# SPDX-License-Identifier: Apache-2.0
"""The argparse value types of every verb (one set; imports nothing heavy)."""

import argparse
import math


def positive_int(text: str) -> int:
    """Argparse type: an integer > 0."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError('value must be a positive integer')
    return value


def unsigned_int(text: str) -> int:
    """Argparse type: an integer >= 0."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError('value must be non-negative integer')
    return value


def positive_float(text: str) -> float:
    """Argparse type: a finite float > 0."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0.0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"'{text}' is not a positive float")
    return value


def nonnegative_float(text: str) -> float:
    """Argparse type: a float >= 0 (not NaN)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0.0:
        raise argparse.ArgumentTypeError('value must be a non-negative float')
    return value
