# SPDX-License-Identifier: Apache-2.0
"""
A Foxglove WebSocket client for the launch tests of the vendors' Foxglove launch files.

`advertised(port, topics, timeout)` connects to a foxglove_server with the subprotocol
foxglove.websocket.v1, reads its serverInfo and collects the channels of its advertise
messages until every topic in `topics` is among them (or `timeout` passes). It speaks the
protocol only; nothing of foxglove_live is imported. Needs the `websockets` library.
"""

import json
import time
from typing import Any, Dict, Iterable, NamedTuple, Optional, Set

SUBPROTOCOL = 'foxglove.websocket.v1'


class Advertised(NamedTuple):
    """What a Foxglove server said: its serverInfo, the subprotocol agreed, its channels."""

    server_info: Optional[Dict[str, Any]]
    subprotocol: Optional[str]
    topics: Set[str]


def advertised(port: int, topics: Iterable[str], timeout: float = 30.0,
               host: str = '127.0.0.1') -> Advertised:
    """Connect (retrying until `timeout`) and collect the advertised topics (see module)."""
    from websockets.sync.client import connect
    wanted = set(topics)
    deadline = time.monotonic() + timeout
    while True:
        try:
            ws = connect(f'ws://{host}:{port}', subprotocols=[SUBPROTOCOL],  # type: ignore
                         open_timeout=max(0.1, deadline - time.monotonic()), max_size=None)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    info: Optional[Dict[str, Any]] = None
    seen: Set[str] = set()
    with ws:
        while not (info is not None and wanted <= seen):
            left = deadline - time.monotonic()
            if left <= 0:
                break
            try:
                message = ws.recv(timeout=left)
            except TimeoutError:
                break
            if isinstance(message, bytes):
                continue
            body = json.loads(message)
            if body.get('op') == 'serverInfo':
                info = body
            elif body.get('op') == 'advertise':
                seen |= {channel['topic'] for channel in body.get('channels', [])}
        return Advertised(info, ws.subprotocol, seen)
