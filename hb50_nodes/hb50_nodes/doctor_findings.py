# SPDX-License-Identifier: Apache-2.0
"""
The HB50 doctor's rules: the findings of one namespace, each one line that names the fix.

From the graph (topics, types, publishers' and subscribers' QoS, robot_description) and a
Measurement (rates, heartbeat gaps, JointCommand sources).
"""

from typing import Any, List, Tuple

from . import topics
from .doctor_measurement import Measurement
from .doctor_spec import HEARTBEAT_S, LONGEST_S, MEASURED, PRODUCER, RATE_TOLERANCE, REQUIRED


def profile_name(info: Any) -> str:
    """Return the vendor's name of a publisher's QoS: 'mabRT' (best effort) or 'Reliable'."""
    from rclpy.qos import ReliabilityPolicy
    return 'mabRT' if info.qos_profile.reliability == ReliabilityPolicy.BEST_EFFORT \
        else 'Reliable'


def findings(node: Any, namespace: str, measurement: Measurement) -> List[Tuple[str, str]]:
    """Return [(level 'error' | 'warning', one line with the fix)] of one HB50 namespace."""
    from rclpy.qos import ReliabilityPolicy
    out: List[Tuple[str, str]] = []
    known = dict(node.get_topic_names_and_types())
    for name in REQUIRED:
        topic = topics.resolve(name, namespace)
        row = topics.TOPICS[name]
        if topic not in known or not node.count_publishers(topic):
            out.append(('error', f'{topic} has no publisher: start {PRODUCER[name]} '
                                 '(`make run` starts the whole stack).'))
            continue
        if row.type_name not in known[topic] or len(known[topic]) > 1:
            out.append(('error', f"{topic} has type [{', '.join(known[topic])}] where "
                                 f'{row.type_name} is documented: a publisher uses another '
                                 'message definition; rebuild it against hb50_commons.'))
        for info in node.get_publishers_info_by_topic(topic):
            if profile_name(info) != row.profile:
                out.append(('error', f'{topic}: publisher {info.node_name} is '
                                     f'{profile_name(info)}, the vendor documents '
                                     f'{row.profile}: publish with hb50_nodes.qos.'
                                     f"{'MAB_RT' if row.profile == 'mabRT' else 'RELIABLE'}."))
        if row.profile == 'Reliable':
            for info in node.get_subscriptions_info_by_topic(topic):
                if info.qos_profile.reliability == ReliabilityPolicy.BEST_EFFORT:
                    out.append(('warning', f'{topic}: subscriber {info.node_name} is best '
                                           'effort where Reliable is required (events and '
                                           'heartbeats are lost): subscribe with '
                                           'hb50_nodes.qos.RELIABLE.'))
    for name in MEASURED:
        topic = topics.resolve(name, namespace)
        nominal = topics.TOPICS[name].rate or 0.0     # every measured topic has its rate
        rate = measurement.rate(name)
        if rate is None:
            out.append(('error', f'{topic}: no samples in {LONGEST_S:g} s: check the QoS '
                                 '(best effort) and that the publisher is not stalled.'))
        elif abs(rate - nominal) > RATE_TOLERANCE * nominal:
            out.append(('error', f'{topic} runs at {rate:.1f} Hz, not {nominal:g} Hz '
                                 f'+- {RATE_TOLERANCE:.0%}: check its `rate` parameter and '
                                 'the host load (chrt -f 10 keeps 500 Hz under load).'))
    beating = sorted({info.node_name for info in node.get_publishers_info_by_topic(
        topics.resolve(topics.HEARTBEAT, namespace))})
    for name in beating:
        gap = measurement.heartbeat_gap(name)
        if gap > HEARTBEAT_S:
            out.append(('error', f'no heartbeat from {name} for {gap:.1f} s on '
                                 f'{topics.resolve(topics.HEARTBEAT, namespace)}: the node is '
                                 'stalled or its heartbeat_rate is below 1 Hz.'))
    sources = sorted(measurement.sources)
    if len(sources) > 1:
        out.append(('warning', f"{len(sources)} JointCommand sources ({', '.join(sources)}) on "
                               f'{topics.resolve(topics.JOINT_COMMAND, namespace)}; the bridge '
                               f'obeys {measurement.chosen_source()}: stop the others, or '
                               'publish the custom source at >= 10 Hz to keep priority.'))
    description = namespace.rstrip('/') + '/robot_description'
    if not node.count_publishers(description):
        out.append(('warning', f'{description} has no publisher: start state_publisher_node '
                               '(`ros2 run hb50_nodes state_publisher_node`).'))
    return out
