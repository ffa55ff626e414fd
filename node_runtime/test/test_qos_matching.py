# SPDX-License-Identifier: Apache-2.0
"""The one "match the publishers' QoS" rule, one case per policy combination (ros2cli's rule)."""

import itertools
from types import SimpleNamespace

from node_runtime.qos_matching import match_publishers, match_subscribers, MIXED_DURABILITY, \
    MIXED_RELIABILITY, offered_profiles, requested_profiles
import pytest
from rclpy.duration import Duration
from rclpy.qos import DurabilityPolicy as D, HistoryPolicy, LivelinessPolicy, QoSProfile, \
    ReliabilityPolicy as R

RELIABILITIES = (R.RELIABLE, R.BEST_EFFORT, R.UNKNOWN, R.SYSTEM_DEFAULT)
DURABILITIES = (D.TRANSIENT_LOCAL, D.VOLATILE, D.UNKNOWN, D.SYSTEM_DEFAULT)


def pub(reliability, durability):
    return QoSProfile(depth=1, reliability=reliability, durability=durability)


def base():
    return QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=7, reliability=R.RELIABLE,
                      durability=D.VOLATILE, deadline=Duration(seconds=2),
                      liveliness=LivelinessPolicy.AUTOMATIC)


def test_no_publisher_keeps_the_base_profile_unchanged():
    for rel, dur in itertools.product(RELIABILITIES[:2], DURABILITIES[:2]):
        b = QoSProfile(depth=3, reliability=rel, durability=dur)
        match = match_publishers(b, [])
        assert (match.profile.reliability, match.profile.durability) == (rel, dur)
        assert match.profile.depth == 3 and match.notices == ()


# One publisher: each reported reliability, and what the subscription asks for.
@pytest.mark.parametrize('offered, expected', [
    (R.RELIABLE, R.RELIABLE),
    (R.BEST_EFFORT, R.BEST_EFFORT),
    (R.UNKNOWN, R.BEST_EFFORT),          # ros2cli counts only RELIABLE as reliable
    (R.SYSTEM_DEFAULT, R.BEST_EFFORT),
])
def test_one_publisher_reliability(offered, expected):
    match = match_publishers(base(), [pub(offered, D.VOLATILE)])
    assert match.profile.reliability == expected
    assert match.notices == ()


@pytest.mark.parametrize('offered, expected', [
    (D.TRANSIENT_LOCAL, D.TRANSIENT_LOCAL),
    (D.VOLATILE, D.VOLATILE),
    (D.UNKNOWN, D.VOLATILE),
    (D.SYSTEM_DEFAULT, D.VOLATILE),
])
def test_one_publisher_durability(offered, expected):
    match = match_publishers(base(), [pub(R.RELIABLE, offered)])
    assert match.profile.durability == expected
    assert match.notices == ()


# Two publishers: every pair of reported reliabilities.
@pytest.mark.parametrize('first, second, expected, notice', [
    (R.RELIABLE, R.RELIABLE, R.RELIABLE, False),
    (R.RELIABLE, R.BEST_EFFORT, R.BEST_EFFORT, True),
    (R.RELIABLE, R.UNKNOWN, R.BEST_EFFORT, True),
    (R.RELIABLE, R.SYSTEM_DEFAULT, R.BEST_EFFORT, True),
    (R.BEST_EFFORT, R.BEST_EFFORT, R.BEST_EFFORT, False),
    (R.BEST_EFFORT, R.UNKNOWN, R.BEST_EFFORT, False),
    (R.BEST_EFFORT, R.SYSTEM_DEFAULT, R.BEST_EFFORT, False),
    (R.UNKNOWN, R.UNKNOWN, R.BEST_EFFORT, False),
    (R.UNKNOWN, R.SYSTEM_DEFAULT, R.BEST_EFFORT, False),
    (R.SYSTEM_DEFAULT, R.SYSTEM_DEFAULT, R.BEST_EFFORT, False),
])
def test_two_publishers_reliability(first, second, expected, notice):
    for order in ((first, second), (second, first)):
        match = match_publishers(base(), [pub(r, D.VOLATILE) for r in order])
        assert match.profile.reliability == expected
        assert match.notices == ((MIXED_RELIABILITY,) if notice else ())


