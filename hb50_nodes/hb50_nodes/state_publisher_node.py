# SPDX-License-Identifier: Apache-2.0
"""
state_publisher_node: robot_description, joint_states, /tf and /tf_static of the HB50.

Built on the vendor topics only (bridge_data, robot_state), so it runs the same against the
simulator and the robot. joint_states and /tf are published at `publish_rate` from the newest
valid samples, stamped with the source message's stamp; a malformed or oversized sample gets
a rate-limited warning (status and log) and is not published.
"""

import math
from typing import Any, Dict, List, Optional, Tuple

from hb50_commons.msg import BridgeData, RobotState
from node_runtime.parameters import declare, Parameter
from rclpy.node import Node
from robot_model.quaternion import Quaternion, Vector3
from sensor_msgs.msg import JointState
from state_publisher_common.description import publish_description, publish_global_parameter
from state_publisher_common.newest import InvalidSample, NewestSample
from state_publisher_common.qos import LATCHED, TF_QOS
from state_publisher_common.urdf_tree import transform, UrdfTree
from tf2_msgs.msg import TFMessage

from . import description, levels, qos, topics
from .layout import JOINT_NAMES
from .runtime import run, StatusReporter, steady_timer

JOINT_STATES = 'joint_states'
MAX_JOINTS = 64         # a longer joint array is oversized
# A 12-joint bridge_data is ~0.6 KiB: a larger sample is refused on its raw size, undecoded.
MAX_SAMPLE_BYTES = 64 * 1024

# robot_description and /tf_static latched (LATCHED), /tf as tf2 (TF_QOS): state_publisher_common.
__all__ = ['LATCHED', 'StatePublisher', 'TF_QOS']

PARAMETERS = (
    Parameter('publish_rate', 10.0, 'rate of joint_states and /tf [Hz] (the vendor: 10 Hz)',
              value_range=(0.1, 500.0)),
    Parameter('frame_prefix', '', "prefix of every frame id ('robot1/' keeps two robots' "
              'TF trees apart; default none, as on the robot)'),
    Parameter('odom_frame', 'odom', 'parent frame of the body pose of robot_state'),
    Parameter('heartbeat_rate', 2.0, 'rate of the level-OK Status on heartbeat [Hz]',
              value_range=(1.0, 100.0)),
)


def _finite(*values: float) -> bool:
    return all(math.isfinite(v) for v in values)


def joint_positions(msg: Any) -> Dict[str, float]:
    """Return {joint name: position (rad)} of a BridgeData; InvalidSample if malformed."""
    names, positions = msg.joint_name, msg.joint_position
    if len(names) > MAX_JOINTS or len(positions) > MAX_JOINTS:
        raise InvalidSample(f'bridge_data oversized: {len(names)} names, {len(positions)} '
                            f'positions (at most {MAX_JOINTS})')
    if len(names) != len(positions):
        raise InvalidSample(f'bridge_data: {len(names)} joint names but {len(positions)} '
                            'positions')
    values = dict(zip(names, (float(p) for p in positions)))
    missing = [n for n in JOINT_NAMES if n not in values]
    if missing:
        raise InvalidSample(f'bridge_data lacks joints {", ".join(missing[:4])}')
    if not _finite(*(values[n] for n in JOINT_NAMES)):
        raise InvalidSample('bridge_data: non-finite joint position')
    return values


def body_pose(msg: Any) -> Tuple[Vector3, Quaternion]:
    """Return (xyz, unit quaternion xyzw) of a RobotState's pose; InvalidSample if malformed."""
    p, q = msg.pose.position, msg.pose.orientation
    if len(msg.leg) > MAX_JOINTS:
        raise InvalidSample(f'robot_state oversized: {len(msg.leg)} legs')
    if not _finite(p.x, p.y, p.z, q.x, q.y, q.z, q.w):
        raise InvalidSample('robot_state: non-finite pose')
    norm = math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w)
    if abs(norm - 1.0) > 0.01:
        raise InvalidSample(f'robot_state: orientation is not a unit quaternion (|q| {norm:.3g})')
    return (p.x, p.y, p.z), (q.x / norm, q.y / norm, q.z / norm, q.w / norm)


