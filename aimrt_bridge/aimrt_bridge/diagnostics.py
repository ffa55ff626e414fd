# SPDX-License-Identifier: Apache-2.0
"""
The forward status of the bridge's command targets, as /diagnostics carries it.

One diagnostic_msgs/DiagnosticStatus per target (CommandTarget.status()), named
``<bridge>: <ROS topic> -> <ip:port>``: OK while forwarding (or before the first command),
WARN once commands were dropped, ERROR when the last POST failed or was refused; its values
are the counts and ``last_forward_age_sec``. ``ros2 doctor`` (aimrt_bridge.doctor) reads it.
"""

from typing import Any

from aimrt_bridge.command_queue import TargetStatus
from diagnostic_msgs.msg import DiagnosticStatus, KeyValue
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

# /diagnostics keeps its last array for late joiners (`ros2 doctor` reads it within 1 s);
# volatile subscribers, as the diagnostic aggregator's, match it too.
DIAGNOSTICS_QOS = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                             reliability=ReliabilityPolicy.RELIABLE)


def forward_status(fqn: str, ros_topic: str, aimrt_topic: str, status: TargetStatus,
                   now: float) -> Any:
    """Return the DiagnosticStatus of one command target (its status() snapshot) at `now`."""
    last = status['last_sent_at']
    if status['last_outcome'] in ('failed', 'refused'):
        level, text = DiagnosticStatus.ERROR, f"last POST {status['last_outcome']}: " \
            f"{status['last_error']}"
    elif status['dropped']:
        level, text = DiagnosticStatus.WARN, f"forwarding; {status['dropped']} dropped " \
            '(target slower than the commands)'
    else:
        level, text = DiagnosticStatus.OK, 'forwarding' if last else 'no command yet'
    values = [('ros_topic', ros_topic), ('aimrt_topic', aimrt_topic),
              ('sent', status['sent']), ('failed', status['failed']),
              ('refused', status['refused']), ('dropped', status['dropped']),
              ('queued', status['queued']),
              ('last_forward_age_sec', f'{now - last:.3f}' if last else 'never')]
    return DiagnosticStatus(level=level, name=f"{fqn}: {ros_topic} -> {status['address']}",
                            message=text, hardware_id=status['address'],
                            values=[KeyValue(key=k, value=str(v)) for k, v in values])
