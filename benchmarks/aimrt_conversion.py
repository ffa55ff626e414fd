# SPDX-License-Identifier: Apache-2.0
"""
Messages/s of AimRT protobuf <-> ROS 2 conversion.

A 20-joint JointState (AimRT -> sensor_msgs/JointState) and a 20-joint JointCommand (both
ways with aimrt_protocols_msgs/JointCommand, header, stiffness and damping kept).

Needs the workspace installed and sourced (aimrt_protocols_py importable).
Usage: python3 benchmarks/aimrt_conversion.py [seconds_per_case, default 2]
"""
import sys
import time
from typing import Any, Callable, Optional

from aimrt_protocols_py import codec, conversions
from aimrt_protocols_py.messages import Header, JointCommand, JointState


def make_bytes(joints: int = 20, sequence_num: Optional[int] = None) -> bytes:
    header = Header(time_stamp=time.time_ns(), frame_id='base')
    if sequence_num is not None:  # AimRT >= 0.10: Header.sequence_num = 3, unknown to the seed
        header = codec.decode(Header, codec.encode(header) + bytes([0x18, sequence_num]))
    msg = JointState(header=header)
    for i in range(joints):
        msg.joints.add(name=f'joint_{i:02d}', position=0.1 * i, velocity=-0.01 * i, effort=i)
    return codec.encode(msg)


def make_command(joints: int = 20) -> Any:
    msg = JointCommand(header=Header(time_stamp=time.time_ns(), frame_id='base'))
    for i in range(joints):
        msg.joints.add(name=f'joint_{i:02d}', position=0.1 * i, velocity=-0.01 * i,
                       effort=i, stiffness=40.0 + i, damping=1.5)
    return msg


def rate(label: str, fn: Callable[[], object], seconds: float) -> None:
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(200):
            fn()
        n += 200
        now = time.perf_counter()
        if now >= deadline:
            break
    per_s = n / (now - start)
    print(f'{label:<52} {per_s:>10.0f} msg/s  {1e6 / per_s:7.2f} us/msg')


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    raw = make_bytes()
    msg = codec.decode(JointState, raw)
    accept = conversions.ALL_LOSSES  # only the AimRT >= 0.10 case has a loss to accept
    print(f'20-joint JointState, {len(raw)} bytes of protobuf')
    rate('decode (pb bytes -> AimRT message)', lambda: codec.decode(JointState, raw), seconds)
    rate('convert (AimRT -> sensor_msgs/JointState)',
         lambda: conversions.joint_state_to_ros(msg, accept_losses=accept), seconds)
    rate('decode + convert (pb bytes -> ROS 2 message)',
         lambda: conversions.joint_state_to_ros(codec.decode(JointState, raw),
                                                accept_losses=accept), seconds)
    raw10 = make_bytes(sequence_num=7)
    rate('same, AimRT >= 0.10 bytes (sequence_num dropped)',
         lambda: conversions.joint_state_to_ros(codec.decode(JointState, raw10),
                                                accept_losses=accept), seconds)
    cmd = make_command()
    ros_cmd = conversions.joint_command_to_ros(cmd)
    if conversions.joint_command_from_ros(ros_cmd) != cmd:  # lossless, or the figures lie
        raise SystemExit('JointCommand did not survive the ROS 2 round trip')
    print(f'20-joint JointCommand, {len(codec.encode(cmd))} bytes of protobuf')
    rate('convert (AimRT -> aimrt_protocols_msgs/JointCommand)',
         lambda: conversions.joint_command_to_ros(cmd), seconds)
    rate('convert (aimrt_protocols_msgs/JointCommand -> AimRT)',
         lambda: conversions.joint_command_from_ros(ros_cmd), seconds)
    rate('convert + encode (ROS 2 command -> pb bytes)',
         lambda: codec.encode(conversions.joint_command_from_ros(ros_cmd)), seconds)


if __name__ == '__main__':
    main()
