# SPDX-License-Identifier: Apache-2.0
"""
Where the shipped Fast DDS interop profile is, and how a node switches it on.

The robot speaks plain Cyclone DDS. On ROS 2 Kilted (Fast DDS 3) nothing flows between
rmw_fastrtps and the robot for types with arrays or sequences unless Fast DDS type
propagation is disabled; config/fastdds_adam_interop.xml does that (see the comment in it).
Fast DDS reads FASTDDS_DEFAULT_PROFILES_FILE when rmw creates the participant, i.e. in
rclpy.init(), so use_interop_profile() must run before that.
"""

import os
from typing import MutableMapping, Optional

from ament_index_python.packages import get_package_share_directory

PROFILE_ENV = 'FASTDDS_DEFAULT_PROFILES_FILE'
PROFILE_FILE = 'fastdds_adam_interop.xml'


def profile_path() -> str:
    """Return the installed config/fastdds_adam_interop.xml."""
    return os.path.join(get_package_share_directory('pnd_adam_examples'), 'config',
                        PROFILE_FILE)


def use_interop_profile(environ: Optional[MutableMapping[str, str]] = None) -> Optional[str]:
    """
    Point Fast DDS at the shipped profile; return the profile file in force.

    Nothing changes when the user already chose a profile file or another RMW. Returns
    None if the RMW is not Fast DDS.
    """
    environ = os.environ if environ is None else environ
    if environ.get(PROFILE_ENV):
        return environ[PROFILE_ENV]
    if not environ.get('RMW_IMPLEMENTATION', 'rmw_fastrtps_cpp').startswith('rmw_fastrtps'):
        return None
    environ[PROFILE_ENV] = profile_path()
    return environ[PROFILE_ENV]
