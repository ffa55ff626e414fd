# SPDX-License-Identifier: Apache-2.0
"""
The bridge's parameters, QoS overrides and use_sim_time, on one installed bridge process.

* Every parameter is described (description, range, read_only); start-up ones refuse a
  set; a run-time one (drop_intensities) changes what the bridge forwards when set.
* A qos_overrides entry of the parameters file changes the offered QoS of its topic only
  (as discovery reports it to another node).
* use_sim_time:=true with /clock frozen at 1000 s: the bridge follows /clock, keeps polling
  (steady-clock timers) and its stamps stay the HORUS ones (it stamps nothing itself).
"""

import json
import os
import uuid

from horus_msg_py import MESSAGE_TYPES, shm
from horus_msg_py.layouts import LASER_SCAN_RANGES
import pytest
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.parameter import Parameter
from rclpy.parameter_client import AsyncParameterClient
from rclpy.qos import ReliabilityPolicy
from rclpy.time import Time
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import Imu, LaserScan
import workspace_testing as wt

WAIT = 60.0  # upper bound for start-up and discovery on a loaded machine, not a budget
NODE = 'horus_bridge_params'


class Setup:
    """The bridge process, a HORUS namespace and a ROS node with its executor."""

    def __init__(self, tmp_path, domain):
        self.ns = 'hbr_params_%d_%s' % (os.getpid(), uuid.uuid4().hex[:8])
        self.imu = shm.ShmTopicWriter(MESSAGE_TYPES['Imu'], 'imu', self.ns, capacity=8)
        params = tmp_path / 'bridge.yaml'
        params.write_text(json.dumps({'/**': {'ros__parameters': {     # JSON is YAML
            'horus_namespace': self.ns, 'use_sim_time': True,
            'horus_to_ros': ['Imu:imu:/p/imu:imu_link', 'RangeSensor:range:/p/range:r'],
            'ros_to_horus': ['LaserScan:/p/scan:scan'],
            'qos_overrides./p/imu.publisher.reliability': 'best_effort',
            'qos_overrides./p/imu.publisher.depth': 5}}}))
        self.context = rclpy.Context()
        rclpy.init(context=self.context, domain_id=domain)
        self.node = rclpy.create_node('horus_params_test', context=self.context)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self.clock = self.node.create_publisher(Clock, '/clock', 10)
        self.tick()
        self.proc = wt.start([wt.executable('horus_bridge', 'horus_bridge'), '--ros-args',
                              '-r', f'__node:={NODE}', '--params-file', str(params)],
                             env=wt.localhost_env(domain))
        self.params = AsyncParameterClient(self.node, NODE)

    def tick(self):
        """Publish /clock: 1000 s, always (simulated time stands still)."""
        self.clock.publish(Clock(clock=Time(seconds=1000).to_msg()))

    def call(self, future):
        self.executor.spin_until_future_complete(future, timeout_sec=WAIT)
        assert future.done(), 'no answer from the parameter service'
        return future.result()

    def set_parameter(self, name, value):
        """Set one parameter of the bridge; return its SetParametersResult."""
        return self.call(self.params.set_parameters([Parameter(name, value=value)])).results[0]

    def close(self):
        result = wt.stop(self.proc)
        self.executor.shutdown()
        self.node.destroy_node()
        rclpy.try_shutdown(context=self.context)
        self.imu.close(unlink=True)
        shm.remove_namespace(self.ns)
        return result


@pytest.fixture(scope='module')
def setup(tmp_path_factory, domain_id):
    s = Setup(tmp_path_factory.mktemp('params'), domain_id)
    try:
        assert s.params.wait_for_services(timeout_sec=WAIT), s.proc.output()
        yield s
    finally:
        result = s.close()
    assert (result.returncode, 'Traceback' in result.output) == (0, False), result.output


