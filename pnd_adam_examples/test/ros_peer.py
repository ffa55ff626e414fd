# SPDX-License-Identifier: Apache-2.0
"""
rclpy side of the interop tests (run as its own process, rmw_fastrtps_cpp).

Publishes LowCmd and HandCmd with a distinct value in every field, records every LowState
and HandState it receives, and prints one JSON document on stdout when done:
  {"lowstate": [...], "handstate": [...], "sent_lowcmd": {...}, "sent_handcmd": {...},
   "lowstate_publishers": n, "lowcmd_subscribers": n}
Usage: ros_peer.py SECONDS
"""

import json
import sys
import time

from pnd_adam.msg import HandCmd, HandState, LowCmd, LowState, MotorCmd
import rclpy
from rclpy.qos import QoSProfile


def to_plain(msg):
    """Message -> JSON-able dict, every field, recursively."""
    if hasattr(msg, 'get_fields_and_field_types'):
        return {f: to_plain(getattr(msg, f)) for f in msg.get_fields_and_field_types()}
    if hasattr(msg, 'tolist'):
        return msg.tolist()
    if isinstance(msg, (list, tuple)):
        return [to_plain(m) for m in msg]
    return msg


def sent_lowcmd():
    # Valid for the simulator's limits, and a different value in every field and joint.
    return LowCmd(mode_pr=1, reserve=77, motor_cmd=[
        MotorCmd(mode=1, q=0.01 * (i + 1), dq=0.002 * (i + 1), tau=0.1 * (i + 1),
                 kp=10.0 * (i + 1), kd=0.5 * (i + 1), ki=0.25 * (i + 1), reserve=1000 + i)
        for i in range(19)])


def sent_handcmd():
    return HandCmd(position=[0, 100, 200, 300, 400, 500, 1000, 900, 800, 700, 600, 50],
                   reserve=5)


def main():
    seconds = float(sys.argv[1])
    rclpy.init()
    node = rclpy.create_node('adam_interop_peer')
    got = {'lowstate': [], 'handstate': []}
    qos = QoSProfile(depth=100)
    node.create_subscription(LowState, 'lowstate',
                             lambda m: got['lowstate'].append(to_plain(m)), qos)
    node.create_subscription(HandState, 'handstate',
                             lambda m: got['handstate'].append(to_plain(m)), qos)
    cmd_pub = node.create_publisher(LowCmd, 'lowcmd', 10)
    hand_pub = node.create_publisher(HandCmd, 'handcmd', 10)
    lowcmd, handcmd = sent_lowcmd(), sent_handcmd()
    end = time.monotonic() + seconds
    next_pub = 0.0
    counts = {}
    while time.monotonic() < end:
        rclpy.spin_once(node, timeout_sec=0.01)
        if time.monotonic() >= next_pub:
            cmd_pub.publish(lowcmd)
            hand_pub.publish(handcmd)
            next_pub = time.monotonic() + 0.02
        # Discovery as seen from ROS: the simulator's endpoints (max over the run).
        for key, n in (('lowstate_publishers', node.count_publishers('lowstate')),
                       ('lowcmd_subscribers', node.count_subscribers('lowcmd'))):
            counts[key] = max(counts.get(key, 0), n)
    # Keep only the tail: enough to compare, small enough for a pipe.
    out = {'lowstate': got['lowstate'][-200:], 'handstate': got['handstate'][-50:],
           'lowstate_count': len(got['lowstate']), 'handstate_count': len(got['handstate']),
           'sent_lowcmd': to_plain(lowcmd), 'sent_handcmd': to_plain(handcmd), **counts}
    node.destroy_node()
    rclpy.shutdown()
    print(json.dumps(out))


if __name__ == '__main__':
    main()
