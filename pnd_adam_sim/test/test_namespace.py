# SPDX-License-Identifier: Apache-2.0
"""adam_sim --namespace: the vendor's DDS topic names under a ROS namespace, or a clear error."""

from pnd_adam_sim import simulator
from pnd_adam_sim.vendor_idl import namespaced, TOPIC_LOWCMD, TOPIC_LOWSTATE
import pytest


def test_namespaced_topics_follow_the_ros_name_mangling():
    assert namespaced(TOPIC_LOWSTATE) == 'rt/lowstate'
    assert namespaced(TOPIC_LOWSTATE, '/') == 'rt/lowstate'
    assert namespaced(TOPIC_LOWSTATE, '/robot1') == 'rt/robot1/lowstate'
    assert namespaced(TOPIC_LOWCMD, '/site_a/robot_2') == 'rt/site_a/robot_2/lowcmd'


@pytest.mark.parametrize('bad', ['robot1', '/robot1/', '/1robot', '//a', '/a b', '/a-b'])
def test_a_namespace_that_is_not_a_ros_one_is_refused(bad):
    with pytest.raises(ValueError, match='not a ROS namespace'):
        namespaced(TOPIC_LOWSTATE, bad)


def test_adam_sim_exits_2_with_one_line_on_a_bad_namespace(capsys):
    assert simulator.main(['--namespace', 'robot1', '--duration', '0.01']) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and 'not a ROS namespace' in err[0], err