@pytest.mark.parametrize('first, second, expected, notice', [
    (D.TRANSIENT_LOCAL, D.TRANSIENT_LOCAL, D.TRANSIENT_LOCAL, False),
    (D.TRANSIENT_LOCAL, D.VOLATILE, D.VOLATILE, True),
    (D.TRANSIENT_LOCAL, D.UNKNOWN, D.VOLATILE, True),
    (D.TRANSIENT_LOCAL, D.SYSTEM_DEFAULT, D.VOLATILE, True),
    (D.VOLATILE, D.VOLATILE, D.VOLATILE, False),
    (D.VOLATILE, D.UNKNOWN, D.VOLATILE, False),
    (D.VOLATILE, D.SYSTEM_DEFAULT, D.VOLATILE, False),
    (D.UNKNOWN, D.UNKNOWN, D.VOLATILE, False),
    (D.UNKNOWN, D.SYSTEM_DEFAULT, D.VOLATILE, False),
    (D.SYSTEM_DEFAULT, D.SYSTEM_DEFAULT, D.VOLATILE, False),
])
def test_two_publishers_durability(first, second, expected, notice):
    for order in ((first, second), (second, first)):
        match = match_publishers(base(), [pub(R.RELIABLE, d) for d in order])
        assert match.profile.durability == expected
        assert match.notices == ((MIXED_DURABILITY,) if notice else ())


def test_reliability_and_durability_are_decided_independently():
    offered = [pub(R.RELIABLE, D.VOLATILE), pub(R.BEST_EFFORT, D.TRANSIENT_LOCAL)]
    match = match_publishers(base(), offered)
    assert (match.profile.reliability, match.profile.durability) == (R.BEST_EFFORT, D.VOLATILE)
    assert match.notices == (MIXED_RELIABILITY, MIXED_DURABILITY)
    latched = [pub(R.RELIABLE, D.TRANSIENT_LOCAL)] * 3
    match = match_publishers(base(), latched)
    assert (match.profile.reliability, match.profile.durability) == \
        (R.RELIABLE, D.TRANSIENT_LOCAL)


def test_other_policies_come_from_the_base_which_is_not_changed():
    b = base()
    match = match_publishers(b, [pub(R.BEST_EFFORT, D.TRANSIENT_LOCAL)])
    assert match.profile is not b
    assert (b.reliability, b.durability) == (R.RELIABLE, D.VOLATILE)
    assert match.profile.depth == 7 and match.profile.history == HistoryPolicy.KEEP_LAST
    assert match.profile.deadline == Duration(seconds=2)
    assert match.profile.liveliness == LivelinessPolicy.AUTOMATIC


def test_offered_profiles_reads_the_graph():
    profiles = [pub(R.RELIABLE, D.VOLATILE), pub(R.BEST_EFFORT, D.VOLATILE)]
    node = SimpleNamespace(get_publishers_info_by_topic=lambda topic: [
        SimpleNamespace(qos_profile=p) for p in profiles] if topic == '/a' else [])
    assert offered_profiles(node, '/a') == profiles
    assert offered_profiles(node, '/b') == []


# A publisher joining a topic: what each set of subscriptions gets (match_subscribers).
@pytest.mark.parametrize('requested, expected', [
    ([], (R.RELIABLE, D.VOLATILE)),                                     # ros2's default
    ([(R.BEST_EFFORT, D.VOLATILE)], (R.BEST_EFFORT, D.VOLATILE)),
    ([(R.RELIABLE, D.VOLATILE)], (R.RELIABLE, D.VOLATILE)),
    ([(R.BEST_EFFORT, D.VOLATILE), (R.RELIABLE, D.VOLATILE)], (R.RELIABLE, D.VOLATILE)),
    ([(R.BEST_EFFORT, D.TRANSIENT_LOCAL)], (R.BEST_EFFORT, D.TRANSIENT_LOCAL)),
    ([(R.RELIABLE, D.VOLATILE), (R.RELIABLE, D.TRANSIENT_LOCAL)],
     (R.RELIABLE, D.TRANSIENT_LOCAL)),
    ([(R.UNKNOWN, D.UNKNOWN)], (R.RELIABLE, D.TRANSIENT_LOCAL)),        # the stronger one
    ([(R.SYSTEM_DEFAULT, D.SYSTEM_DEFAULT)], (R.RELIABLE, D.TRANSIENT_LOCAL)),
])
def test_publisher_profile_reaches_every_subscription(requested, expected):
    b = base()
    match = match_subscribers(b, [pub(r, d) for r, d in requested])
    assert (match.profile.reliability, match.profile.durability) == expected
    # The other policies are the base profile's, and the base is left as it was.
    assert match.profile.depth == 7 and match.profile.deadline == Duration(seconds=2)
    assert (b.reliability, b.durability) == (R.RELIABLE, D.VOLATILE)
    assert match.notices == ()


def test_requested_profiles_reads_the_subscriptions_of_the_topic():
    profile = pub(R.BEST_EFFORT, D.VOLATILE)
    node = SimpleNamespace(get_subscriptions_info_by_topic=lambda topic: [
        SimpleNamespace(qos_profile=profile)] if topic == '/t' else [])
    assert requested_profiles(node, '/t') == [profile] and requested_profiles(node, '/u') == []