class StatePublisher(Node):  # type: ignore[misc,unused-ignore]  # rclpy is Any to mypy here
    """robot_description, joint_states, /tf and /tf_static from bridge_data and robot_state."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault('namespace', topics.DEFAULT_NAMESPACE)
        super().__init__('state_publisher_node', **kwargs)
        # publish_global_robot_description: its default depends on the namespace.
        cfg = declare(self, PARAMETERS + (publish_global_parameter(self),))
        self.reporter = StatusReporter(self, cfg['heartbeat_rate'])
        self.urdf = description.generate()
        # The transforms come from the URDF text robot_description carries.
        self.tree = UrdfTree(self.urdf, cfg['frame_prefix'])
        self.frame = self.tree.frame
        self.odom_frame = self.frame(cfg['odom_frame'])
        # newest valid bridge_data: (stamp, {name: position})
        self.positions: Optional[Tuple[Any, Dict[str, float]]] = None
        # newest valid robot_state: (stamp, xyz, quat)
        self.pose: Optional[Tuple[Any, Vector3, Quaternion]] = None
        # the samples published last (no repeats)
        self.published: Tuple[Optional[Tuple[Any, Dict[str, float]]],
                              Optional[Tuple[Any, Vector3, Quaternion]]] = (None, None)
        # Newest raw samples: the 500 Hz topics are kept as bytes and only the newest is
        # decoded, at publish_rate (decoding every sample would cost the composed stack's loop).
        self.raw_bridge_data = NewestSample(BridgeData, 'bridge_data', MAX_SAMPLE_BYTES)
        self.raw_robot_state = NewestSample(RobotState, 'robot_state', MAX_SAMPLE_BYTES)

        # robot_description (and /robot_description on request), published once, latched.
        self.description_pubs = publish_description(
            self, self.urdf, cfg['publish_global_robot_description'])
        self.joint_states_pub = self.create_publisher(JointState, JOINT_STATES, qos.RELIABLE)
        self.tf_pub = self.create_publisher(TFMessage, '/tf', TF_QOS)
        self.tf_static_pub = self.create_publisher(TFMessage, '/tf_static', LATCHED)
        # Polled (node_runtime.polled): the publish timer takes what waits, so that no
        # executor wakes for each of the 1000 source samples a second (issue 40).
        self.raw_bridge_data.subscribe(self, topics.BRIDGE_DATA, qos.MAB_RT)
        self.raw_robot_state.subscribe(self, topics.ROBOT_STATE, qos.MAB_RT)
        self._static_sent = False
        steady_timer(self, 1.0 / cfg['publish_rate'], self.publish_state)

    def _reject(self, error: object) -> None:
        self.reporter.report(levels.WARN, f'not published: {error}')

    def on_bridge_data(self, msg: Any) -> None:
        try:
            self.positions = (msg.header.stamp, joint_positions(msg))
        except InvalidSample as exc:
            self._reject(exc)

    def on_robot_state(self, msg: Any) -> None:
        try:
            self.pose = (msg.header.stamp, *body_pose(msg))
        except InvalidSample as exc:
            self._reject(exc)

    def take_newest(self) -> None:
        """Decode and check the newest raw samples received since the last call."""
        for sample, handle in ((self.raw_bridge_data, self.on_bridge_data),
                               (self.raw_robot_state, self.on_robot_state)):
            try:
                msg = sample.take()
            except InvalidSample as exc:
                self._reject(exc)
                continue
            if msg is not None:
                handle(msg)

    def publish_state(self) -> None:
        self.take_newest()
        positions, pose = self.positions, self.pose
        transforms: List[Any] = []
        if positions is not None and positions is not self.published[0]:
            stamp, values = positions
            if not self._static_sent:
                self.tf_static_pub.publish(TFMessage(
                    transforms=self.tree.static_transforms(stamp)))
                self._static_sent = True
            js = JointState()
            js.header.stamp = stamp
            js.name = list(JOINT_NAMES)
            js.position = [values[n] for n in JOINT_NAMES]
            self.joint_states_pub.publish(js)
            transforms += self.tree.moving_transforms(stamp, values)
        if pose is not None and pose is not self.published[1]:
            stamp, xyz, quat = pose
            transforms.append(transform(stamp, self.odom_frame, self.frame(description.ROOT_LINK),
                                        xyz, quat))
        if transforms:
            self.tf_pub.publish(TFMessage(transforms=transforms))
        self.published = (positions, pose)

    def destroy_node(self) -> None:
        """Destroy the polled source subscriptions too, then the node."""
        self.raw_bridge_data.destroy()
        self.raw_robot_state.destroy()
        super().destroy_node()


def main(args: Optional[List[str]] = None) -> int:
    """Run state_publisher_node until SIGINT/SIGTERM."""
    return run([StatePublisher], args)


if __name__ == '__main__':
    main()
