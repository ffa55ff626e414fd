# SPDX-License-Identifier: Apache-2.0
"""
parameters and parametersSubscribe on the WebSocket side (no ROS).

Get and set wait on the nodes, so they run on the worker pool. Subscriptions are counted
per parameter name: the listener hears of a name when its first subscriber comes and when
its last one leaves, and each client is sent only the changes of the names it follows.
"""

import collections
from typing import Any, Callable, Dict, List, Set

from . import protocol as p
from .ws_client import Client
from .ws_context import Capability, message_list, Op, ServerContext


class Parameters(Capability):
    """getParameters, setParameters and the parameter-update subscriptions."""

    def __init__(self, server: ServerContext) -> None:
        """No subscription yet."""
        super().__init__(server)
        self._counts: Dict[str, int] = collections.Counter()

    def ops(self) -> Dict[str, Op]:
        """Get and set (parameters); subscribe and unsubscribe (parametersSubscribe)."""
        return {'getParameters': (p.PARAMETERS, self._get),
                'setParameters': (p.PARAMETERS, self._set),
                'subscribeParameterUpdates': (p.PARAMETERS_SUBSCRIBE, self._subscribe),
                'unsubscribeParameterUpdates': (p.PARAMETERS_SUBSCRIBE, self._unsubscribe_msg)}

    def drop(self, client: Client) -> None:
        """Unsubscribe a client that left from every parameter."""
        self._unsubscribe(client, set(client.parameter_names))

    def _get(self, client: Client, msg: Dict[str, Any]) -> None:
        names = [str(n) for n in msg.get('parameterNames') or []]
        self.server.work(client, 'getParameters', self._answer, client,
                         self.listener.get_parameters, names, msg.get('id'), True)

    def _set(self, client: Client, msg: Dict[str, Any]) -> None:
        params = [e for e in message_list(msg, 'parameters')
                  if isinstance(e, dict) and 'name' in e]
        # The spec: a set is answered only when it carries an id.
        self.server.work(client, 'setParameters', self._answer, client,
                         self.listener.set_parameters, params, msg.get('id'), False)

    def _answer(self, client: Client, fn: Callable[..., List[Dict[str, Any]]],
                arg: Any, request_id: Any, always: bool) -> None:
        values = fn(client, arg)
        if request_id is not None or always:
            answer: Dict[str, Any] = {'op': 'parameterValues', 'parameters': values}
            if request_id is not None:
                answer['id'] = request_id
            client.send_json(answer)

    def _subscribe(self, client: Client, msg: Dict[str, Any]) -> None:
        names = {str(n) for n in message_list(msg, 'parameterNames')} - client.parameter_names
        client.parameter_names |= names
        new = set()
        for name in names:
            self._counts[name] += 1
            if self._counts[name] == 1:
                new.add(name)
        if new:
            self.server.call(self.listener.on_parameters_subscribe, new)

    def _unsubscribe_msg(self, client: Client, msg: Dict[str, Any]) -> None:
        names = {str(n) for n in message_list(msg, 'parameterNames')}
        self._unsubscribe(client, names & client.parameter_names)

    def _unsubscribe(self, client: Client, names: Set[str]) -> None:
        client.parameter_names -= names
        gone = set()
        for name in names:
            self._counts[name] -= 1
            if self._counts[name] <= 0:
                del self._counts[name]
                gone.add(name)
        if gone:
            self.server.call(self.listener.on_parameters_unsubscribe, gone)

    def publish(self, parameters: List[Dict[str, Any]]) -> None:
        """Send each client the changed parameters it subscribed to (any thread)."""
        self.server.on_loop(self._publish, parameters)

    def _publish(self, parameters: List[Dict[str, Any]]) -> None:
        for client in list(self.server.clients.values()):
            mine = [e for e in parameters if e['name'] in client.parameter_names]
            if mine:
                client.send_json({'op': 'parameterValues', 'parameters': mine})
