# SPDX-License-Identifier: Apache-2.0
"""
~/joint_commands is taken in the cycle, not by the executor (issue 40), and nothing starves.

The node runs in this process on the runner's own loop (node_runtime's DeadlineLoop spinning
an EventsExecutor, as main() runs it). A peer node in the same executor floods the commands
from inside the loop, 10 per period (2 kHz with the loop at 200 Hz), and talks to the
services. Every figure is a count of the loop's own ticks: nothing is timed.

- flood: the 10 commands published after tick k are all taken and applied by tick k+1; a
  parameter set sent after tick k is served before tick k+1 (half at least, nearly all on a
  quiet machine) or tick k+2 (nearly all), every one in the end: DDS delivers a request in
  its own threads, on a loaded machine sometimes after tick k+1 has begun;
- busy services: with 40 service requests always waiting, the commands are still all taken
  by the next tick, and the services are still answered.
"""

import itertools
import os

from node_runtime.loop import DeadlineLoop
import pytest
from rcl_interfaces.msg import SetParametersResult
from rcl_interfaces.srv import SetParameters
import rclpy
from rclpy.experimental import EventsExecutor
from rclpy.parameter import Parameter
from robstride_interfaces.srv import GetDataFromRobstride
from robstride_sim.node import RobstrideSimNode
from robstride_sim.qos import COMMAND_QOS
from sensor_msgs.msg import JointState

# The loop at 200 Hz, so that "one period" (5 ms) is not dominated by how late DDS's own
# threads deliver a service request on a loaded 2-core machine; the flood at 2 kHz, as many
# per period as the command reader keeps (depth 10): a tick that failed to take them all
# would lose some.
RATE_HZ = 200.0
FLOOD_PER_TICK = 10
TICKS = 250
WARMUP_ROUNDS = 100     # rounds of 10 ticks at most until every joint is enabled
_ns = itertools.count()


@pytest.fixture
def rig(ros):
    ns = f'/rs_polled_{os.getpid()}_{next(_ns)}'
    node = RobstrideSimNode(namespace=ns, parameter_overrides=[
        Parameter('update_rate_hz', value=RATE_HZ)])
    peer = rclpy.create_node(f'rs_polled_peer_{next(_ns)}')
    executor = EventsExecutor()
    executor.add_node(node)
    executor.add_node(peer)
    yield node, peer, executor
    executor.shutdown(timeout_sec=1.0)
    peer.destroy_node()
    node.close()
    node.destroy_node()


def _command(seq):
    # A distinct target per command: the last one applied shows in the joints' targets.
    return JointState(name=['joint_1', 'joint_2'], position=[seq * 1e-4, -seq * 1e-4])


def _warm_up(node, executor):
    """Tick until every joint is enabled: from then on a target is held as commanded."""
    for _ in range(WARMUP_ROUNDS):
        _run(node, executor, 10, lambda k, loop: None)
        if all(j.enabled for j in node.hw.joints):
            return
    raise AssertionError(f'joints never enabled: {[j.run_state for j in node.hw.joints]}')


def _run(node, executor, ticks, after_tick):
    """Run `ticks` cycles of the node on a DeadlineLoop; after_tick(k, loop) after each."""
    loop = None
    done = [0]

    def tick(deadline):
        node.tick(deadline)
        after_tick(done[0], loop)
        done[0] += 1
    loop = DeadlineLoop(node.period, tick, raise_errors=True)
    loop.run(executor, lambda: done[0] < ticks)
    return loop


