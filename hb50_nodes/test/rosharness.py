# SPDX-License-Identifier: Apache-2.0
"""
Harness of the ROS integration tests: the HB50 executables as subprocesses and a probe node.

Starting and stopping a process (SIGINT -> SIGTERM -> SIGKILL), the ROS_DOMAIN_ID (the
`ros_domain` fixtures of conftest.py), waits and the Fast DDS shared-memory cleanup come from
workspace_testing; what is HB50's is here: where its executables are, and a probe node that
records every topic. Every wait has a timeout.
"""

import threading
import time

import workspace_testing as wt
from workspace_testing import clean_shared_memory, stop, wait_for  # noqa: F401 (for tests)


def executable(name):
    """Path of an installed hb50_nodes executable."""
    return wt.executable('hb50_nodes', name)


def start(name, *ros_args, env=None, stdin=None):
    """
    Start an hb50_nodes executable with `ros_args` after --ros-args: a NodeProcess.

    Its output goes to a file (NodeProcess.output()); stop it with stop(proc).
    """
    args = [executable(name)]
    if ros_args:
        args += ['--ros-args', *ros_args]
    if stdin is None:
        return wt.start(args, env=env)
    return wt.start(args, env=env, stdin=stdin)


class Probe:
    """A node recording (receipt ns, message) of every HB50 topic, spun on its own thread."""

    def __init__(self, topics=None):
        """Record `topics` (default: every HB50 topic but velocity_command)."""
        import rclpy
        from geometry_msgs.msg import Twist
        from hb50_commons.msg import BridgeData, BridgeState, JointCommand, RobotState, Status
        from rclpy.experimental import EventsExecutor

        from hb50_nodes import qos
        self.qos = qos
        self.context = rclpy.Context()
        self.context.init()
        self.node = rclpy.create_node('hb50_test_probe', context=self.context)
        types = {qos.BRIDGE_DATA: BridgeData, qos.BRIDGE_STATE: BridgeState,
                 qos.BRIDGE_STATE_10HZ: BridgeState, qos.JOINT_COMMAND: JointCommand,
                 qos.ROBOT_STATE: RobotState, qos.ROBOT_STATE_10HZ: RobotState,
                 qos.STATUS: Status, qos.HEARTBEAT: Status}
        if topics is not None:
            types = {topic: types[topic] for topic in topics}
        self.lock = threading.Lock()
        self.records = {topic: [] for topic in types}
        for topic, msg_type in types.items():
            self.node.create_subscription(msg_type, topic, self._cb(topic),
                                          qos.profile_for(topic))
        self.cmd_pub = self.node.create_publisher(JointCommand, qos.JOINT_COMMAND, qos.MAB_RT)
        self.twist_pub = self.node.create_publisher(Twist, qos.VELOCITY_COMMAND, qos.MAB_RT)
        self.executor = EventsExecutor(context=self.context)
        self.executor.add_node(self.node)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._thread.start()

    def _cb(self, topic):
        def cb(msg):
            with self.lock:
                rec = self.records[topic]
                rec.append((time.monotonic(), msg))
                if len(rec) > 20000:     # bounded memory for long tests
                    del rec[:10000]
        return cb

    def _spin(self):
        while not self._stop.is_set():
            self.executor.spin_once(timeout_sec=0.05)

    def since(self, topic, t0):
        with self.lock:
            return [m for t, m in self.records[topic] if t >= t0]

    def latest(self, topic):
        with self.lock:
            rec = self.records[topic]
            return rec[-1][1] if rec else None

    def statuses(self, t0, level=None, text=''):
        return [m for m in self.since(self.qos.STATUS, t0)
                if (level is None or m.level[0] == level) and text in m.status]

    def close(self):
        self._stop.set()
        self._thread.join(2.0)
        self.executor.shutdown(timeout_sec=1.0)
        self.node.destroy_node()
        self.context.try_shutdown()
