# SPDX-License-Identifier: Apache-2.0
"""
Test harness: run the installed node in a subprocess on an isolated DDS domain.

Starting, stopping and the domain come from workspace_testing; what is left here is
robstride-specific: the bus modes, the node's parameters on the command line, and a Monitor
that watches the node through ROS only (services via the client module, topics).
MODES: 'sim' (in-process simulated motors) and 'can' (python-can `virtual` bus with the
simulated motors as a bus peer in the node's process: the hardware code path end to end).
"""
import contextlib
import itertools
import os
import time

import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.qos import QoSProfile
from robstride_interfaces.msg import RobstrideState
from robstride_sim.client import RobstrideClient
from robstride_sim.qos import STATE_QOS
from sensor_msgs.msg import JointState
from workspace_testing import executable, start, stop

# The node's state QoS with a deeper reader history: 2000 samples (4 s at 500 Hz), so a state
# the motors show for only one or two cycles (the stop during a reboot) is still in the queue
# when the test has spent a while in a service call without spinning this monitor.
MONITOR_QOS = QoSProfile(history=STATE_QOS.history, depth=2000,
                         reliability=STATE_QOS.reliability, durability=STATE_QOS.durability)

MODES = ('sim', 'can')
_ns_counter = itertools.count()


def node_executable(name):
    """Path of an installed robstride_sim executable."""
    return executable('robstride_sim', name)


def mode_params(mode):
    """Node parameters selecting a bus mode."""
    if mode == 'sim':
        return {'can_interface': 'sim'}
    return {'can_interface': 'virtual', 'fake_motors': True,
            'can_channel': f'rs_test_{os.getpid()}_{next(_ns_counter)}'}


def param_args(params):
    """`-p name:=value` arguments for a dict of node parameters."""
    args = []
    for name, value in params.items():
        if isinstance(value, bool):
            text = 'true' if value else 'false'
        elif isinstance(value, (list, tuple)):
            text = '[' + ', '.join(
                ('true' if v else 'false') if isinstance(v, bool) else str(v)
                for v in value) + ']'
        else:
            text = str(value)
        args += ['-p', f'{name}:={text}']
    return args


@contextlib.contextmanager
def sim_node(params=None, namespace=None, extra_args=(), wait=True, mode='sim'):
    """
    Start robstride_sim_node; yields (NodeProcess, service prefix). Always stopped after.

    The node's output is in the NodeProcess (`output()`); with RS_TEST_NODE_LOG set it is
    also written to that file when the node has stopped (for debugging a run).
    """
    if namespace is None:
        namespace = f'/rs_test_{os.getpid()}_{next(_ns_counter)}'
    cmd = [node_executable('robstride_sim_node'), '--ros-args', '-r', f'__ns:={namespace}']
    cmd += param_args({**mode_params(mode), **(params or {})}) + list(extra_args)
    proc = start(cmd)
    prefix = namespace.rstrip('/') + '/robstride_hardware_interface'
    try:
        if wait:
            with RobstrideClient(prefix, timeout_sec=20.0) as client:
                client.state()          # services up and the cycle running
        yield proc, prefix
    finally:
        result = stop(proc)
        log = os.environ.get('RS_TEST_NODE_LOG')
        if log:
            with open(log, 'w') as f:
                f.write(result.output)


@contextlib.contextmanager
def sim_rig(params=None, mode='sim', timeout_sec=10.0):
    """Start robstride_sim_node with a client and a Monitor on it; yields (client, monitor)."""
    with sim_node(params, mode=mode) as (_, prefix):
        client = RobstrideClient(prefix, timeout_sec=timeout_sec)
        mon = Monitor(prefix)
        try:
            yield client, mon
        finally:
            mon.close()
            client.close()


class Monitor:
    """Subscribes to a node's robstride_state and joint_states; publishes joint commands."""

    def __init__(self, prefix):
        self.node = rclpy.create_node(f'rs_monitor_{os.getpid()}_{next(_ns_counter)}')
        self.executor = SingleThreadedExecutor()
        self.executor.add_node(self.node)
        self.states = []
        self.joint_states = []
        ns = prefix.rsplit('/', 1)[0]
        self.node.create_subscription(RobstrideState, f'{prefix}/robstride_state',
                                      self.states.append, MONITOR_QOS)
        self.node.create_subscription(JointState, f'{ns}/joint_states',
                                      self.joint_states.append, MONITOR_QOS)
        self.cmd_pub = self.node.create_publisher(JointState, f'{prefix}/joint_commands', 10)

    def close(self):
        self.executor.remove_node(self.node)
        self.executor.shutdown(timeout_sec=0.0)
        self.node.destroy_node()

    def spin_for(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.executor.spin_once(timeout_sec=0.01)

    def wait_for(self, predicate, timeout=10.0, what='condition'):
        """Spin until predicate(self) is true; fail the test after `timeout` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.executor.spin_once(timeout_sec=0.01)
            if predicate(self):
                return
        raise AssertionError(f'timed out after {timeout} s waiting for {what}')

    @property
    def state(self):
        return self.states[-1] if self.states else None

    @property
    def joints(self):
        return self.joint_states[-1] if self.joint_states else None

    def command(self, names, positions=(), velocities=(), efforts=()):
        self.cmd_pub.publish(JointState(name=list(names), position=list(positions),
                                        velocity=list(velocities), effort=list(efforts)))

    def command_until(self, names, positions, predicate, timeout=10.0, what='motion'):
        """Keep publishing the command (best-effort topic) until predicate holds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.command(names, positions)
            self.spin_for(0.05)
            if predicate(self):
                return
        raise AssertionError(f'timed out after {timeout} s waiting for {what}')
