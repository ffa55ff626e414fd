# SPDX-License-Identifier: Apache-2.0
import os
import xml.etree.ElementTree as ET

from ament_index_python.packages import get_package_share_directory

from pnd_adam_examples.fastdds_profile import PROFILE_ENV, profile_path, use_interop_profile
from pnd_adam_examples.trajectory import min_jerk

SHARE = get_package_share_directory('pnd_adam_examples')


def test_profile_installed_and_disables_type_propagation():
    path = profile_path()
    assert path == os.path.join(SHARE, 'config', 'fastdds_adam_interop.xml')
    ns = {'f': 'http://www.eprosima.com'}
    root = ET.parse(path).getroot()
    part = root.find('f:profiles/f:participant', ns)
    assert part.get('is_default_profile') == 'true'
    props = {p.find('f:name', ns).text: p.find('f:value', ns).text
             for p in part.iter('{http://www.eprosima.com}property')}
    assert props == {'fastdds.type_propagation': 'disabled'}


def test_use_interop_profile_respects_user_choice():
    env = {}
    assert use_interop_profile(env) == profile_path() and env[PROFILE_ENV] == profile_path()
    env = {PROFILE_ENV: '/etc/my_profile.xml'}
    assert use_interop_profile(env) == '/etc/my_profile.xml'
    env = {'RMW_IMPLEMENTATION': 'rmw_cyclonedds_cpp'}
    assert use_interop_profile(env) is None and PROFILE_ENV not in env


def test_min_jerk_endpoints_and_midpoint():
    q, dq = min_jerk([0.0, 1.0], [1.0, -1.0], 0.0, 2.0)
    assert q == [0.0, 1.0] and dq == [0.0, 0.0]
    q, dq = min_jerk([0.0, 1.0], [1.0, -1.0], 1.0, 2.0)
    assert q == [0.5, 0.0] and dq == [0.9375, -1.875]  # peak speed 1.875*dist/T
    q, dq = min_jerk([0.0], [1.0], 5.0, 2.0)
    assert q == [1.0] and dq == [0.0]


def test_launch_file_points_fast_dds_at_the_interop_profile():
    # (Packages/executables/share files of every launch file: workspace_tests.)
    text = open(os.path.join(SHARE, 'launch', 'arm_pose.launch.py'), encoding='utf-8').read()
    assert "'FASTDDS_DEFAULT_PROFILES_FILE'" in text and "'fastdds_adam_interop.xml'" in text
