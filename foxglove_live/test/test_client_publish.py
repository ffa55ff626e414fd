# SPDX-License-Identifier: Apache-2.0
"""
Drive the HB50 from a Foxglove client: clientPublish, connectionGraph, bad client input.

The client is written from Foxglove's published ws-protocol spec (text ops `advertise`,
`subscribe`, `subscribeConnectionGraph`; binary client MessageData opcode 0x01 = uint32
channel id + payload; server MessageData opcode 0x01 = uint32 subscription id + uint64
log time + payload).
"""

import asyncio
import json
import struct
import time

import pytest
import workspace_testing as wt
from workspace_testing.hb50_stack import start_hb50_stack

# Foxglove Studio 1.x and Lichtblick up to 1.21 offer only the legacy name.
SUBPROTOCOLS = ['foxglove.websocket.v1']
TWIST = {'linear': {'x': 1.0, 'y': 0.0, 'z': 0.0}, 'angular': {'x': 0.0, 'y': 0.0, 'z': 0.0}}


async def connect(port):
    import websockets
    deadline = time.monotonic() + 30
    while True:
        try:
            return await websockets.connect(f'ws://127.0.0.1:{port}',
                                            subprotocols=SUBPROTOCOLS, max_size=None)
        except OSError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


async def drive(port):
    """Advertise, stand, drive at 20 Hz for 5 s; send bad inputs; collect what came back."""
    from geometry_msgs.msg import Twist
    from hb50_commons.msg import RobotState
    from rclpy.serialization import deserialize_message, serialize_message
    ws = await connect(port)
    out = {'status': [], 'graph': [], 'x': []}
    async with ws:
        info = json.loads(await ws.recv())
        out['info'] = info
        channels = {}
        deadline = time.monotonic() + 30
        while '/hb50/robot_state_10hz' not in channels and time.monotonic() < deadline:
            msg = await asyncio.wait_for(ws.recv(), 30)
            if isinstance(msg, str) and json.loads(msg)['op'] == 'advertise':
                for ch in json.loads(msg)['channels']:
                    channels[ch['topic']] = ch
        await ws.send(json.dumps({'op': 'subscribe', 'subscriptions': [
            {'id': 7, 'channelId': channels['/hb50/robot_state_10hz']['id']}]}))
        await ws.send(json.dumps({'op': 'subscribeConnectionGraph'}))
        await ws.send(json.dumps({'op': 'advertise', 'channels': [
            {'id': 1, 'topic': '/hb50/velocity_command', 'encoding': 'json',
             'schemaName': 'geometry_msgs/msg/Twist'},
            {'id': 2, 'topic': '/hb50/velocity_command', 'encoding': 'cdr',
             'schemaName': 'geometry_msgs/msg/Twist'},
            {'id': 3, 'topic': '/not_allowed', 'encoding': 'json',
             'schemaName': 'geometry_msgs/msg/Twist'},
            {'id': 4, 'topic': '/hb50/velocity_command', 'encoding': 'json',
             'schemaName': 'no_such_pkg/msg/Nothing'}]}))

        async def reader():
            while True:
                msg = await ws.recv()
                if isinstance(msg, bytes):
                    if msg[0] == 0x01 and struct.unpack_from('<I', msg, 1)[0] == 7:
                        state = deserialize_message(bytes(msg[13:]), RobotState)
                        out['x'].append((time.monotonic(), state.pose.position.x))
                    continue
                op = json.loads(msg)
                if op['op'] == 'status':
                    out['status'].append(op['message'])
                elif op['op'] == 'connectionGraphUpdate':
                    out['graph'].append(op)
        task = asyncio.ensure_future(reader())
        await asyncio.sleep(3.0)       # the control node stands up (stand_up_time 2 s)
        start = time.monotonic()
        bad = [(1, b'{"linear": '), (1, b'{"linear": {"x": "fast"}}'), (2, b'\x00\x01\x00'),
               (2, b'\x00\x01\x00\x00' + b'\x00' * (1 << 21))]
        cdr = serialize_message(Twist())
        i = 0
        while time.monotonic() - start < 5.0:
            if i % 2:
                await ws.send(struct.pack('<BI', 1, 1) + json.dumps(TWIST).encode())
            else:
                twist = Twist()
                twist.linear.x = 1.0
                cdr = serialize_message(twist)
                await ws.send(struct.pack('<BI', 1, 2) + cdr)
            if i < len(bad):
                channel, payload = bad[i]
                await ws.send(struct.pack('<BI', 1, channel) + payload)
            i += 1
            await asyncio.sleep(0.05)
        out['start'] = start
        out['sent'] = i
        await asyncio.sleep(1.0)
        task.cancel()
    return out


@pytest.fixture(scope='module')
def session():
    wt.isolate()
    port = wt.free_port()
    stack = start_hb50_stack(debug_counts=False)
    server = wt.start([wt.executable('foxglove_live', 'foxglove_server'), '--ros-args',
                       '-p', f'port:={port}',
                       '-p', 'client_topic_whitelist:=[/hb50/velocity_command]'])
    try:
        out = asyncio.run(drive(port))
    finally:
        code, log, _ = wt.stop(server)
        for name in reversed(list(stack)):
            wt.stop(stack[name])
    out['code'], out['log'] = code, log
    return out


def test_capabilities_advertised(session):
    caps = set(session['info']['capabilities'])
    assert {'clientPublish', 'connectionGraph', 'assets'} <= caps, caps
    # no sim time here: an app shown `time` would wait for a clock that never comes
    assert 'time' not in caps, caps
    assert set(session['info']['supportedEncodings']) >= {'cdr', 'json'}


def test_twist_at_20hz_for_5s_walks(session):
    xs = session['x']
    before = [x for t, x in xs if t <= session['start']]
    assert before and xs, 'no robot_state over the WebSocket'
    assert session['sent'] >= 80
    walked = max(x for _, x in xs) - before[-1]
    assert walked >= 0.3, walked


def test_connection_graph_lists_hb50_publishers(session):
    published = {}
    for update in session['graph']:
        for topic in update.get('publishedTopics', []):
            published[topic['name']] = set(topic['publisherIds'])
    assert '/hb50/bridge_node' in published.get('/hb50/bridge_data', set()), published
    assert '/hb50/control_node' in published.get('/hb50/robot_state', set()), published


def test_bad_input_answered_with_status(session):
    text = '\n'.join(session['status'])
    assert 'not in client_topic_whitelist' in text, text
    assert 'no_such_pkg' in text, text
    assert 'malformed JSON' in text, text
    assert 'linear.x' in text, text
    assert 'malformed CDR' in text, text
    assert 'max_client_message_bytes' in text, text


def test_server_exits_cleanly(session):
    assert session['code'] == 0, session['log']
    assert 'Traceback' not in session['log']
    assert 'Callback failed' not in session['log']
