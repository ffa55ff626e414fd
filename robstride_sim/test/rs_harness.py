# SPDX-License-Identifier: Apache-2.0
"""
Test harness: run the installed node in a subprocess on an isolated DDS domain.

The node is watched through ROS only (services via the client module, topics via a Monitor).
MODES: 'sim' (in-process simulated motors) and 'can' (python-can `virtual` bus with the
simulated motors as a bus peer in the node's process: the hardware code path end to end).
"""
import contextlib
import itertools
import os
import random
import signal
import subprocess
import time

from ament_index_python.packages import get_package_prefix
import rclpy
from rclpy.executors import SingleThreadedExecutor
from robstride_interfaces.msg import RobstrideState
from robstride_sim.client import RobstrideClient
from robstride_sim.qos import STATE_QOS
from sensor_msgs.msg import JointState

DOMAIN_RANGE = range(40, 50)      # this package's share of ROS_DOMAIN_IDs
MODES = ('sim', 'can')
_ns_counter = itertools.count()


def mode_params(mode):
    """Node parameters selecting a bus mode."""
    if mode == 'sim':
        return {'can_interface': 'sim'}
    return {'can_interface': 'virtual', 'fake_motors': True,
            'can_channel': f'rs_test_{os.getpid()}_{next(_ns_counter)}'}


def isolate_environment():
    """Pick this session's domain; must run before rclpy.init (reads the environment)."""
    os.environ.setdefault('ROS_DOMAIN_ID', str(random.choice(DOMAIN_RANGE)))
    if int(os.environ['ROS_DOMAIN_ID']) not in DOMAIN_RANGE:
        os.environ['ROS_DOMAIN_ID'] = str(random.choice(DOMAIN_RANGE))
    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'


def executable(name):
    path = os.path.join(get_package_prefix('robstride_sim'), 'lib', 'robstride_sim', name)
    assert os.access(path, os.X_OK), f'{path} is not installed/executable'
    return path


def _shm_files(pid):
    """Fast DDS shared-memory files a process maps (removed after it exits if left over)."""
    try:
        with open(f'/proc/{pid}/maps') as f:
            return {line.split()[-1] for line in f if '/dev/shm/fastdds_' in line
                    and 'fastdds_port' not in line}
    except OSError:
        return set()


def stop_process(proc, shm=()):
    if proc.poll() is None:
        shm = set(shm) | _shm_files(proc.pid)
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
    for path in shm:
        with contextlib.suppress(OSError):
            os.unlink(path)
            os.unlink(path + '_el')


def _param_args(params):
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
def sim_node(params=None, namespace=None, extra_args=(), wait=True, mode='sim', log=None):
    """
    Start robstride_sim_node; yields (process, service prefix). Always stopped after.

    log: a path to write the node's output to (default: a pipe nobody reads).
    """
    if namespace is None:
        namespace = f'/rs_test_{os.getpid()}_{next(_ns_counter)}'
    cmd = [executable('robstride_sim_node'), '--ros-args', '-r', f'__ns:={namespace}']
    cmd += _param_args({**mode_params(mode), **(params or {})}) + list(extra_args)
    log = log or os.environ.get('RS_TEST_NODE_LOG')
    out = open(log, 'w') if log else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, text=True)
    if log:
        out.close()
    prefix = namespace.rstrip('/') + '/robstride_hardware_interface'
    try:
        if wait:
            with RobstrideClient(prefix, timeout_sec=20.0) as client:
                client.state()          # services up and the cycle running
        yield proc, prefix
    finally:
        stop_process(proc)


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
                                      self.states.append, STATE_QOS)
        self.node.create_subscription(JointState, f'{ns}/joint_states',
                                      self.joint_states.append, STATE_QOS)
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