def test_parameters_are_described_and_start_up_ones_are_read_only(setup):
    names = ['poll_period_s', 'horus_capacity', 'drop_intensities', 'horus_start']
    period, capacity, drop, start = setup.call(
        setup.params.describe_parameters(names)).descriptors
    assert not period.read_only and '[s]' in period.description
    assert period.floating_point_range[0].from_value == pytest.approx(0.0001)
    assert capacity.read_only and 'power of two' in capacity.additional_constraints
    assert not drop.read_only and start.read_only
    assert start.additional_constraints == 'one of: latest, oldest'
    for name, value in (('horus_capacity', 64), ('horus_start', 'oldest'),
                        ('qos_overrides./p/imu.publisher.depth', 1)):
        result = setup.set_parameter(name, value)
        assert not result.successful and 'read-only' in result.reason, (name, result.reason)
    result = setup.set_parameter('max_per_poll', 0)
    assert not result.successful and 'out of range' in result.reason, result.reason
    result = setup.set_parameter('battery_not_charging_as', 'sometimes')
    assert not result.successful and 'one of' in result.reason
    assert setup.proc.poll() is None


def test_qos_override_from_the_parameters_file_changes_the_offered_qos(setup):
    def reliability(topic):
        infos = wt.wait_for(lambda: setup.node.get_publishers_info_by_topic(topic), WAIT)
        assert infos, f'no publisher of {topic}'
        return [i.qos_profile.reliability for i in infos]
    assert reliability('/p/imu') == [ReliabilityPolicy.BEST_EFFORT]
    assert reliability('/p/range') == [ReliabilityPolicy.RELIABLE]    # not overridden


def test_sim_time_follows_clock_and_keeps_the_horus_stamps(setup):
    assert wt.wait_for(lambda: any(i.node_name == NODE for i in
                                   setup.node.get_subscriptions_info_by_topic('/clock')),
                       WAIT), 'the bridge does not follow /clock'
    got = []
    sub = setup.node.create_subscription(
        Imu, '/p/imu', got.append, rclpy.qos.qos_profile_sensor_data)
    try:
        def arrived():
            setup.tick()
            setup.imu.send(MESSAGE_TYPES['Imu'](timestamp_ns=5_000_000_123))
            setup.executor.spin_once(timeout_sec=0.1)
            return got
        # /clock stands at 1000 s all along: the polls run on the steady clock
        assert wt.wait_for(arrived, WAIT), setup.proc.output()
    finally:
        setup.node.destroy_subscription(sub)
    assert {(m.header.stamp.sec, m.header.stamp.nanosec) for m in got} == {(5, 123)}


def test_drop_intensities_set_at_run_time_takes_effect(setup):
    scan = LaserScan(ranges=[1.0] * LASER_SCAN_RANGES, intensities=[7.0] * LASER_SCAN_RANGES)
    scan.header.stamp.sec = 42
    pub = setup.node.create_publisher(LaserScan, '/p/scan', 10)
    reader = wt.wait_for(lambda: _reader(setup.ns), WAIT)
    assert reader is not None, 'the bridge did not create its HORUS topic'
    try:
        assert wt.wait_for(lambda: pub.get_subscription_count(), WAIT)
        # default false: a scan with intensities is refused, nothing reaches HORUS
        pub.publish(scan)
        assert wt.wait_for(lambda: 'ROS /p/scan: message not forwarded' in setup.proc.output(),
                           WAIT)
        assert reader.recv() is None
        result = setup.set_parameter('drop_intensities', True)
        assert result.successful, result.reason

        def forwarded():
            pub.publish(scan)
            return reader.recv()
        msg = wt.wait_for(forwarded, WAIT, period=0.1)
        assert msg is not None and msg.timestamp_ns == 42 * 10**9
    finally:
        reader.close()
        setup.node.destroy_publisher(pub)


def _reader(ns):
    try:
        return shm.ShmTopicReader(MESSAGE_TYPES['LaserScan'], 'scan', ns, start='oldest')
    except shm.ShmError:
        return None
