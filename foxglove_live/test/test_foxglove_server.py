# SPDX-License-Identifier: Apache-2.0
"""
Foxglove live view of the HB50 stack, checked by a plain WebSocket client.

The client follows Foxglove's ws-protocol v1 (JSON serverInfo/advertise/subscribe, binary
MessageData opcode 0x01). The server speaks it under both subprotocol names; this client
offers both, as current Foxglove does (test_ws_protocol checks each name alone).
"""

import asyncio
import json
import os
import socket
import struct
import subprocess
import time

import pytest
import workspace_testing as wt
from workspace_testing.hb50_stack import start_hb50_stack
from workspace_testing.messages import plain_fields

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
# /hb50/status carries events only: advertised like the others (its publishers exist from
# the nodes' start), but a quiet stack sends nothing on it, so no message is awaited there.
STREAMED = [t for t in HB50_TOPICS if t != '/hb50/status']
SUBPROTOCOLS = ['foxglove.sdk.v1', 'foxglove.websocket.v1']
LISTEN_S = 4.0
DEFAULT_PORT = 8765


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


def recorded_topics(bag):
    """Topics of which the recorder has written a message (its chunks are flushed each s)."""
    from ros2bag_mcap.bag import scan_file
    check = scan_file(os.path.join(bag, os.path.basename(bag) + '_0.mcap'))
    return {t for t, n in check.counts.items() if n}


@pytest.fixture(scope='module')
def session(tmp_path_factory):
    """
    Run the HB50 stack, the server, a WebSocket client and a live reference.

    The reference is `ros2 bag record` of the same topics (its own process, nothing lost:
    ros2bag_mcap's tests), receiving before the client subscribes and until after the
    server stopped. Meanwhile a second server on the default port, held busy here, must
    fail on its own.
    """
    wt.isolate()
    port = wt.free_port()
    bag = str(tmp_path_factory.mktemp('foxglove') / 'live')
    busy = socket.socket()
    try:
        busy.bind(('127.0.0.1', DEFAULT_PORT))
        busy.listen()
    except OSError:
        pass        # already in use by another process: busy all the same
    stack = start_hb50_stack(debug_counts=False)
    server_exe = wt.executable('foxglove_live', 'foxglove_server')
    recorder = wt.start([wt.executable('ros2bag_mcap', 'ros2bag'), 'record', *HB50_TOPICS,
                         '-o', bag])
    server = wt.start([server_exe, '--ros-args', '-p', f'port:={port}'])
    second = wt.start([server_exe], separate_stderr=True)
    try:
        assert wt.wait_for(lambda: recorded_topics(bag) >= set(STREAMED), 40, period=0.3), \
            'the recorder did not receive every HB50 topic'
        channels, received = asyncio.run(client(port, list(HB50_TOPICS), LISTEN_S))
        try:
            second.wait(30)
        except subprocess.TimeoutExpired:
            pass        # test_busy_port_is_one_line_error reports it
    finally:
        code, out, _ = wt.stop(server)
        for name in reversed(list(stack)):
            wt.stop(stack[name])
        time.sleep(0.3)
        rec = wt.stop(recorder)
        busy_port = wt.stop(second)
        busy.close()
    from ros2bag_mcap.bag import read_messages
    live = {}
    for topic, _, data, _, _ in read_messages(bag):
        live.setdefault(topic, set()).add(bytes(data))
    return {'channels': channels, 'received': received, 'live': live, 'code': code,
            'out': out, 'rec': rec, 'busy_port': busy_port,
            'busy_port_stderr': second.errors()}


def test_every_topic_advertised_with_ros2msg_schema(session):
    channels = session['channels']
    for topic in HB50_TOPICS:
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
    Every WebSocket payload is the CDR of a live sample, and decodes with its schema.

    The protocol carries the bytes as the server received them: each payload must be
    byte-identical to a sample the live reference received on the same topic (found by
    content). Each is decoded by mcap-ros2-support from the advertised ros2msg text alone
    and must equal that sample as rclpy decodes it. /hb50/status is included: any event it
    carried during the window is checked the same way.
    """
    from mcap.records import Schema
    from mcap_ros2.decoder import DecoderFactory
    from rclpy.serialization import deserialize_message
    from ros2bag_mcap.schema import message_class
    assert session['rec'].returncode == 0, session['rec'].output
    factory = DecoderFactory()
    for topic in HB50_TOPICS:
        payloads = session['received'].get(topic, [])
        if topic in STREAMED:
            assert payloads, f'{topic}: no message over the WebSocket'
        ch = session['channels'][topic]
        decode = factory.decoder_for('cdr', Schema(
            id=ch['id'], name=ch['schemaName'], encoding=ch['schemaEncoding'],
            data=ch['schema'].encode()))
        cls = message_class(HB50_TOPICS[topic])
        live = session['live'].get(topic, set())
        for _, payload in payloads:
            payload = bytes(payload)
            assert payload in live, f'{topic}: a payload is no live sample ({len(payloads)})'
            expected = deserialize_message(payload, cls)
            assert plain_fields(decode(payload), expected) == \
                plain_fields(expected, expected), f'{topic}: decodes differently'


def test_busy_port_is_one_line_error(session):
    """A server whose port is taken exits 1 on its own with one line on stderr."""
    stopped = session['busy_port']
    assert stopped.signal is None and stopped.returncode == 1, stopped.output
    err = session['busy_port_stderr'].strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith('foxglove_server: error: cannot start the Foxglove server'), err
    assert str(DEFAULT_PORT) in err or 'in use' in err, err
    assert 'Traceback' not in stopped.output + err


def test_server_exits_cleanly(session):
    assert session['code'] == 0, session['out']
    assert 'Traceback' not in session['out']
    assert 'Callback failed' not in session['out']
