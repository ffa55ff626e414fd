# SPDX-License-Identifier: Apache-2.0
"""
The server's protocol side, with a small talker instead of the HB50 stack.

Both subprotocol names connect (and nothing else does); `time` is advertised only with
sim time; a status goes to the client that caused it alone; a latched topic is replayed
to the one subscription that joins late; a client that never reads stalls no other
client; read_only advertises no writing capability; every callback the server makes is
one the ROS side defines.
"""

import ast
import asyncio
import json
import os
import struct
import sys
import time

import pytest
import workspace_testing as wt
from ws_protocol_client import WsClient

# 200 Hz on /chatter; /latched (transient local, depth 1) published once at start.
TALKER = """
import time, rclpy
from rclpy.qos import DurabilityPolicy, QoSProfile
from std_msgs.msg import String
rclpy.init()
node = rclpy.create_node('talker')
chatter = node.create_publisher(String, '/chatter', 10)
latched = node.create_publisher(
    String, '/latched', QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL))
latched.publish(String(data='latched once'))
i = 0
try:
    while True:
        chatter.publish(String(data=f'hello {i}'))
        i += 1
        time.sleep(0.005)
except KeyboardInterrupt:
    pass
"""
SDK, LEGACY = 'foxglove.sdk.v1', 'foxglove.websocket.v1'


def _start_server(port, *params):
    args = [wt.executable('foxglove_live', 'foxglove_server'), '--ros-args',
            '-p', f'port:={port}']
    for param in params:
        args += ['-p', param]
    return wt.start(args)


async def _handshake(port, subprotocols):
    """Return (HTTP status, negotiated subprotocol, serverInfo) of one connection."""
    import websockets
    try:
        ws = await websockets.connect(f'ws://127.0.0.1:{port}',
                                      subprotocols=list(subprotocols))
    except websockets.exceptions.InvalidStatus as exc:
        return exc.response.status_code, None, None
    async with ws:
        info = json.loads(await asyncio.wait_for(ws.recv(), 10))
        return 101, ws.subprotocol, info


async def scenario(port):
    out = {}
    # wait until the server is up and has found both topics
    first = await WsClient.connect(port, subprotocols=(LEGACY,))
    assert await first.until(lambda: {'/chatter', '/latched'} <= set(first.channels), 30), \
        first.channels
    await first.close()
    out['handshakes'] = {
        'legacy': await _handshake(port, [LEGACY]),
        'sdk': await _handshake(port, [SDK]),
        'both': await _handshake(port, [LEGACY, SDK]),
        'other': await _handshake(port, ['foxglove.websocket.v2']),
        'none': await _handshake(port, []),
    }

    # A client that never reads, two that do: `early` on /latched from the start.
    import websockets
    stuck = await websockets.connect(f'ws://127.0.0.1:{port}', subprotocols=[LEGACY],
                                     max_queue=1)
    early = await WsClient.connect(port, subprotocols=(LEGACY,))
    late = await WsClient.connect(port, subprotocols=(SDK,))
    try:
        for c in (early, late):
            assert await c.until(lambda c=c: {'/chatter', '/latched'} <= set(c.channels), 20)
        await stuck.send(json.dumps({'op': 'subscribe', 'subscriptions': [
            {'id': 1, 'channelId': early.channels['/chatter']['id']}]}))
        await early.subscribe(['/latched', '/chatter'])
        await early.until(lambda: early.received('/latched'), 5)
        await asyncio.sleep(1.0)
        await late.subscribe(['/latched', '/chatter'], first_id=10)
        await late.until(lambda: late.received('/latched'), 5)
        # bad input from `late`: its status only
        await late.ws.send('{"op": "subscribe"')
        await late.send(op='noSuchOp')
        await late.send(op='subscribe', subscriptions=[{'id': 99, 'channelId': 12345}])
        await late.ws.send(struct.pack('<BI', 1, 7) + b'x')   # a channel never advertised
        await late.ws.send(b'\x09')                           # an unknown opcode
        await asyncio.sleep(2.0)
        out['early_latched'] = len(early.received('/latched'))
        out['late_latched'] = [bytes(p) for _, _, p in late.received('/latched')]
        out['early_status'] = list(early.status)
        out['late_status'] = list(late.status)
        window = [r for r, _, _ in early.received('/chatter')]
        out['early_chatter'] = window
        out['early_times'] = list(early.times)
    finally:
        await early.close()
        await late.close()
        stuck.transport.abort()
    return out


@pytest.fixture(scope='module')
def session():
    wt.isolate()
    port = wt.free_port()
    talker = wt.start([sys.executable, '-c', TALKER])
    server = _start_server(port)
    try:
        out = asyncio.run(scenario(port))
    finally:
        code, log, _ = wt.stop(server)
        wt.stop(talker)
    out['code'], out['log'] = code, log
    return out


