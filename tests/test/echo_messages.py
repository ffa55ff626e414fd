# SPDX-License-Identifier: Apache-2.0
"""
Subscriber process for test_cross_process.py.

Subscriber process for test_cross_process.py: subscribes to one topic per type named on
the command line and prints one JSON line per type with the serialized bytes received, then
exits once it has one message of every type (or after --timeout seconds).
"""

import argparse
import json
import sys
import time

from interface_values import import_type
import rclpy
from rclpy.serialization import serialize_message


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--timeout', type=float, default=60.0)
    parser.add_argument('types', nargs='+')
    args = parser.parse_args()
    rclpy.init()
    node = rclpy.create_node('cross_process_echo')
    received = {}

    def make_callback(name):
        def callback(msg):
            if name not in received:
                received[name] = serialize_message(msg).hex()
                print(json.dumps({'type': name, 'cdr': received[name]}), flush=True)
        return callback

    subscriptions = [  # noqa: F841 (kept alive)
        node.create_subscription(import_type(name), topic_for(name), make_callback(name), 10)
        for name in args.types]
    print(json.dumps({'ready': True}), flush=True)
    end = time.monotonic() + args.timeout
    while len(received) < len(args.types) and time.monotonic() < end:
        rclpy.spin_once(node, timeout_sec=0.05)
    node.destroy_node()
    rclpy.shutdown()
    sys.exit(0 if len(received) == len(args.types) else 1)


def topic_for(name):
    return 'cross_process/' + name.replace('/', '_')


if __name__ == '__main__':
    main()
