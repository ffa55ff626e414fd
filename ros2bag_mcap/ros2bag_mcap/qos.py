# SPDX-License-Identifier: Apache-2.0
"""
QoS shared by the recorder, the player and the Foxglove server.

- `matching_profile`: a subscription that receives from every publisher of a topic (the
  workspace's one rule, `node_runtime.qos_matching`: ros2topic's), with a deep history so a
  busy process never overwrites a sample it has not taken yet.
- The rosbag2 (metadata version 9) dictionary form of a profile, used in metadata.yaml, in the
  MCAP channel's `offered_qos_profiles` and in `--qos-profile-overrides-path` files.
"""

from typing import Any, Dict, List, Optional, Sequence, Union

from node_runtime.qos_matching import match_publishers, offered_profiles
from rclpy.duration import Duration
from rclpy.qos import DurabilityPolicy, HistoryPolicy, LivelinessPolicy, QoSProfile, \
    ReliabilityPolicy
import yaml

_POLICIES: Dict[str, Any] = {
    'history': HistoryPolicy,
    'reliability': ReliabilityPolicy,
    'durability': DurabilityPolicy,
    'liveliness': LivelinessPolicy,
}
_DURATIONS = ('deadline', 'lifespan', 'liveliness_lease_duration')


__all__ = ['dump_profiles', 'from_dict', 'load_overrides', 'matching_profile',
           'offered_profiles', 'parse_profiles', 'playback_profile', 'to_dict', 'type_hash']


def type_hash(node: Any, topic: str) -> str:
    """Return the RIHS01 type hash the topic's first publisher announces ('' if none)."""
    for info in node.get_publishers_info_by_topic(topic):
        return str(getattr(info, 'topic_type_hash', '') or '')
    return ''


def matching_profile(offered: Sequence[QoSProfile], depth: int) -> QoSProfile:
    """
    Return a KEEP_LAST `depth` subscription profile that receives from every one of `offered`.

    With no publisher yet: RELIABLE, VOLATILE (matches any publisher that appears later
    except a best-effort one).
    """
    return match_publishers(QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=depth),
                            offered).profile


def _duration_dict(value: Any) -> Dict[str, int]:
    ns = value.nanoseconds if isinstance(value, Duration) else int(value)
    sec, nsec = divmod(ns, 1_000_000_000)
    return {'sec': sec, 'nsec': nsec}


def to_dict(profile: QoSProfile) -> Dict[str, Any]:
    """rosbag2 v9 dictionary of a QoSProfile (policy names in lower case)."""
    out: Dict[str, Any] = {}
    for key in ('history', 'depth', 'reliability', 'durability', 'deadline', 'lifespan',
                'liveliness', 'liveliness_lease_duration', 'avoid_ros_namespace_conventions'):
        value = getattr(profile, key)
        if key in _POLICIES:
            out[key] = _POLICIES[key](value).name.lower()
        elif key in _DURATIONS:
            out[key] = _duration_dict(value)
        elif key == 'depth':
            out[key] = int(value)
        else:
            out[key] = bool(value)
    return out


def dump_profiles(profiles: Sequence[QoSProfile]) -> str:
    """Return the YAML text of profiles (MCAP channel metadata `offered_qos_profiles`)."""
    if not profiles:
        return ''
    text: str = yaml.safe_dump([to_dict(p) for p in profiles], sort_keys=False)
    return text.strip()


def _policy(kind: str, value: Any) -> Any:
    enum = _POLICIES[kind]
    if isinstance(value, int):
        return enum(value)
    try:
        return enum[str(value).upper()]
    except KeyError:
        raise ValueError(f'unknown {kind} policy {value!r}') from None


def from_dict(d: Any, base: Optional[QoSProfile] = None) -> QoSProfile:
    """
    Build a profile from a rosbag2 dictionary (v8 integers or v9 names).

    Keys missing from `d` keep the values of `base` (default: KEEP_LAST 10, RELIABLE,
    VOLATILE).
    """
    if not isinstance(d, dict):
        raise ValueError(f'a QoS profile must be a mapping, not {d!r}')
    base = base or QoSProfile(depth=10)
    kwargs: Dict[str, Any] = {'history': base.history, 'depth': max(1, base.depth),
                              'reliability': base.reliability, 'durability': base.durability}
    for key, value in d.items():
        if key in _POLICIES:
            kwargs[key] = _policy(key, value)
        elif key == 'depth':
            kwargs['depth'] = int(value)
        elif key in _DURATIONS:
            if not isinstance(value, dict) or set(value) - {'sec', 'nsec'}:
                raise ValueError(f'{key} must be a mapping with sec and nsec')
            kwargs[key] = Duration(seconds=int(value.get('sec', 0)),
                                   nanoseconds=int(value.get('nsec', 0)))
        elif key == 'avoid_ros_namespace_conventions':
            kwargs[key] = bool(value)
        else:
            raise ValueError(f'unknown QoS key {key!r}')
    if kwargs['history'] == HistoryPolicy.KEEP_LAST and kwargs['depth'] < 1:
        kwargs['depth'] = 1
    return QoSProfile(**kwargs)


def parse_profiles(text_or_list: Union[str, List[Any], None]) -> List[QoSProfile]:
    """List of QoSProfile from metadata (a v9 list or a v8 YAML string)."""
    items = yaml.safe_load(text_or_list) if isinstance(text_or_list, str) else text_or_list
    return [from_dict(d) for d in items or []]


def load_overrides(path: str) -> Dict[str, QoSProfile]:
    """{topic: QoSProfile} from a rosbag2 --qos-profile-overrides-path YAML file."""
    try:
        with open(path, encoding='utf-8') as f:
            data = yaml.safe_load(f) or {}
    except OSError as exc:
        raise ValueError(f'cannot read QoS overrides {path}: {exc.strerror}') from None
    except yaml.YAMLError as exc:
        raise ValueError(f'QoS overrides {path} is not valid YAML: {exc}') from None
    if not isinstance(data, dict):
        raise ValueError(f'QoS overrides {path}: expected a mapping of topic -> profile')
    out: Dict[str, QoSProfile] = {}
    for topic, d in data.items():
        try:
            out[str(topic)] = from_dict(d)
        except (ValueError, TypeError) as exc:
            raise ValueError(f'QoS overrides {path}, topic {topic}: {exc}') from None
    return out


def playback_profile(offered: Sequence[QoSProfile]) -> QoSProfile:
    """
    Return the publisher profile for replay.

    The recorded one when all publishers agreed, otherwise one that every recorded
    subscriber could still match.
    """
    if not offered:
        return QoSProfile(depth=10)
    first = offered[0]
    keys = ('history', 'depth', 'reliability', 'durability')
    if all(all(getattr(p, k) == getattr(first, k) for k in keys) for p in offered):
        # The graph reports no history/depth of remote publishers (unknown, 0): rosbag2's
        # default depth then.
        known = first.history in (HistoryPolicy.KEEP_LAST, HistoryPolicy.KEEP_ALL)
        return QoSProfile(history=first.history if known else HistoryPolicy.KEEP_LAST,
                          depth=first.depth if known and first.depth > 0 else 10,
                          reliability=first.reliability, durability=first.durability)
    return QoSProfile(depth=max(10, max(p.depth for p in offered)),
                      reliability=ReliabilityPolicy.RELIABLE,
                      durability=DurabilityPolicy.TRANSIENT_LOCAL
                      if any(p.durability == DurabilityPolicy.TRANSIENT_LOCAL for p in offered)
                      else DurabilityPolicy.VOLATILE)