def test_both_subprotocol_names_connect(session):
    hs = session['handshakes']
    assert hs['legacy'][:2] == (101, LEGACY), hs['legacy']
    assert hs['sdk'][:2] == (101, SDK), hs['sdk']
    assert hs['both'][:2] == (101, SDK), hs['both']
    for name in ('legacy', 'sdk', 'both'):
        info = hs[name][2]
        assert info['op'] == 'serverInfo' and info['name'] == 'foxglove_live', info
        assert info['metadata']['ROS_DISTRO'] == os.environ.get('ROS_DISTRO', ''), info
        assert info['sessionId']


def test_unknown_or_missing_subprotocol_refused_with_400(session):
    assert session['handshakes']['other'][0] == 400
    assert session['handshakes']['none'][0] == 400


def test_time_not_advertised_without_sim_time(session):
    caps = session['handshakes']['legacy'][2]['capabilities']
    assert 'time' not in caps, caps
    assert {'clientPublish', 'parameters', 'parametersSubscribe', 'services',
            'connectionGraph', 'assets'} <= set(caps), caps
    assert session['early_times'] == []


def test_latched_replay_goes_to_the_late_subscriber_only(session):
    from rclpy.serialization import deserialize_message
    from std_msgs.msg import String
    assert [deserialize_message(p, String).data for p in session['late_latched']] == \
        ['latched once']
    # the early subscriber got it once, not again when `late` subscribed
    assert session['early_latched'] == 1


def test_status_goes_to_the_client_that_caused_it(session):
    text = '\n'.join(session['late_status'])
    assert 'not JSON' in text or 'JSON' in text, text
    assert "unknown op 'noSuchOp'" in text, text
    assert 'no channel 12345' in text, text
    assert 'unknown binary opcode 0x09' in text, text
    assert session['early_status'] == [], session['early_status']


def test_a_client_that_never_reads_stalls_no_other(session):
    arrivals = session['early_chatter']
    assert len(arrivals) >= 200, len(arrivals)     # 200 Hz for > 3 s
    gaps = [b - a for a, b in zip(arrivals, arrivals[1:])]
    assert max(gaps) < 1.0, max(gaps)


def test_server_log_clean_and_exit_zero(session):
    assert session['code'] == 0, session['log'][-3000:]
    assert 'Traceback' not in session['log']
    assert 'Callback failed' not in session['log']
    assert 'failed:' not in session['log'], session['log'][-3000:]


async def _read_only(port):
    client = await WsClient.connect(port, subprotocols=(LEGACY,))
    try:
        await client.until(lambda: client.info is not None, 20)
        await client.send(op='advertise', channels=[{'id': 1, 'topic': '/chatter',
                                                     'encoding': 'json',
                                                     'schemaName': 'std_msgs/msg/String'}])
        await client.send(op='setParameters', parameters=[{'name': '/talker.x', 'value': 1}],
                          id='set')
        await client.until(lambda: len(client.status) >= 2, 5)
        return client.info, list(client.status), list(client.parameter_values)
    finally:
        await client.close()


def test_read_only_offers_no_writing_capability():
    wt.isolate()
    port = wt.free_port()
    server = _start_server(port, 'read_only:=true')
    try:
        info, status, values = asyncio.run(_read_only(port))
    finally:
        code, log, _ = wt.stop(server)
    assert set(info['capabilities']) == {'connectionGraph', 'assets'}, info
    text = '\n'.join(status)
    assert 'does not offer the clientPublish capability' in text, text
    assert 'does not offer the parameters capability' in text, text
    assert values == []
    assert code == 0 and 'Traceback' not in log, log[-2000:]


def test_every_listener_call_is_defined():
    """Each `self.listener.<name>` the server calls exists on ServerListener and the bridge."""
    import glob
    from foxglove_live import server, ws_server
    # The WebSocket side: ws_server and the capabilities it composes (ws_*.py).
    called = set()
    for path in glob.glob(os.path.join(os.path.dirname(ws_server.__file__), 'ws_*.py')):
        with open(path, encoding='utf-8') as f:
            tree = ast.parse(f.read())
        called |= {node.attr for node in ast.walk(tree)
                   if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
                   and node.value.attr == 'listener'}
    assert len(called) >= 10, called
    for name in called:
        assert callable(getattr(ws_server.ServerListener, name, None)), name
        assert callable(getattr(server.FoxgloveBridge, name, None)), name
    # what the bridge overrides has the listener's signature
    import inspect
    for name in called:
        base = inspect.signature(getattr(ws_server.ServerListener, name))
        mine = inspect.signature(getattr(server.FoxgloveBridge, name))
        assert list(base.parameters) == list(mine.parameters) or \
            len(base.parameters) == len(mine.parameters), (name, base, mine)


