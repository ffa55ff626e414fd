# SPDX-License-Identifier: Apache-2.0
"""An oversized JointCommand is refused on its raw size, before any decoding."""

from hb50_commons.msg import JointCommand
from hb50_nodes import bridge_node
from hb50_nodes.bridge_node import BridgeNode, MAX_COMMAND_BYTES
from hb50_nodes.layout import JOINT_NAMES, NUM_JOINTS
import pytest
import rclpy
from rclpy.serialization import serialize_message


@pytest.fixture
def node(domain_id):
    ctx = rclpy.Context()
    ctx.init()
    node = BridgeNode(context=ctx)
    yield node
    node.destroy_node()
    ctx.try_shutdown()


def _raw(source='control_node', n=NUM_JOINTS):
    return serialize_message(JointCommand(
        source_node=source, name=list(JOINT_NAMES), kp=[0.0] * n, ki=[0.0] * n,
        kd=[0.0] * n, t_pos=[0.0] * n, t_vel=[0.0] * n, t_trq=[0.0] * n, brake=[False] * n))


def test_an_oversized_command_is_rejected_without_being_decoded(node, monkeypatch):
    decoded = []
    monkeypatch.setattr(bridge_node.cdr, 'joint_command_body',
                        lambda raw: decoded.append(len(raw)) or bytes(raw[4:]))
    huge = _raw(n=10_000)
    assert len(huge) > MAX_COMMAND_BYTES
    node.on_command(huge)
    assert decoded == [] and node.core.rejected == 1 and node.core.applied == 0
    node.on_command(_raw(source='x' * (1 << 20)))
    assert decoded == [] and node.core.rejected == 2
    assert 'rejected commands: 2' in node.core.status_strings()


def test_a_normal_command_is_still_decoded_and_applied(node):
    node.on_command(_raw())
    assert node.core.rejected == 0 and node.core.applied == 1


def test_rejected_commands_do_not_pile_up_in_memory(node):
    # Each refusal's result is kept until the next command (a repeat is not validated
    # again); a traceback on it kept every earlier refusal alive with its frames: +14 MB over
    # 2000 invalid commands.
    import gc
    from hb50_nodes.validation import InvalidCommand
    for i in range(300):
        node.on_command(_raw(source=f'flood_{i}', n=NUM_JOINTS - 1))     # wrong length
    assert node.core.rejected == 300
    gc.collect()
    alive = [o for o in gc.get_objects() if isinstance(o, InvalidCommand)]
    assert len(alive) <= 2
    assert all(o.__traceback__ is None for o in alive)
