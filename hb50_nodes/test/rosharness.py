# SPDX-License-Identifier: Apache-2.0
"""
Harness of the ROS integration tests: the HB50 executables as subprocesses and a probe node.

Starting and stopping a process (SIGINT -> SIGTERM -> SIGKILL), the ROS_DOMAIN_ID (the
`domain_id` fixture, taken in by conftest.py), waits and the Fast DDS shared-memory cleanup
come from workspace_testing; what is HB50's is here: where its executables are, and a probe
node that records every topic. Every wait has a timeout.
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


def _is_event(msg, level, text):
    """Return whether Status `msg` has `level` (None: any) and contains `text`."""
    return (level is None or msg.level[0] == level) and text in msg.status


class Probe:
    """
    A node recording (receipt time, message) of the HB50 topics, spun on its own thread.

    It lives in the root namespace and subscribes to the absolute names of the topics in each
    of `namespaces` (default: /hb50 only). Methods take a table name (topics.BRIDGE_DATA) and
    an optional `ns` (default: the first namespace).
    """

    def __init__(self, topics=None, namespaces=None):
        """Record `topics` (default: every HB50 topic but velocity_command) in `namespaces`."""
        import rclpy
        from geometry_msgs.msg import Twist
        from hb50_commons.msg import BridgeData, BridgeState, JointCommand, RobotState, Status
        from rclpy.experimental import EventsExecutor

        from hb50_nodes import qos, topics as table
        self.qos = qos
        self.topics = table
        self.namespaces = tuple(namespaces or (table.DEFAULT_NAMESPACE,))
        self.context = rclpy.Context()
        self.context.init()
        self.node = rclpy.create_node('hb50_test_probe', context=self.context)
        types = {table.BRIDGE_DATA: BridgeData, table.BRIDGE_STATE: BridgeState,
                 table.BRIDGE_STATE_10HZ: BridgeState, table.JOINT_COMMAND: JointCommand,
                 table.ROBOT_STATE: RobotState, table.ROBOT_STATE_10HZ: RobotState,
                 table.STATUS: Status, table.HEARTBEAT: Status}
        if topics is not None:
            types = {topic: types[topic] for topic in topics}
        self.lock = threading.Lock()
        self.records = {}
        self.cmd_pubs, self.twist_pubs = {}, {}
        for ns in self.namespaces:
            for topic, msg_type in types.items():
                name = self.name(topic, ns)
                self.records[name] = []
                self.node.create_subscription(msg_type, name, self._cb(name),
                                              qos.profile_for(topic))
            self.cmd_pubs[ns] = self.node.create_publisher(
                JointCommand, self.name(table.JOINT_COMMAND, ns), qos.MAB_RT)
            self.twist_pubs[ns] = self.node.create_publisher(
                Twist, self.name(table.VELOCITY_COMMAND, ns), qos.MAB_RT)
        # The first namespace's publishers.
        self.cmd_pub = self.cmd_pubs[self.namespaces[0]]
        self.twist_pub = self.twist_pubs[self.namespaces[0]]
        self.executor = EventsExecutor(context=self.context)
        self.executor.add_node(self.node)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._thread.start()

    def name(self, topic, ns=None):
        """Return the absolute name of table topic `topic` in `ns` (default: the first)."""
        return self.topics.resolve(topic, ns or self.namespaces[0])

    def _cb(self, name):
        def cb(msg):
            with self.lock:
                rec = self.records[name]
                rec.append((time.monotonic(), msg))
                if len(rec) > 20000:     # bounded memory for long tests
                    del rec[:10000]
        return cb

    def _spin(self):
        while not self._stop.is_set():
            self.executor.spin_once(timeout_sec=0.05)

    def since(self, topic, t0, ns=None):
        with self.lock:
            return [m for t, m in self.records[self.name(topic, ns)] if t >= t0]

    def latest(self, topic, ns=None):
        with self.lock:
            rec = self.records[self.name(topic, ns)]
            return rec[-1][1] if rec else None

    def statuses(self, t0, level=None, text='', ns=None):
        return [m for m in self.since(self.topics.STATUS, t0, ns) if _is_event(m, level, text)]

    def events_stamped_since(self, wall_t0, level=None, text='', ns=None):
        """
        Return the Status events the nodes stamped at or after `wall_t0` (time.time() s).

        By the sender's stamp, not by receipt: on a loaded machine this probe, which decodes
        every 500 Hz topic in Python, can receive an event seconds after it happened, so
        "the bridge switched after I stopped publishing" is decided by when it switched.
        """
        t0_ns = int(wall_t0 * 1e9)
        with self.lock:
            rec = list(self.records[self.name(self.topics.STATUS, ns)])
        return [m for _, m in rec
                if m.header.stamp.sec * 1_000_000_000 + m.header.stamp.nanosec >= t0_ns
                and _is_event(m, level, text)]

    def close(self):
        self._stop.set()
        self._thread.join(2.0)
        self.executor.shutdown(timeout_sec=1.0)
        self.node.destroy_node()
        self.context.try_shutdown()
