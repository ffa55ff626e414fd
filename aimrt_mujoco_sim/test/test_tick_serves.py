# SPDX-License-Identifier: Apache-2.0
"""
The JointCommand server is served in the tick (issue 40), and the flood starves nothing.

The simulator runs in this process on its own DeadlineLoop, without a server thread. A raw
HTTP client pipelines, after every tick, 5 POSTs (2.5 kHz at 500 Hz) on one kept-alive
connection: 4 valid JointCommands and 1 naming an unknown joint. On loopback a send is in
the server's socket when sendall returns, so the counts are exact, per tick:

- every POST sent before tick k was answered and the valid ones applied at tick k (within
  one period), the invalid one refused whole with 422 as before;
- the state batches still go out every publish_every-th tick meanwhile.
"""

import re
import socket
import threading

from aimrt_mujoco_sim.sim import AimrtMujocoSim, load_config
from aimrt_protocols_py.http_channel import channel_path
from aimrt_protocols_py.messages import JointCommand
from node_runtime.loop import DeadlineLoop
from pnd_adam_description.joints import JOINT_LIMITS
import pytest
from workspace_testing import free_port

TICKS = 250
VALID_PER_TICK = 4
STATUS = re.compile(rb'HTTP/1\.1 (\d{3}) ')


def _post(msg):
    body = msg.SerializeToString()
    path = channel_path('joint_command', 'pb:aimrt.protocols.sensor.JointCommand')
    return (f'POST {path} HTTP/1.1\r\nHost: sim\r\nContent-Type: application/protobuf\r\n'
            f'Content-Length: {len(body)}\r\n\r\n').encode() + body


def _command(seq):
    msg = JointCommand()
    for lim in JOINT_LIMITS:
        q = min(max(0.0, lim.q_min), lim.q_max)
        msg.joints.add(name=lim.name, position=q, stiffness=float(seq % 100), damping=1.0)
    return msg


@pytest.fixture
def rig(tmp_path):
    cfg = tmp_path / 'sim.yaml'
    cfg.write_text(f'listen_port: {free_port()}\n')
    sim = AimrtMujocoSim(load_config(str(cfg)), threading.Event())
    client = socket.create_connection(('127.0.0.1', sim.server.port))
    client.setblocking(False)
    yield sim, client
    client.close()
    sim.server.stop()       # the poster's thread was never started


def _answers(client, buffer):
    """Read what the server has answered so far; return the statuses."""
    while True:
        try:
            chunk = client.recv(65536)
        except BlockingIOError:
            break
        if not chunk:
            break
        buffer += chunk
    statuses = [int(m.group(1)) for m in STATUS.finditer(bytes(buffer))]
    return statuses


def _run(sim, ticks, after_tick):
    done = [0]

    def tick(_deadline):
        sim.tick()
        after_tick(done[0])
        done[0] += 1
    loop = DeadlineLoop(sim.period, tick, raise_errors=True)
    loop.run_until_set(sim.stop_event, ticks)
    return loop


def test_posts_answered_and_applied_by_the_next_tick_while_flooding(rig):
    sim, client = rig
    buffer = bytearray()
    # The first POST also makes the server accept the connection: a tick or two.
    client.sendall(_post(_command(0)))
    for _ in range(50):
        _run(sim, 1, lambda k: None)
        if _answers(client, buffer):
            break
    assert _answers(client, buffer) == [200]
    accepted0, rejected0, answered0 = sim.targets.accepted, sim.rejected, 1
    offers = []
    sim.poster.offer = offers.append        # no poster thread here: count the batches
    bad = JointCommand()
    bad.joints.add(name='no_such_joint', position=0.0)
    sent = [0]
    behind = []
    ticks0 = sim.ticks

    def after_tick(k):
        statuses = _answers(client, buffer)[answered0:]
        applied = sim.targets.accepted - accepted0
        if (len(statuses), applied, sim.rejected - rejected0) != \
                (sent[0], sent[0] * VALID_PER_TICK // (VALID_PER_TICK + 1),
                 sent[0] // (VALID_PER_TICK + 1)):
            behind.append((k, len(statuses), applied, sent[0]))
        requests = [_post(_command(k * VALID_PER_TICK + i)) for i in range(VALID_PER_TICK)]
        client.sendall(b''.join(requests + [_post(bad)]))
        sent[0] += VALID_PER_TICK + 1

    _run(sim, TICKS, after_tick)

    assert behind == []
    statuses = _answers(client, buffer)[answered0:]
    answered = (TICKS - 1) * (VALID_PER_TICK + 1)   # the last tick's POSTs were never ticked
    assert statuses == ([200] * VALID_PER_TICK + [422]) * (TICKS - 1)
    assert len(statuses) == answered
    assert sim.targets.accepted - accepted0 == (TICKS - 1) * VALID_PER_TICK
    assert sim.rejected - rejected0 == TICKS - 1
    # The last applied command is in force: stiffness of the last valid one sent.
    last = (TICKS - 2) * VALID_PER_TICK + VALID_PER_TICK - 1
    assert sim.targets.kp.tolist() == [float(last % 100)] * len(JOINT_LIMITS)
    # The state output kept its rate: a batch every publish_every-th tick.
    every = sim.publish_every
    assert len(offers) == sim.ticks // every - ticks0 // every