def test_commands_taken_each_tick_and_parameters_answered_while_flooding(rig):
    node, peer, executor = rig
    prefix = f'{node.get_namespace()}/{node.get_name()}'
    pub = peer.create_publisher(JointState, f'{prefix}/joint_commands', COMMAND_QOS)
    set_client = peer.create_client(SetParameters, f'{prefix}/set_parameters')
    assert set_client.wait_for_service(timeout_sec=10.0)
    _warm_up(node, executor)

    served = [0]            # parameter sets the node has run (all valid: all applied)

    def count_served(_parameters):
        served[0] += 1
        return SetParametersResult(successful=True)
    node.add_on_set_parameters_callback(count_served)
    published = [0]
    late_takes = []         # ticks that had not taken everything published before the last
    served_at = []          # served[0] at each tick, after the tick
    stalls_at = []          # the loop's stalls and missed slots so far, at each tick

    def after_tick(k, loop):
        if node.commands.taken - taken_before != published[0]:
            late_takes.append((k, node.commands.taken - taken_before, published[0]))
        served_at.append(served[0])
        stalls_at.append((loop.stalls, loop.missed_slots))
        for _ in range(FLOOD_PER_TICK):
            published[0] += 1
            pub.publish(_command(published[0]))
        # Request number k, after tick k: served before tick k+1 when served_at[k+1] > k.
        gain = 1.0 + k / 1000.0
        futures.append(set_client.call_async(SetParameters.Request(
            parameters=[Parameter('sim.heat_gain', value=gain).to_parameter_msg()])))

    futures = []
    taken_before = node.commands.taken
    _run(node, executor, TICKS, after_tick)

    # Every tick took all that was published before the previous one ended: within a period.
    assert late_takes == []
    assert node.commands.taken - taken_before == published[0] - FLOOD_PER_TICK
    assert node.hw.refused == {}
    targets = [j.target_position for j in node.hw.joints]
    last = published[0] - FLOOD_PER_TICK    # the last batch was never ticked
    assert targets == pytest.approx([last * 1e-4, -last * 1e-4])
    # The node serves a request waiting at a tick before the next one. DDS delivers a request
    # in its own threads: on a loaded machine (load average 15 on 2 cores seen while other
    # suites ran) some arrive only after tick k+1 began, a few even later. So: most sets
    # served within one period of being sent, nearly all within two (a stall of the loop, or
    # a period it missed, excuses one), every one in the end.
    checked = range(TICKS - 2)
    within_one = [k for k in checked if served_at[k + 1] > k]
    late = [k for k in checked if served_at[k + 2] <= k and stalls_at[k + 2] == stalls_at[k]]
    assert len(within_one) >= len(checked) // 2, f'{len(within_one)} of {len(checked)}'
    assert len(late) <= len(checked) // 5, f'{len(late)} of {len(checked)} served late'
    _run(node, executor, 5, lambda k, loop: None)
    assert all(f.done() and f.result().results[0].successful for f in futures)
    assert served[0] == len(futures) == TICKS


def test_commands_taken_each_tick_while_services_are_busy(rig):
    node, peer, executor = rig
    prefix = f'{node.get_namespace()}/{node.get_name()}'
    pub = peer.create_publisher(JointState, f'{prefix}/joint_commands', COMMAND_QOS)
    client = peer.create_client(GetDataFromRobstride, f'{prefix}/get_data_from_robstride')
    assert client.wait_for_service(timeout_sec=10.0)
    _warm_up(node, executor)

    backlog = 40
    published = [0]
    late_takes = []
    waiting = []
    answered = [0]
    backlog_seen = []

    def after_tick(k, loop):
        if node.commands.taken - taken_before != published[0]:
            late_takes.append((k, node.commands.taken - taken_before, published[0]))
        still = [f for f in waiting if not f.done()]
        answered[0] += len(waiting) - len(still)
        waiting[:] = still
        backlog_seen.append(len(waiting))
        for _ in range(FLOOD_PER_TICK):
            published[0] += 1
            pub.publish(_command(published[0]))
        while len(waiting) < backlog:
            waiting.append(client.call_async(
                GetDataFromRobstride.Request(id=1, item_name='loc_kp')))

    taken_before = node.commands.taken
    _run(node, executor, TICKS, after_tick)

    # The services were busy all along (requests still waiting at most ticks) ...
    assert sum(1 for n in backlog_seen[1:] if n > 0) >= (TICKS - 1) // 2
    # ... and answered ...
    assert answered[0] > 0
    # ... and every command was taken by the next tick all the same.
    assert late_takes == []
    assert node.commands.taken - taken_before == published[0] - FLOOD_PER_TICK
    last = published[0] - FLOOD_PER_TICK
    assert node.hw.joints[0].target_position == pytest.approx(last * 1e-4)


def test_the_executor_never_takes_the_commands(rig):
    node, peer, executor = rig
    prefix = f'{node.get_namespace()}/{node.get_name()}'
    pub = peer.create_publisher(JointState, f'{prefix}/joint_commands', COMMAND_QOS)
    _warm_up(node, executor)
    for seq in range(1, 4):
        pub.publish(_command(seq))
    for _ in range(50):
        executor.spin_once(timeout_sec=0.001)
    assert node.commands.taken == 0     # spinning alone leaves them waiting
    assert node.commands.subscription not in node.subscriptions
    names = dict(node.get_subscriber_names_and_types_by_node(node.get_name(),
                                                             node.get_namespace()))
    assert f'{prefix}/joint_commands' in names   # still the node's, for ros2 node info
    node.tick(0.0)
    assert node.commands.taken == 3
    assert node.hw.joints[0].target_position == pytest.approx(3e-4)
