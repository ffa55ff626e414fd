# SPDX-License-Identifier: Apache-2.0
"""tf2_msgs/msg/TFMessage: the workspace's (or sourced distro's) hash equals geometry2's."""

import json
import pathlib

from ament_index_python.packages import get_package_share_directory

# rosidl_generator_type_description of the ROS 2 wheels on geometry2's TFMessage.msg
# (TOOLCHAIN-FACTS); the same on Kilted and Jazzy.
TF_MESSAGE = 'RIHS01_e369d0f05a23ae52508854b66f6aa0437f3449d652e8cbf22d5abe85d020f087'


def test_tf_message_definition_and_hash_equal_the_distros():
    share = pathlib.Path(get_package_share_directory('tf2_msgs')) / 'msg'
    assert (share / 'TFMessage.msg').read_text().split() == [
        'geometry_msgs/TransformStamped[]', 'transforms']
    described = json.loads((share / 'TFMessage.json').read_text())
    hashes = {h['type_name']: h['hash_string'] for h in described['type_hashes']}
    assert hashes['tf2_msgs/msg/TFMessage'] == TF_MESSAGE


def test_live_tf_publisher_advertises_the_pinned_hash(ros_node):
    from tf2_msgs.msg import TFMessage
    publisher = ros_node.create_publisher(TFMessage, 'type_hash_tf2_msgs', 1)
    try:
        infos = ros_node.get_publishers_info_by_topic('type_hash_tf2_msgs')
        assert [i.topic_type for i in infos] == ['tf2_msgs/msg/TFMessage']
        assert str(infos[0].topic_type_hash) == TF_MESSAGE
    finally:
        ros_node.destroy_publisher(publisher)