def test_graph_update_differences():
    from foxglove_live.ws_graph import graph_update as _graph_update
    from foxglove_live.ws_listener import EMPTY_GRAPH, Graph
    g1 = Graph({'/a': ['/n1']}, {'/a': ['/n2'], '/b': ['/n2']}, {'/s': ['/n1']})
    full = _graph_update(EMPTY_GRAPH, g1)
    assert full['publishedTopics'] == [{'name': '/a', 'publisherIds': ['/n1']}]
    assert full['advertisedServices'] == [{'name': '/s', 'providerIds': ['/n1']}]
    g2 = Graph({}, {'/a': ['/n2']}, {})
    diff = _graph_update(g1, g2)
    assert diff['publishedTopics'] == [{'name': '/a', 'publisherIds': []}]
    assert diff['removedTopics'] == ['/b']
    assert diff['removedServices'] == ['/s']
    assert _graph_update(g2, g2)['publishedTopics'] == []


async def _connected_while_stopped(port, server, sig):
    """Subscribe to /chatter, then stop the server under the client; return what was seen."""
    import websockets
    client = await WsClient.connect(port, subprotocols=(LEGACY,))
    await client.until(lambda: '/chatter' in client.channels, 20)
    await client.subscribe(['/chatter'])
    await client.until(lambda: len(client.received('/chatter')) > 20, 10)
    server.send_signal(sig)
    closed = False
    try:
        await asyncio.wait_for(client._task, 10)
    except websockets.exceptions.ConnectionClosed:
        closed = True
    except asyncio.TimeoutError:
        pass
    closed = closed or client._task.done()
    await client.close()
    return len(client.received('/chatter')), closed


@pytest.mark.parametrize('sig', ['SIGINT', 'SIGTERM'])
def test_stop_with_a_client_streaming_exits_zero(sig):
    import signal
    wt.isolate()
    port = wt.free_port()
    talker = wt.start([sys.executable, '-c', TALKER])
    server = _start_server(port)
    try:
        received, closed = asyncio.run(
            _connected_while_stopped(port, server, getattr(signal, sig)))
        code = server.wait(15)
    finally:
        stopped = wt.stop(server)
        wt.stop(talker)
    log = stopped.output
    assert received > 20
    assert closed, 'the client was not disconnected'
    assert code == 0, log[-2000:]
    assert 'Traceback' not in log and 'Callback failed' not in log, log[-2000:]


async def _flood(port):
    """One client floods bad input without reading; another streams meanwhile."""
    import websockets
    reader = await WsClient.connect(port, subprotocols=(LEGACY,))
    await reader.until(lambda: '/chatter' in reader.channels, 20)
    await reader.subscribe(['/chatter'])
    flooder = await websockets.connect(f'ws://127.0.0.1:{port}', subprotocols=[SDK],
                                       max_queue=1)
    started = time.monotonic()
    closed = False
    try:
        for _ in range(3000):           # malformed JSON: one status each (the newest kept)
            await flooder.send('{"op": ')
        # calls of a service that does not exist, each answered with serviceCallFailure:
        # once the socket buffers are full, the answers wait in the server's reply queue
        for i in range(400000):
            await flooder.send(struct.pack('<BIII', 2, 424242, i, 3) + b'cdr')
            if i % 1000 == 0:
                await asyncio.sleep(0)
    except websockets.exceptions.ConnectionClosed:
        closed = True
    flood_s = time.monotonic() - started
    await asyncio.sleep(1.0)
    during = [r for r, _, _ in reader.received('/chatter') if started <= r]
    flooder.transport.abort()
    await reader.close()
    return closed, flood_s, len(during), list(reader.status)


def test_bad_input_flood_starves_no_one_and_is_bounded():
    wt.isolate()
    port = wt.free_port()
    talker = wt.start([sys.executable, '-c', TALKER])
    server = _start_server(port)
    try:
        closed, flood_s, during, reader_status = asyncio.run(_flood(port))
    finally:
        stopped = wt.stop(server)
        wt.stop(talker)
    log = stopped.output
    # the flooder, never reading its answers, is disconnected once 10000 wait in its queue
    assert closed, log[-2000:]
    assert 'disconnected client 2: 10000 replies unread' in log, log[-2000:]
    # the reader kept streaming /chatter (200 Hz) through the flood and saw none of it
    assert during >= 100 * (flood_s + 1.0) * 0.5, (during, flood_s)
    assert reader_status == []
    # one rate-limited line per kind of refusal, not one per message
    assert log.count('not JSON') <= 5, log.count('not JSON')
    assert stopped[0] == 0 and 'Traceback' not in log, log[-2000:]
