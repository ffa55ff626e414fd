# SPDX-License-Identifier: Apache-2.0
"""
adam_state_publisher: robot_description, joint_states, /tf and /tf_static of the Adam U.

Reads the robot's own `lowstate` (as the robot and adam_sim publish it), so it works the
same against the simulator and the robot, and publishes what robot_state_publisher-based
tools, RViz and Foxglove's 3D panel need:

- robot_description (std_msgs/String, RELIABLE + TRANSIENT_LOCAL): share/pnd_adam_description/
  urdf/adam_u.urdf, generated from the MuJoCo model; in a namespace, with
  `publish_global_robot_description`, also on /robot_description;
- joint_states (sensor_msgs/JointState: position q, velocity dq, effort tau_est of the 19
  joints in the vendor's order) at `publish_rate` (100 Hz, the vendor's JointState rate);
- /tf: every joint's transform, and `odom -> pelvis` from the IMU attitude (the stand's base
  stays at the odom origin);
- /tf_static: the fixed joints (pelvis -> stand), once, with the first sample's stamp.

Stamps are the source's: LowState has no header, so its battery_data.timestamp_ms (the
robot's wall-clock milliseconds) is the stamp. Only the newest lowstate is decoded, at
`publish_rate`; a malformed or oversized one gets a rate-limited warning and is not
published.

    ros2 run pnd_adam_examples adam_state_publisher [--ros-args -p frame_prefix:=robot1/]
"""

import math
from typing import Any, List, Optional, Tuple

from builtin_interfaces.msg import Time
from node_runtime import runner
from node_runtime.parameters import declare, Parameter
from pnd_adam.msg import LowState
from pnd_adam_description import urdf
from pnd_adam_description.joints import JOINT_NAMES, NUM_JOINTS
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rclpy.qos import qos_profile_sensor_data
from robot_model.quaternion import Quaternion, rotate
from sensor_msgs.msg import JointState
from state_publisher_common.description import publish_description, publish_global_parameter
from state_publisher_common.newest import InvalidSample, NewestSample, Refusals
from state_publisher_common.qos import LATCHED, TF_QOS
from state_publisher_common.urdf_tree import transform, UrdfTree
from tf2_msgs.msg import TFMessage

from .fastdds_profile import use_interop_profile

# A 19-motor lowstate is ~0.8 KiB: a larger sample than this is refused on its raw size.
MAX_SAMPLE_BYTES = 16 * 1024

PARAMETERS = (
    Parameter('publish_rate', 100.0, 'rate of joint_states and /tf [Hz] (the vendor '
              'publishes sensor_msgs/JointState at 100 Hz)', value_range=(0.1, 1000.0)),
    Parameter('frame_prefix', '', "prefix of every frame id ('robot1/' keeps two robots' TF "
              'trees apart; default none)'),
    Parameter('odom_frame', 'odom', "parent frame of the pelvis pose ('' publishes none)"),
)


def stamp_of(msg: LowState) -> Time:
    """Return the Time of a LowState: its battery_data.timestamp_ms (ms since the epoch)."""
    sec, ms = divmod(int(msg.battery_data.timestamp_ms), 1000)
    if sec < 0:
        raise InvalidSample(f'lowstate: negative timestamp_ms {msg.battery_data.timestamp_ms}')
    return Time(sec=min(sec, 2 ** 31 - 1), nanosec=ms * 1_000_000)


def checked(msg: LowState) -> Tuple[List[float], List[float], List[float], Quaternion]:
    """Return (q, dq, tau, quaternion xyzw) of a LowState; InvalidSample if malformed."""
    motors = msg.motor_state
    if len(motors) != NUM_JOINTS:
        raise InvalidSample(f'lowstate: {len(motors)} motors, Adam U has {NUM_JOINTS}')
    q = [float(m.q) for m in motors]
    dq = [float(m.dq) for m in motors]
    tau = [float(m.tau_est) for m in motors]
    if not all(math.isfinite(v) for v in q + dq + tau):
        raise InvalidSample('lowstate: non-finite q, dq or tau_est')
    w, x, y, z = (float(v) for v in msg.imu_state.quaternion)
    norm = math.sqrt(w * w + x * x + y * y + z * z)
    if not abs(norm - 1.0) <= 0.01:
        raise InvalidSample(f'lowstate: imu quaternion is not a unit quaternion (|q| {norm:.3g})')
    return q, dq, tau, (x / norm, y / norm, z / norm, w / norm)


