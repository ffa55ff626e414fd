# SPDX-License-Identifier: Apache-2.0
"""
What every capability of the WebSocket server shares (no ROS): clients, listener, worker pool.

WsServer is a ServerContext that composes one Capability per part of the protocol (ws_topics,
ws_client_publish, ws_parameters, ws_services, ws_graph, ws_assets). A capability answers
its own client operations (`ops`), greets a new connection (`connect`) and forgets a client
that left (`drop`); it reaches the ROS side through the context's listener, runs calls that
wait on ROS on the worker pool (`work`) and updates its state on the loop (`on_loop`).
"""

import asyncio
import concurrent.futures
import itertools
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple

from . import protocol as p
from .ws_client import Client
from .ws_listener import ServerListener

# Calls that wait on ROS (parameters, services, assets) one client may have in flight.
MAX_CALLS_PER_CLIENT = 8

# A client operation: (the capability it needs or None, its handler).
OpHandler = Callable[[Client, Dict[str, Any]], None]
Op = Tuple[Optional[str], OpHandler]


class ServerContext:
    """The state and the helpers the capabilities of one WsServer share."""

    def __init__(self, listener: ServerListener, capabilities: Iterable[str],
                 warn: Callable[[str], None]) -> None:
        """Serve `capabilities` for `listener`; `warn` logs one rate-limited line."""
        self.listener = listener
        self.capabilities = list(capabilities)
        self.warn = warn
        self.clients: Dict[int, Client] = {}
        # Channel and service ids: one sequence.
        self.ids: Iterator[int] = itertools.count(1)
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self.workers = concurrent.futures.ThreadPoolExecutor(
            max_workers=8, thread_name_prefix='foxglove_calls')

    def refuse(self, client: Client, text: str) -> None:
        """Send the client that sent bad input a status; log a rate-limited line."""
        client.status(p.WARNING, text)
        self.warn(f'client {client.id}: {text}')

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Call the listener on the loop; an exception is logged, never kills the loop."""
        try:
            return fn(*args)
        except Exception as exc:     # noqa: B902 - the listener's bug must not stop serving
            self.warn(f'{getattr(fn, "__name__", fn)} failed: {type(exc).__name__}: '
                      f'{error_text(exc)}')
            return None

    def work(self, client: Client, what: str, fn: Callable[..., None], *args: Any) -> bool:
        """Run `fn` on the worker pool (one client's calls bounded); False if refused."""
        if client.calls_in_flight >= MAX_CALLS_PER_CLIENT:
            self.refuse(client, f'{what}: more than {MAX_CALLS_PER_CLIENT} requests in '
                                'flight; refused')
            return False
        client.calls_in_flight += 1
        loop = self.loop

        def run() -> None:
            try:
                fn(*args)
            except Exception as exc:    # noqa: B902 - reported to the client, logged once
                self.warn(f'client {client.id}: {what} failed: {type(exc).__name__}: '
                          f'{error_text(exc)}')
                client.status(p.ERROR, f'{what} failed: {error_text(exc)}')
            finally:
                if loop is not None and not loop.is_closed():
                    try:
                        loop.call_soon_threadsafe(_done, client)
                    except RuntimeError:
                        pass
        try:
            self.workers.submit(run)
        except RuntimeError:            # the pool is shut down: the server is stopping
            client.calls_in_flight -= 1
            return False
        return True

    def on_loop(self, fn: Callable[..., None], *args: Any) -> None:
        """Run `fn` on the loop (any thread); at once when the loop is not running."""
        loop = self.loop
        if loop is None or loop.is_closed():
            fn(*args)        # not started, or stopped: just update the state
            return
        try:
            loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:
            pass


class Capability:
    """One part of the protocol on a ServerContext; the defaults do nothing."""

    def __init__(self, server: ServerContext) -> None:
        """Serve on `server`."""
        self.server = server
        self.listener = server.listener

    def ops(self) -> Dict[str, Op]:
        """Return the client operations this capability answers: op -> (needs, handler)."""
        return {}

    def connect(self, client: Client) -> None:
        """Greet a new connection (loop thread)."""

    def drop(self, client: Client) -> None:
        """Forget a client that left (loop thread)."""


def _done(client: Client) -> None:
    client.calls_in_flight -= 1


def message_list(msg: Mapping[str, Any], key: str) -> List[Any]:
    """Return the list `msg[key]`; ProtocolError if it is not one."""
    value = msg.get(key)
    if not isinstance(value, list):
        raise p.ProtocolError(f'{msg.get("op")}: {key} must be a list')
    return value


def error_text(exc: BaseException) -> str:
    """Return an exception's text on one line, at most 300 characters."""
    return ' '.join(str(exc).split())[:300] or type(exc).__name__
