# SPDX-License-Identifier: Apache-2.0
"""
The CAN channel `ros2 doctor` checks for RobStride: the ROBSTRIDE_CAN configuration.

``ROBSTRIDE_CAN=<interface>:<channel>[:<bitrate>]`` (python-can names, e.g.
``socketcan:can0:1000000``) with ``ROBSTRIDE_MOTOR_IDS=1,2`` parsed into a CanConfig, the
description of one channel (also of a running node's) that the kernel view
(doctor_can_kernel) and the bus probe (doctor_motor_probe) read.
"""

import os
from typing import Mapping, Optional, Sequence, Tuple

ENV_CAN = 'ROBSTRIDE_CAN'
ENV_IDS = 'ROBSTRIDE_MOTOR_IDS'


class CanConfig:
    """A python-can interface, channel and bitrate (0: the interface's own) and motor IDs."""

    def __init__(self, interface: str, channel: str, bitrate: int = 0,
                 motor_ids: Sequence[int] = (), origin: str = ENV_CAN):
        """Hold the configuration; ``origin`` says where it came from (env or a node)."""
        self.interface = interface
        self.channel = channel
        self.bitrate = int(bitrate or 0)
        self.motor_ids = list(motor_ids)
        self.origin = origin

    def __str__(self) -> str:
        """Return ``interface channel`` as python-can names them."""
        return f'{self.interface} {self.channel}'


def config_from_env(environ: Mapping[str, str] = os.environ
                    ) -> Tuple[Optional[CanConfig], Optional[str]]:
    """Return (the ROBSTRIDE_CAN configuration or None, the reason it is malformed or None)."""
    text = environ.get(ENV_CAN, '').strip()
    if not text:
        return None, None
    parts = text.split(':')
    # a channel may itself hold ':' (a serial device is a path: no ':' there)
    if len(parts) < 2 or not parts[0] or not parts[1]:
        return None, (f'{ENV_CAN}={text!r} is not <interface>:<channel>[:<bitrate>]: '
                      f'e.g. {ENV_CAN}=socketcan:can0:1000000.')
    bitrate = 0
    if len(parts) > 2:
        if not parts[2].isdigit():
            return None, f'{ENV_CAN}={text!r}: the bitrate {parts[2]!r} is not an integer.'
        bitrate = int(parts[2])
    ids_text = environ.get(ENV_IDS, '').strip()
    try:
        ids = [int(x) for x in ids_text.split(',') if x.strip()]
    except ValueError:
        return None, f'{ENV_IDS}={ids_text!r} is not a comma-separated list of CAN ids.'
    return CanConfig(parts[0], parts[1], bitrate, ids), None