class AdamStatePublisher(Node):  # type: ignore[misc,unused-ignore]  # rclpy is Any here
    """robot_description, joint_states, /tf and /tf_static from lowstate."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__('adam_state_publisher', **kwargs)
        # publish_global_robot_description: its default depends on the namespace.
        cfg = declare(self, PARAMETERS + (publish_global_parameter(self),))
        self.urdf = urdf.read()
        self.tree = UrdfTree(self.urdf, cfg['frame_prefix'])
        if sorted(self.tree.joint_names) != sorted(JOINT_NAMES):
            raise ValueError('the installed URDF does not have the 19 Adam U joints')
        self.odom_frame = self.tree.frame(cfg['odom_frame']) if cfg['odom_frame'] else None
        # The pelvis sits on the stand: in odom it is the stand's offset turned by the IMU.
        stand = next(j for j in self.tree.fixed if j.child == urdf.STAND_LINK)
        x, y, z = stand.xyz
        self.pelvis_in_stand = (-x, -y, -z)
        self.lowstate = NewestSample(LowState, 'lowstate', MAX_SAMPLE_BYTES)
        self.refusals = Refusals(self.get_logger())
        self.static_sent = False

        # robot_description (and /robot_description on request), published once, latched.
        self.description_pubs = publish_description(
            self, self.urdf, cfg['publish_global_robot_description'])
        self.joint_states_pub = self.create_publisher(JointState, 'joint_states', 10)
        self.tf_pub = self.create_publisher(TFMessage, '/tf', TF_QOS)
        self.tf_static_pub = self.create_publisher(TFMessage, '/tf_static', LATCHED)
        # Polled (node_runtime.polled): the publish timer takes what waits, so that no
        # executor wakes for each of the 500 lowstate samples a second (issue 40).
        self.lowstate.subscribe(self, 'lowstate', qos_profile_sensor_data)
        self.create_timer(1.0 / cfg['publish_rate'], self.publish_state)

    def publish_state(self) -> None:
        """Publish the newest lowstate received since the last call, if it is valid."""
        try:
            msg = self.lowstate.take()
            if msg is None:
                return
            stamp = stamp_of(msg)
            q, dq, tau, quat = checked(msg)
        except InvalidSample as exc:
            self.refusals.refuse(exc)
            return
        if not self.static_sent:
            self.tf_static_pub.publish(TFMessage(transforms=self.tree.static_transforms(stamp)))
            self.static_sent = True
        js = JointState(name=list(JOINT_NAMES), position=q, velocity=dq, effort=tau)
        js.header.stamp = stamp
        self.joint_states_pub.publish(js)
        transforms = self.tree.moving_transforms(stamp, dict(zip(JOINT_NAMES, q)))
        if self.odom_frame is not None:
            transforms.append(transform(stamp, self.odom_frame, self.tree.frame(urdf.ROOT_LINK),
                                        rotate(quat, self.pelvis_in_stand), quat))
        self.tf_pub.publish(TFMessage(transforms=transforms))

    def destroy_node(self) -> Any:
        """Destroy the polled lowstate subscription too, then the node."""
        self.lowstate.destroy()
        return super().destroy_node()


def main(args: Optional[List[str]] = None) -> int:
    """
    Run the node until SIGINT/SIGTERM (node_runtime.runner); return the exit status.

    0 on a stop, 2 with one stderr line for a bad parameter, 1 for any other failure.
    """
    use_interop_profile()   # before rclpy.init(): Fast DDS reads it with the participant
    return runner.run_nodes([AdamStatePublisher], args, executor=SingleThreadedExecutor)


if __name__ == '__main__':
    raise SystemExit(main())
