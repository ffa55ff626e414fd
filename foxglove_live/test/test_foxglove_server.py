# SPDX-License-Identifier: Apache-2.0
"""
Foxglove live view of the HB50 stack, checked by a plain WebSocket client.

The client follows Foxglove's ws-protocol v1 (JSON serverInfo/advertise/subscribe, binary
MessageData opcode 0x01). foxglove-sdk 0.30 negotiates it under the subprotocol name
`foxglove.sdk.v1` (it answers HTTP 400 to the legacy `foxglove.websocket.v1` alone), so the
client offers both names, as the Foxglove app does.
"""

import asyncio
import json
import socket
import struct
import time

import pytest
from ros2bag_mcap import testing as th
import workspace_testing as wt

HB50_TOPICS = {
    '/hb50/bridge_data': 'hb50_commons/msg/BridgeData',
    '/hb50/bridge_state': 'hb50_commons/msg/BridgeState',
    '/hb50/bridge_state_10hz': 'hb50_commons/msg/BridgeState',
    '/hb50/joint_command': 'hb50_commons/msg/JointCommand',
    '/hb50/robot_state': 'hb50_commons/msg/RobotState',
    '/hb50/robot_state_10hz': 'hb50_commons/msg/RobotState',
    '/hb50/status': 'hb50_commons/msg/Status',
    '/hb50/heartbeat': 'hb50_commons/msg/Status',
}
# /hb50/status carries events only: it exists (advertised) once a node reported one.
STREAMED = [t for t in HB50_TOPICS if t != '/hb50/status']
SUBPROTOCOLS = ['foxglove.sdk.v1', 'foxglove.websocket.v1']


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


async def client(port, wanted, listen_s):
    """
    Connect, collect advertisements, subscribe; return what arrived.

    Advertisements are collected until every `wanted` topic is there; the result is
    (channels by topic, {topic: [(log time, payload)]}).
    """
    import websockets
    deadline = time.monotonic() + 20
    while True:     # the server binds once rclpy and the SDK are loaded
        try:
            ws = await websockets.connect(f'ws://127.0.0.1:{port}',
                                          subprotocols=SUBPROTOCOLS,
                                          max_size=None)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)
    async with ws:
        assert ws.subprotocol in SUBPROTOCOLS
        channels = {}
        server_info = None
        deadline = time.monotonic() + 20
        while not set(wanted) <= set(channels) and time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except asyncio.TimeoutError:
                continue
            if isinstance(raw, str):
                msg = json.loads(raw)
                if msg['op'] == 'serverInfo':
                    server_info = msg
                elif msg['op'] == 'advertise':
                    for ch in msg['channels']:
                        channels[ch['topic']] = ch
        assert server_info is not None
        by_sub = dict(enumerate(sorted(channels), start=1))
        await ws.send(json.dumps({'op': 'subscribe', 'subscriptions': [
            {'id': i, 'channelId': channels[t]['id']} for i, t in by_sub.items()]}))
        received = {t: [] for t in channels}
        end = time.monotonic() + listen_s
        while time.monotonic() < end:
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except asyncio.TimeoutError:
                continue
            if isinstance(raw, bytes) and raw[0] == 0x01:     # MessageData
                sub_id, log_time = struct.unpack_from('<IQ', raw, 1)
                received[by_sub[sub_id]].append((log_time, raw[13:]))
        return channels, received


@pytest.fixture(scope='module')
def session():
    wt.isolate()
    port = free_port()
    stack = th.start_hb50_stack(debug_counts=False)
    probe = th.Probe(HB50_TOPICS, raw=True)
    server = wt.start([wt.executable('foxglove_live', 'foxglove_server'), '--ros-args',
                       '-p', f'port:={port}'])
    try:
        assert wt.wait_for(lambda: probe.count('/hb50/bridge_data') > 100, 20)
        channels, received = asyncio.run(client(port, STREAMED, 6.0))
        time.sleep(0.3)
    finally:
        code, out, _ = wt.stop(server)
        for name in reversed(list(stack)):
            wt.stop(stack[name])
        probe.settle()      # the publishers are gone: the probe takes what it still queues
        probe.close()
    return {'channels': channels, 'received': received, 'probe': probe, 'code': code,
            'out': out}


def test_every_topic_advertised_with_ros2msg_schema(session):
    channels = session['channels']
    for topic in STREAMED:
        ch = channels[topic]
        assert ch['encoding'] == 'cdr'
        assert ch['schemaEncoding'] == 'ros2msg'
        assert ch['schemaName'] == HB50_TOPICS[topic]
    text = channels['/hb50/bridge_data']['schema']
    assert text.startswith('# High-rate hardware frame from bridge_node')
    assert f'\n{"=" * 80}\nMSG: std_msgs/Header\n' in text
    assert 'MSG: builtin_interfaces/Time' in text


def test_messages_decode_equal_to_live(session):
    """
    The WebSocket payloads are the CDR bytes a live subscriber received, and decode.

    The live probe shares this process with the WebSocket client, so under load it drops
    some best-effort samples: each payload must decode, and a good share of them must be
    byte-identical to (hence decode equal to) a sample the probe received.
    """
    from rclpy.serialization import deserialize_message
    from ros2bag_mcap.schema import message_class
    probe = session['probe']
    for topic in STREAMED:
        got = session['received'][topic]
        assert got, f'{topic}: no message over the WebSocket'
        cls = message_class(HB50_TOPICS[topic])
        live = {bytes(data) for _, data in probe.records[topic]}
        matched = 0
        for _, payload in got:
            msg = deserialize_message(bytes(payload), cls)
            assert isinstance(msg, cls)
            matched += bytes(payload) in live
        assert matched >= min(10, len(got)), f'{topic}: {matched} of {len(got)} matched'
        assert matched >= 0.2 * len(got), f'{topic}: {matched} of {len(got)} matched'


def test_server_exits_cleanly(session):
    assert session['code'] == 0, session['out']
    assert 'Traceback' not in session['out']
