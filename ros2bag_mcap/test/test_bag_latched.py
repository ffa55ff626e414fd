# SPDX-License-Identifier: Apache-2.0
"""`ros2 bag record -a` keeps latched data published before it started (as rosbag2 does)."""

import time

from geometry_msgs.msg import TransformStamped
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rclpy.serialization import deserialize_message
from ros2bag_mcap import bag
from std_msgs.msg import String
from tf2_msgs.msg import TFMessage
import workspace_testing as wt

LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)
URDF = '<robot name="latched_test"><link name="base"/></robot>'


def test_record_all_keeps_robot_description_and_tf_static(tmp_path):
    import rclpy
    wt.isolate()
    ctx = rclpy.Context()
    ctx.init()
    node = rclpy.create_node('latched_test_pub', context=ctx, start_parameter_services=False)
    description = node.create_publisher(String, '/latched_test/robot_description', LATCHED)
    static = node.create_publisher(TFMessage, '/tf_static', LATCHED)
    volatile = node.create_publisher(String, '/latched_test/volatile', 10)
    t = TransformStamped()
    t.header.frame_id, t.child_frame_id = 'base', 'tool'
    t.transform.translation.z = 0.25
    t.transform.rotation.w = 1.0
    # All published once, before the recorder exists: only the latched two can reach it.
    description.publish(String(data=URDF))
    static.publish(TFMessage(transforms=[t]))
    volatile.publish(String(data='gone'))
    uri = str(tmp_path / 'latched')
    rec = wt.start([wt.executable('ros2bag_mcap', 'ros2bag'), 'record', '-a', '-o', uri])
    try:
        assert wt.wait_for(lambda: description.get_subscription_count() > 0
                           and static.get_subscription_count() > 0
                           and volatile.get_subscription_count() > 0, 30), rec.output()
        time.sleep(1.0)     # the latched samples' delivery to the late subscriptions
        code, out, _ = wt.stop(rec)
    finally:
        node.destroy_node()
        ctx.try_shutdown()
    assert code == 0, out
    assert ('Subscribed to topic /tf_static (tf2_msgs/msg/TFMessage, reliable, '
            'transient_local)') in out
    got = {}
    for topic, type_name, data, _, _ in bag.read_messages(uri):
        got.setdefault(topic, []).append((type_name, data))
    ((type_name, data),) = got['/latched_test/robot_description']
    assert type_name == 'std_msgs/msg/String'
    assert deserialize_message(data, String).data == URDF
    ((_, data),) = got['/tf_static']
    (recorded,) = deserialize_message(data, TFMessage).transforms
    assert (recorded.child_frame_id, recorded.transform.translation.z) == ('tool', 0.25)
    assert '/latched_test/volatile' not in got      # volatile: published before, not kept
    topics = {t['topic_metadata']['name']: t['topic_metadata']
              for t in bag.read_metadata(uri)['topics_with_message_count']}
    assert topics['/tf_static']['offered_qos_profiles'][0]['durability'] == 'transient_local'
