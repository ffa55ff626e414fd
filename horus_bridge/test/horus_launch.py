# SPDX-License-Identifier: Apache-2.0
"""
What the launch tests of horus_bridge start beside the launch file under test.

A HORUS publisher (horus-robotics, the real peer: `python3 horus_launch.py` runs it) sending
the shipped routes' four types every 50 ms in a HORUS_NAMESPACE of the test's own, and a
parameter file with the shipped routes' ROS 2 topics fed from that publisher's HORUS topics.
"""

import json
import os
import signal
import sys
import tempfile
import time
import uuid

# The shipped config's horus_to_ros routes: HORUS type -> (ROS 2 topic, frame_id).
ROUTES = {'LaserScan': ('/scan', 'laser'), 'Imu': ('/imu/data', 'imu_link'),
          'Odometry': ('/odom', ''), 'BatteryState': ('/battery_state', 'base_link')}
PREFIX = 'launch_test.'


def setup():
    """
    Put this process (so the launched ones too) in a new HORUS_NAMESPACE.

    Return the namespace, the publisher's command and the bridge's parameter file.
    """
    namespace = 'hbr_launch_%d_%s' % (os.getpid(), uuid.uuid4().hex[:8])
    os.environ['HORUS_NAMESPACE'] = namespace
    params = os.path.join(tempfile.mkdtemp(prefix='horus_launch_test_'), 'bridge.yaml')
    routes = [f'{t}:{PREFIX}{t}:{topic}' + (f':{frame}' if frame else '')
              for t, (topic, frame) in ROUTES.items()]
    with open(params, 'w') as f:       # JSON is YAML
        json.dump({'horus_bridge': {'ros__parameters': {
            'horus_to_ros': routes, 'ros_to_horus': [''], 'horus_start': 'oldest'}}}, f)
    return namespace, [sys.executable, os.path.abspath(__file__)], params


def publish():
    """Send every route's sample every 50 ms until SIGINT/SIGTERM (exit 0)."""
    signal.signal(signal.SIGINT, lambda *_: sys.exit(0))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    import horus
    from horus_testing import peer_samples
    topics = [(t, horus.Topic(getattr(horus, t), endpoint=PREFIX + t)) for t in ROUTES]
    print('publishing', ', '.join(PREFIX + t for t in ROUTES), flush=True)
    while True:
        for type_name, topic in topics:
            topic.send(peer_samples.build_horus(horus, type_name))
        time.sleep(0.05)


if __name__ == '__main__':
    publish()
