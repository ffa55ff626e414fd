# SPDX-License-Identifier: Apache-2.0
"""
Test helpers shared by the ros2bag_mcap and foxglove_live tests.

The HB50 stack as subprocesses (started with workspace_testing, the workspace's harness) and
a live probe that keeps what it receives.
"""

import os
import re
import threading
import time

from workspace_testing import executable, start

HB50_EXECUTABLES = ('bridge_node', 'control_node', 'heartbeat_monitor')
PUBLISHED = re.compile(r'published n=(\d+) t_ns=(\d+)')


def start_hb50_stack(debug_counts=True):
    """
    Start bridge_node, control_node, heartbeat_monitor with the installed params file.

    With debug_counts the 500 Hz nodes log `published n=... t_ns=...` at 10 Hz.
    """
    from ament_index_python.packages import get_package_share_directory
    params = os.path.join(get_package_share_directory('hb50_nodes'), 'config', 'hb50.yaml')
    procs = {}
    for name in HB50_EXECUTABLES:
        # The recorder does not care which physics runs the robot: the cheap engine keeps
        # the machine free for the 500 Hz loops (undeclared parameters are ignored).
        args = [executable('hb50_nodes', name), '--ros-args', '--params-file', params,
                '-p', 'physics_engine:=simple']
        if debug_counts and name != 'heartbeat_monitor':
            # The logger of a node in /hb50 is hb50.<node>.
            args += ['--log-level', f'hb50.{name}:=debug']
        procs[name] = start(args)
    return procs


def published_counts(output):
    """
    Return [(n, t_ns)] of a 500 Hz node's debug lines.

    The first n samples were stamped before t_ns, sample n+1 after it.
    """
    return [(int(n), int(t)) for n, t in PUBLISHED.findall(output)]


class Probe:
    """
    A live subscriber (own context, EventsExecutor on a thread).

    Keeps (receive ns, message or raw bytes) per topic. `reliable`: the topics subscribed
    RELIABLE (default: the HB50 rule, the 10 Hz, status and heartbeat topics); the others
    BEST_EFFORT.
    """

    def __init__(self, topics, raw=False, depth=1000, rt_priority=0, reliable=None):
        import rclpy
        from rclpy.experimental import EventsExecutor
        from rclpy.qos import QoSProfile, ReliabilityPolicy

        from .schema import message_class
        previous = None
        if rt_priority:
            # Threads inherit the policy of their creator: the DDS threads of this probe's
            # participant and its spin thread run SCHED_FIFO, the caller is restored below.
            try:
                previous = (os.sched_getscheduler(0), os.sched_getparam(0))
                os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(rt_priority))
            except OSError:
                previous = None
        self.context = rclpy.Context()
        self.context.init()
        self.node = rclpy.create_node('bag_test_probe', context=self.context,
                                      start_parameter_services=False)
        self.lock = threading.Lock()
        self.records = {t: [] for t in topics}
        for topic, type_name in topics.items():
            is_reliable = topic.endswith(('10hz', 'status', 'heartbeat')) \
                if reliable is None else topic in reliable
            profile = QoSProfile(depth=depth, reliability=ReliabilityPolicy.RELIABLE
                                 if is_reliable else ReliabilityPolicy.BEST_EFFORT)
            self.node.create_subscription(message_class(type_name), topic, self._cb(topic),
                                          profile, raw=raw)
        self.executor = EventsExecutor(context=self.context)
        self.executor.add_node(self.node)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._thread.start()
        if previous is not None:
            os.sched_setscheduler(0, *previous)

    def _cb(self, topic):
        rec = self.records[topic]

        def cb(msg):
            t = time.time_ns()
            with self.lock:
                rec.append((t, msg))
        return cb

    def _spin(self):
        while not self._stop.is_set():
            self.executor.spin_once(timeout_sec=0.05)

    def clear(self):
        """Forget what arrived so far; what arrives from now on is kept."""
        with self.lock:
            for rec in self.records.values():
                rec.clear()

    def count(self, topic):
        with self.lock:
            return len(self.records[topic])

    def settle(self, quiet=0.5, timeout=15.0):
        """Wait until nothing arrived for `quiet` s: a lagging probe has taken its backlog."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            with self.lock:
                now = sum(len(r) for r in self.records.values())
            if now == last:
                return True
            last = now
            time.sleep(quiet)
        return False

    def close(self):
        self._stop.set()
        self._thread.join(2.0)
        self.executor.shutdown(timeout_sec=1.0)
        self.node.destroy_node()
        self.context.try_shutdown()


def plain_fields(msg, template):
    """
    Return the values of `msg` as nested tuples of plain Python values.

    The fields are walked as those of `template` (an rclpy message of the same type); `msg`
    may come from rclpy, rosbags or mcap-ros2-support: their bytes, numpy arrays and lists
    become the same tuples, so equal messages give equal results.
    """
    values = []
    for field, kinds in _fields(template):
        v, t = getattr(msg, field), getattr(template, field)
        kind = kinds.get(type(t))
        if kind is None:
            kind = kinds[type(t)] = _kind(t)
        if kind is _MESSAGE:
            values.append(plain_fields(v, t))
        elif kind is _BYTE:     # a `byte` field: rclpy gives b'\x01', the others int
            values.append(v[0] if isinstance(v, (bytes, bytearray)) else int(v))
        elif kind is _ARRAY:
            if len(t) and hasattr(t[0], 'get_fields_and_field_types'):
                values.append(tuple(plain_fields(a, t[0]) for a in v))
            elif hasattr(v, 'tolist'):      # numpy or array.array: plain values at once
                values.append(tuple(v.tolist()))
            elif isinstance(v, (bytes, bytearray)):
                values.append(tuple(v))
            else:
                values.append(tuple(_plain(a) for a in v))
        else:
            values.append(v)
    return tuple(values)


# What a template's field holds decides how plain_fields walks it; every test is on the
# value's type, so it is worked out once per (message class, field, value type).
_MESSAGE, _BYTE, _ARRAY, _VALUE = 'message', 'byte', 'array', 'value'
_FIELDS = {}


def _fields(template):
    """[(field name, {value type: kind})] of a message class, in definition order."""
    fields = _FIELDS.get(type(template))
    if fields is None:
        fields = _FIELDS[type(template)] = [
            (name, {}) for name in template.get_fields_and_field_types()]
    return fields


def _kind(t):
    if hasattr(t, 'get_fields_and_field_types'):
        return _MESSAGE
    if isinstance(t, bytes):
        return _BYTE
    if isinstance(t, (list, tuple)) or hasattr(t, 'typecode') or hasattr(t, 'dtype'):
        return _ARRAY
    return _VALUE


def _plain(value):
    """One array element as a plain value (a 1-byte bytes object is its integer)."""
    if isinstance(value, (bytes, bytearray)) and len(value) == 1:
        return value[0]
    return value.item() if hasattr(value, 'item') else value
