# SPDX-License-Identifier: Apache-2.0
"""The installed package: generated modules, stubs, proto sources, ament index."""
import os
import pathlib

import aimrt_protocols_py
from aimrt_protocols_py.messages import JointState
from ament_index_python.packages import get_package_share_directory

PROTOS = ['common/header.proto', 'geometry/quaternion.proto', 'geometry/vector3.proto',
          'sensor/joint_state.proto', 'sensor/joint_command.proto', 'sensor/imu_state.proto',
          'sensor/touch_state.proto']


def test_generated_modules_and_stubs_installed():
    root = pathlib.Path(aimrt_protocols_py.__file__).parent
    for proto in PROTOS:
        stem = root / proto[:-len('.proto')]
        assert stem.with_name(stem.name + '_pb2.py').is_file()
        assert stem.with_name(stem.name + '_pb2.pyi').is_file()
    assert (root / 'py.typed').is_file()


def test_proto_sources_installed_in_share():
    share = pathlib.Path(get_package_share_directory('aimrt_protocols_py'))
    for proto in PROTOS:
        text = (share / 'proto' / 'aimrt_protocols_py' / proto).read_text()
        assert 'syntax = "proto3";' in text


def test_descriptor_names_and_numbers_match_spec():
    d = JointState.DESCRIPTOR
    assert d.full_name == 'aimrt.protocols.sensor.JointState'
    assert [(f.name, f.number) for f in d.fields] == [('header', 1), ('joints', 2)]
    assert d.fields_by_name['header'].message_type.full_name == 'aimrt.protocols.common.Header'
    assert [(f.name, f.number) for f in d.fields_by_name['joints'].message_type.fields] == [
        ('name', 1), ('position', 2), ('velocity', 3), ('effort', 4)]
    assert os.path.basename(d.file.name) == 'joint_state.proto'
