# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""The bridge's QoS profile, built in one place from its parameters."""

from rclpy.qos import (DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy)

RELIABILITY = {'reliable': ReliabilityPolicy.RELIABLE,
               'best_effort': ReliabilityPolicy.BEST_EFFORT}


def bridge_qos(depth, reliability):
    if reliability not in RELIABILITY:
        raise ValueError('qos_reliability must be one of %s, got %r'
                         % (sorted(RELIABILITY), reliability))
    if depth < 1:
        raise ValueError('qos_depth must be >= 1, got %d' % depth)
    return QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=depth,
                      reliability=RELIABILITY[reliability],
                      durability=DurabilityPolicy.VOLATILE)
