# SPDX-License-Identifier: Apache-2.0
"""
A Foxglove WebSocket protocol client for the tests, written from the published spec.

foxglove/ws-protocol docs/spec.md: JSON text messages with an `op` field; binary messages
start with a 1-byte opcode. Server binary: 0x01 MessageData (uint32 subscription id, uint64
log time, payload), 0x02 Time (uint64 ns), 0x03 ServiceCallResponse (uint32 service id,
uint32 call id, uint32 encoding length, encoding, payload), 0x04 FetchAssetResponse (uint32
request id, uint8 status 0 ok / 1 error, uint32 error length, error, data). Client binary:
0x01 MessageData (uint32 channel id, payload), 0x02 ServiceCallRequest (uint32 service id,
uint32 call id, uint32 encoding length, encoding, payload). All little endian.
"""

import asyncio
import json
import struct
import time

SUBPROTOCOL = 'foxglove.sdk.v1'


class WsClient:
    """Connect, keep every server message by kind, answer requests by id."""

    def __init__(self, ws):
        self.ws = ws
        self.info = None
        self.channels = {}          # topic -> advertised channel
        self.services = {}          # name -> advertised service
        self.status = []
        self.graph = []
        self.times = []
        self.time_arrivals = []     # monotonic receive time of each time message
        self.messages = {}          # subscription id -> [(receive time, log time, payload)]
        self.parameter_values = []  # every parameterValues message
        self.service_responses = {}  # call id -> (encoding, payload)
        self.service_failures = {}   # call id -> message
        self.assets = {}            # request id -> (status, error, data)
        self._sub_topics = {}
        self._task = None

    @classmethod
    async def connect(cls, port, subprotocols=(SUBPROTOCOL,), timeout=30.0):
        import websockets
        deadline = time.monotonic() + timeout
        while True:
            try:
                ws = await websockets.connect(f'ws://127.0.0.1:{port}',
                                              subprotocols=list(subprotocols), max_size=None)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.2)
        client = cls(ws)
        client._task = asyncio.ensure_future(client._read())
        return client

    async def close(self):
        self._task.cancel()
        await self.ws.close()

    async def _read(self):
        async for raw in self.ws:
            if isinstance(raw, bytes):
                self._binary(raw)
            else:
                self._text(json.loads(raw))

    def _text(self, msg):
        op = msg['op']
        if op == 'serverInfo':
            self.info = msg
        elif op == 'advertise':
            for ch in msg['channels']:
                self.channels[ch['topic']] = ch
        elif op == 'advertiseServices':
            for service in msg['services']:
                self.services[service['name']] = service
        elif op == 'unadvertiseServices':
            for sid in msg['serviceIds']:
                for name in [n for n, s in self.services.items() if s['id'] == sid]:
                    del self.services[name]
        elif op == 'status':
            self.status.append(msg['message'])
        elif op == 'connectionGraphUpdate':
            self.graph.append(msg)
        elif op == 'parameterValues':
            self.parameter_values.append(msg)
        elif op == 'serviceCallFailure':
            self.service_failures[msg['callId']] = msg['message']

    def _binary(self, raw):
        opcode = raw[0]
        if opcode == 0x01:
            sub_id, log_time = struct.unpack_from('<IQ', raw, 1)
            self.messages.setdefault(sub_id, []).append((time.monotonic(), log_time, raw[13:]))
        elif opcode == 0x02:
            self.times.append(struct.unpack_from('<Q', raw, 1)[0])
            self.time_arrivals.append(time.monotonic())
        elif opcode == 0x03:
            _, call_id, n = struct.unpack_from('<III', raw, 1)
            encoding = raw[13:13 + n].decode()
            self.service_responses[call_id] = (encoding, raw[13 + n:])
        elif opcode == 0x04:
            request_id, status, n = struct.unpack_from('<IBI', raw, 1)
            error = raw[10:10 + n].decode()
            self.assets[request_id] = (status, error, raw[10 + n:])

    async def until(self, predicate, timeout=20.0):
        """Wait until predicate() is true; return it (falsy after the timeout)."""
        deadline = time.monotonic() + timeout
        while not predicate() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return predicate()

    async def send(self, **msg):
        await self.ws.send(json.dumps(msg))

    async def subscribe(self, topics, first_id=1):
        """Subscribe to advertised topics; return {topic: subscription id}."""
        ids = {}
        subs = []
        for i, topic in enumerate(topics, start=first_id):
            ids[topic] = i
            self._sub_topics[i] = topic
            subs.append({'id': i, 'channelId': self.channels[topic]['id']})
        await self.send(op='subscribe', subscriptions=subs)
        return ids

    def received(self, topic):
        for sub_id, name in self._sub_topics.items():
            if name == topic:
                return self.messages.get(sub_id, [])
        return []

    async def call_service(self, name, call_id, payload, encoding='cdr'):
        service = self.services[name]
        enc = encoding.encode()
        await self.ws.send(struct.pack('<BIII', 0x02, service['id'], call_id, len(enc))
                           + enc + payload)

    async def parameters(self, request_id, names=(), timeout=20.0):
        """getParameters; return the parameterValues answering `request_id`."""
        await self.send(op='getParameters', parameterNames=list(names), id=request_id)
        return await self._answer(request_id, timeout)

    async def set_parameters(self, request_id, parameters, timeout=20.0):
        await self.send(op='setParameters', parameters=parameters, id=request_id)
        return await self._answer(request_id, timeout)

    async def _answer(self, request_id, timeout):
        def found():
            return next((m for m in self.parameter_values if m.get('id') == request_id), None)
        return await self.until(found, timeout)

    async def fetch_asset(self, uri, request_id, timeout=10.0):
        await self.send(op='fetchAsset', uri=uri, requestId=request_id)
        await self.until(lambda: request_id in self.assets, timeout)
        return self.assets.get(request_id)
