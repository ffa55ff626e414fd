# SPDX-License-Identifier: Apache-2.0
"""
Observer for test_two_host.py, run inside a network namespace.

The test process cannot join a namespace: this script prints one line per observation,
`<time.monotonic()> <kind> <details>`, flushed.

kinds: `ready`; `drives <0|1>` when /hb50/bridge_state's drives_enabled changes (first sample
included); `status <level> <reporting_node> <text>` for every /hb50/status message.
CLOCK_MONOTONIC is the same in every network namespace, so the test compares these times
with its own. Stops on SIGINT/SIGTERM or when stdin closes.
"""

import sys
import threading
import time


def main():
    from node_runtime import stop as stop_request
    stop = stop_request.watch()  # a handler never sets an Event itself (its lock)
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()

    import rclpy
    from hb50_commons.msg import BridgeState, Status
    from rclpy.experimental import EventsExecutor
    from rclpy.signals import SignalHandlerOptions

    from hb50_nodes import qos, topics

    rclpy.init(signal_handler_options=SignalHandlerOptions.NO)
    node = rclpy.create_node('hb50_netns_probe')
    last = [None]

    def out(line):
        sys.stdout.write(f'{time.monotonic():.6f} {line}\n')
        sys.stdout.flush()

    def on_state(msg):
        if msg.drives_enabled != last[0]:
            last[0] = msg.drives_enabled
            out(f'drives {int(msg.drives_enabled)}')

    def on_status(msg):
        out(f'status {msg.level[0]} {msg.reporting_node} {msg.status}')

    node.create_subscription(BridgeState, topics.resolve(topics.BRIDGE_STATE), on_state,
                             qos.MAB_RT)
    node.create_subscription(Status, topics.resolve(topics.STATUS), on_status, qos.RELIABLE)
    executor = EventsExecutor()
    executor.add_node(node)
    out('ready')
    while not stop.is_set():
        executor.spin_once(timeout_sec=0.05)
    executor.shutdown(timeout_sec=1.0)
    node.destroy_node()
    rclpy.try_shutdown()


if __name__ == '__main__':
    main()
