# SPDX-License-Identifier: Apache-2.0
"""UrdfWriter's format: the text both generated URDF files (HB50, Adam U) are written in."""

import math
import xml.etree.ElementTree as ET

from robot_model.quaternion import axis_rotation
from robot_model.urdf import Joint, number, UrdfWriter

EXPECTED = """<?xml version="1.0"?>
<robot name="r">
  <!-- made by a test -->
  <material name="grey">
    <color rgba="0.5 0.5 0.5 1" />
  </material>
  <link name="base">
    <inertial>
      <origin xyz="0 -0 0.1" rpy="0 0 0" />
      <mass value="2.5" />
      <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.003" />
    </inertial>
    <visual>
      <origin xyz="0 0 0" rpy="1.57079633 0 0" />
      <geometry>
        <cylinder radius="0.035" length="0.08" />
      </geometry>
      <material name="grey" />
    </visual>
    <collision>
      <origin xyz="0 0 0" rpy="1.57079633 0 0" />
      <geometry>
        <cylinder radius="0.035" length="0.08" />
      </geometry>
    </collision>
  </link>
  <link name="tip" />
  <joint name="j" type="revolute">
    <parent link="base" />
    <child link="tip" />
    <origin xyz="0.1 0 0" rpy="0 0 1.57079633" />
    <axis xyz="0 1 0" />
    <limit lower="-1" upper="1" effort="30" velocity="20" />
  </joint>
  <joint name="f" type="fixed">
    <parent link="tip" />
    <child link="base" />
    <origin xyz="0 0 -0.2" rpy="0 0 0" />
  </joint>
</robot>
"""


def test_the_format_of_links_shapes_and_joints():
    urdf = UrdfWriter('r', ' made by a test ', {'grey': (0.5, 0.5, 0.5, 1.0)})
    base = urdf.link('base')
    urdf.inertial(base, (0.0, -0.0, 0.1), 2.5, (0.001, 0.002, 0.003))
    urdf.shape(base, 'grey', urdf.cylinder(0.035, 0.08), (0.0, 0.0, 0.0), (math.pi / 2, 0, 0))
    urdf.link('tip')
    urdf.joint(Joint('j', 'revolute', 'base', 'tip', (0.1, 0.0, 0.0),
                     axis_rotation((0.0, 0.0, 1.0), math.pi / 2), (0.0, 1.0, 0.0),
                     lower=-1.0, upper=1.0, effort=30.0, velocity=20.0))
    urdf.joint(Joint('f', 'fixed', 'tip', 'base', (0.0, 0.0, -0.2)))
    assert urdf.text() == EXPECTED


def test_zero_writes_rounding_noise_as_zero():
    noisy = (1e-17, -0.0, 0.25)
    assert UrdfWriter('r', '', {}).vector(noisy) == '1e-17 -0 0.25'
    assert UrdfWriter('r', '', {}, zero=1e-12).vector(noisy) == '0 0 0.25'
    assert UrdfWriter('r', '', {}, zero=1e-12).box((0.1, 1e-13, 0.3)) == (
        'box', {'size': '0.1 0 0.3'})
    assert number(1 / 3) == '0.333333333'


def test_the_text_parses_and_spheres_and_boxes_have_both_elements():
    urdf = UrdfWriter('r', '', {'m': (1.0, 0.0, 0.0, 1.0)})
    link = urdf.link('a')
    urdf.shape(link, 'm', urdf.sphere(0.02), (0.0, 0.0, 0.0))
    urdf.shape(link, 'm', urdf.box((0.2, 0.1, 0.05)), (0.0, 0.0, 0.0))
    root = ET.fromstring(urdf.text().split('\n', 1)[1])
    a = root.find('link')
    assert [el.tag for el in a] == ['visual', 'collision', 'visual', 'collision']
    assert a.find('visual/geometry/sphere').get('radius') == '0.02'
    assert a.find('collision/geometry/box').get('size') == '0.2 0.1 0.05'
    assert a.find('collision/material') is None
