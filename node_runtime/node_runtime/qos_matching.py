# SPDX-License-Identifier: Apache-2.0
"""
The one rule for "match the publishers' QoS" (echo, record, the Foxglove server).

And its mirror for a publisher joining a topic others already subscribe to
(``match_subscribers``: the Foxglove server's client-advertised channels).

It is ros2topic's rule (``ros2cli.qos.choose_qos``): a subscription asks for RELIABLE only
when every publisher of the topic offers RELIABLE, and for TRANSIENT_LOCAL only when every
one offers TRANSIENT_LOCAL; otherwise BEST_EFFORT / VOLATILE, which connect to every
publisher. A policy the graph reports as anything else (UNKNOWN, SYSTEM_DEFAULT, BEST_AVAILABLE)
counts as "not RELIABLE" / "not TRANSIENT_LOCAL", as in ros2cli. With no publisher in the graph,
the caller's base profile is kept as it is. Every other policy (history, depth, deadline, ...)
comes from the base profile.
"""

from dataclasses import dataclass
from typing import Any, Iterable, List, Sequence, Tuple

from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

#: ros2cli's notices when the publishers disagree (it prints them to stdout).
MIXED_RELIABILITY = ('Some, but not all, publishers are offering QoSReliabilityPolicy.RELIABLE. '
                     'Falling back to QoSReliabilityPolicy.BEST_EFFORT as it will connect to '
                     'all publishers')
MIXED_DURABILITY = ('Some, but not all, publishers are offering '
                    'QoSDurabilityPolicy.TRANSIENT_LOCAL. Falling back to '
                    'QoSDurabilityPolicy.VOLATILE as it will connect to all publishers')


@dataclass(frozen=True)
class Match:
    """The matching subscription profile and ros2cli's notices about a mixed graph."""

    profile: QoSProfile
    notices: Tuple[str, ...] = ()


def copy_profile(profile: QoSProfile) -> QoSProfile:
    """Return an independent copy of ``profile`` (every policy, durations included)."""
    return QoSProfile(
        history=profile.history, depth=profile.depth, reliability=profile.reliability,
        durability=profile.durability, lifespan=profile.lifespan, deadline=profile.deadline,
        liveliness=profile.liveliness,
        liveliness_lease_duration=profile.liveliness_lease_duration,
        avoid_ros_namespace_conventions=profile.avoid_ros_namespace_conventions)


def match_publishers(base: QoSProfile, offered: Iterable[QoSProfile]) -> Match:
    """
    Return ``base`` with the reliability and durability that receive from every publisher.

    ``offered`` are the publishers' profiles (``offered_profiles``). ``base`` is not changed.
    """
    offered = list(offered)
    profile = copy_profile(base)
    if not offered:
        return Match(profile)
    reliable = sum(p.reliability == ReliabilityPolicy.RELIABLE for p in offered)
    transient = sum(p.durability == DurabilityPolicy.TRANSIENT_LOCAL for p in offered)
    notices: List[str] = []
    if reliable == len(offered):
        profile.reliability = ReliabilityPolicy.RELIABLE
    else:
        if reliable:
            notices.append(MIXED_RELIABILITY)
        profile.reliability = ReliabilityPolicy.BEST_EFFORT
    if transient == len(offered):
        profile.durability = DurabilityPolicy.TRANSIENT_LOCAL
    else:
        if transient:
            notices.append(MIXED_DURABILITY)
        profile.durability = DurabilityPolicy.VOLATILE
    return Match(profile, tuple(notices))


def match_subscribers(base: QoSProfile, requested: Iterable[QoSProfile]) -> Match:
    """
    Return ``base`` with the reliability and durability a publisher needs to reach every reader.

    ``requested`` are the subscriptions' profiles (``requested_profiles``). DDS matches a
    writer to a reader when the writer offers at least what the reader asks for, so:
    RELIABLE unless every subscription asks for BEST_EFFORT (then a reliable writer would
    only keep retransmitting to readers that ignore it: the mabRT control inputs, e.g.
    /hb50/velocity_command); TRANSIENT_LOCAL when any subscription asks for it (a late
    joiner gets the last sample; a volatile reader takes a transient-local writer too),
    else VOLATILE. A policy reported as anything else (UNKNOWN, SYSTEM_DEFAULT) counts as
    asking for the stronger policy. With no subscription: RELIABLE and VOLATILE, ros2's
    default. Every other policy comes from ``base``, which is not changed.
    """
    requested = list(requested)
    profile = copy_profile(base)
    best_effort = sum(p.reliability == ReliabilityPolicy.BEST_EFFORT for p in requested)
    profile.reliability = (ReliabilityPolicy.BEST_EFFORT if requested and
                           best_effort == len(requested) else ReliabilityPolicy.RELIABLE)
    transient = any(p.durability != DurabilityPolicy.VOLATILE for p in requested)
    profile.durability = (DurabilityPolicy.TRANSIENT_LOCAL if transient
                          else DurabilityPolicy.VOLATILE)
    return Match(profile)


def requested_profiles(node: Any, topic: str) -> Sequence[QoSProfile]:
    """Return the QoS profiles the subscriptions of ``topic`` ask for, as the graph shows now."""
    return [info.qos_profile for info in node.get_subscriptions_info_by_topic(topic)]


def offered_profiles(node: Any, topic: str) -> Sequence[QoSProfile]:
    """Return the QoS profiles the publishers of ``topic`` offer, as the graph shows them now."""
    return [info.qos_profile for info in node.get_publishers_info_by_topic(topic)]
