# SPDX-License-Identifier: Apache-2.0
"""
The DDS names a non-ROS peer sees for our types.

The PND Adam robot speaks plain DDS
with types named pnd_adam::msg::dds_::<Name>_ on topics rt/<topic>: a ROS 2 publisher of
pnd_adam/msg/<Name> must announce exactly that, or it never matches the robot. Read from
discovery by a Cyclone DDS participant (a real, non-ROS peer), not built as a string here.
"""

import os
import time

from cyclonedds.builtin import BuiltinDataReader, BuiltinTopicDcpsPublication
from cyclonedds.domain import DomainParticipant
from interface_spec import MESSAGES
from interface_values import import_type
import pytest
from workspace_testing.adam_sim import cyclone_localhost_uri

# Expected DDS type name of every message type, written out in full on purpose.
EXPECTED = {
    'pnd_adam/msg/LowState': 'pnd_adam::msg::dds_::LowState_',
    'pnd_adam/msg/LowCmd': 'pnd_adam::msg::dds_::LowCmd_',
    'pnd_adam/msg/HandState': 'pnd_adam::msg::dds_::HandState_',
    'pnd_adam/msg/HandCmd': 'pnd_adam::msg::dds_::HandCmd_',
    'pnd_adam/msg/MotorState': 'pnd_adam::msg::dds_::MotorState_',
    'pnd_adam/msg/MotorCmd': 'pnd_adam::msg::dds_::MotorCmd_',
    'pnd_adam/msg/IMUState': 'pnd_adam::msg::dds_::IMUState_',
    'pnd_adam/msg/BatteryData': 'pnd_adam::msg::dds_::BatteryData_',
    'hb50_commons/msg/BridgeData': 'hb50_commons::msg::dds_::BridgeData_',
    'hb50_commons/msg/JointCommand': 'hb50_commons::msg::dds_::JointCommand_',
    'robstride_interfaces/msg/RobstrideState': 'robstride_interfaces::msg::dds_::RobstrideState_',
}


@pytest.fixture(scope='module')
def cyclone_publications(domain_id):
    os.environ['CYCLONEDDS_URI'] = cyclone_localhost_uri()
    participant = DomainParticipant(domain_id)
    reader = BuiltinDataReader(participant, BuiltinTopicDcpsPublication)

    def wait_for(topic_name, timeout=15.0):
        end = time.monotonic() + timeout
        seen = {}
        while time.monotonic() < end:
            for sample in reader.take(N=64):
                seen[sample.topic_name] = sample.type_name
            if topic_name in seen:
                return seen[topic_name]
            time.sleep(0.05)
        return None

    # The reader and the participant close when the fixture's frame and wait_for go away.
    yield wait_for


def test_expected_names_cover_every_pnd_adam_message():
    assert {n for n in MESSAGES if n.startswith('pnd_adam/')} <= set(EXPECTED)


@pytest.mark.parametrize('name', sorted(EXPECTED))
def test_ros_publisher_announces_vendor_dds_type_name(ros_node, cyclone_publications, name):
    ros_topic = 'type_name_' + name.split('/')[-1].lower()
    publisher = ros_node.create_publisher(import_type(name), ros_topic, 1)
    try:
        # ROS 2 maps the topic to rt/<topic> on the wire; the type name is the peer's view.
        assert cyclone_publications('rt/' + ros_topic) == EXPECTED[name]
    finally:
        ros_node.destroy_publisher(publisher)
