# SPDX-License-Identifier: Apache-2.0
"""ros2topic's --qos-* options and echo's QoS adaptation to the publishers it finds."""

import argparse
from typing import Any

from node_runtime.qos_matching import match_publishers, offered_profiles
from rclpy.duration import Duration
from rclpy.qos import DurabilityPolicy
from rclpy.qos import HistoryPolicy
from rclpy.qos import LivelinessPolicy
from rclpy.qos import QoSPresetProfiles
from rclpy.qos import ReliabilityPolicy

from ros2cli_py.argtypes import nonnegative_float
from ros2cli_py.argtypes import positive_int
from ros2cli_py.errors import CommandError


def add_qos_arguments(parser: argparse.ArgumentParser, entity: str,
                      default_profile: str) -> None:
    """Add the --qos-* options of ros2topic's pub/echo."""
    parser.add_argument(
        '--qos-profile', choices=QoSPresetProfiles.short_keys(), default=default_profile,
        help=f'Quality of service preset profile to {entity} with '
             f'(default: {default_profile})')
    parser.add_argument(
        '--qos-depth', metavar='N', type=positive_int, default=None,
        help='Queue size setting to {} with (overrides depth value of --qos-profile '
             'option)'.format(entity))
    parser.add_argument(
        '--qos-history', choices=HistoryPolicy.short_keys(), default=None,
        help=f'History of samples setting to {entity} with (overrides history value of '
             '--qos-profile option)')
    parser.add_argument(
        '--qos-reliability', choices=ReliabilityPolicy.short_keys(), default=None,
        help=f'Quality of service reliability setting to {entity} with (overrides '
             'reliability value of --qos-profile option)')
    parser.add_argument(
        '--qos-durability', choices=DurabilityPolicy.short_keys(), default=None,
        help=f'Quality of service durability setting to {entity} with (overrides '
             'durability value of --qos-profile option)')
    parser.add_argument(
        '--qos-liveliness', choices=LivelinessPolicy.short_keys(), default=None,
        help=f'Quality of service liveliness setting to {entity} with (overrides '
             'liveliness value of --qos-profile option)')
    parser.add_argument(
        '--qos-liveliness-lease-duration-seconds', type=nonnegative_float, default=None,
        help=f'Quality of service liveliness lease duration in seconds to {entity} with '
             '(overrides liveliness_lease_duration value of --qos-profile option)')


def _overridden(args: argparse.Namespace) -> bool:
    return any(getattr(args, key) is not None for key in (
        'qos_depth', 'qos_history', 'qos_reliability', 'qos_durability', 'qos_liveliness',
        'qos_liveliness_lease_duration_seconds'))


def profile_from_args(args: argparse.Namespace) -> Any:
    """Return the preset named by --qos-profile with every --qos-* override applied."""
    profile = QoSPresetProfiles.get_from_short_key(args.qos_profile)
    if args.qos_reliability is not None:
        profile.reliability = ReliabilityPolicy.get_from_short_key(args.qos_reliability)
    if args.qos_durability is not None:
        profile.durability = DurabilityPolicy.get_from_short_key(args.qos_durability)
    if args.qos_history is not None:
        profile.history = HistoryPolicy.get_from_short_key(args.qos_history)
    if args.qos_depth is not None:
        profile.depth = args.qos_depth
    elif profile.history == HistoryPolicy.KEEP_LAST and profile.depth == 0:
        profile.depth = 1
    if args.qos_liveliness is not None:
        profile.liveliness = LivelinessPolicy.get_from_short_key(args.qos_liveliness)
    if args.qos_liveliness_lease_duration_seconds is not None:
        profile.liveliness_lease_duration = Duration(
            nanoseconds=int(args.qos_liveliness_lease_duration_seconds * 1e9))
    if profile.history == HistoryPolicy.KEEP_LAST and profile.depth < 1:
        raise CommandError('--qos-depth must be at least 1 with keep_last history')
    return profile


def choose_subscription_qos(node: Any, topic: str, args: argparse.Namespace) -> Any:
    """
    Echo's QoS: the user's --qos-* if any, else the preset adapted to the publishers.

    The workspace's one rule (`node_runtime.qos_matching`, ros2topic's): reliable only if
    every publisher offers RELIABLE, transient local only if every one offers
    TRANSIENT_LOCAL; a mix falls back to best effort / volatile with ros2cli's notice.
    """
    if _overridden(args):
        return profile_from_args(args)
    preset = QoSPresetProfiles.get_from_short_key(args.qos_profile)
    match = match_publishers(preset, offered_profiles(node, topic))
    for notice in match.notices:
        print(notice)
    return match.profile
