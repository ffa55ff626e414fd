# SPDX-License-Identifier: Apache-2.0
"""
services on the WebSocket side (no ROS): advertised services and the calls of clients.

The ROS side sets the whole list of services; clients are sent what was added and what
left. A call waits on ROS, so it runs on the worker pool; a failure is answered with
serviceCallFailure to the calling client.
"""

from typing import Dict, Iterable, List, Tuple

from . import protocol as p
from .ws_client import Client
from .ws_context import Capability, error_text, MAX_CALLS_PER_CLIENT, ServerContext
from .ws_listener import CallFailed, Service


class Services(Capability):
    """advertiseServices / unadvertiseServices and ServiceCallRequest frames."""

    def __init__(self, server: ServerContext) -> None:
        """No service yet."""
        super().__init__(server)
        self.services: Dict[int, Service] = {}

    def connect(self, client: Client) -> None:
        """Advertise every service to a new client."""
        if self.services and p.SERVICES in self.server.capabilities:
            client.send_json({'op': 'advertiseServices', 'services': [
                s.advertisement() for s in self.services.values()]})

    def set_services(self, services: Iterable[Tuple[str, str, str, str]]) -> None:
        """Advertise exactly these (name, type, request schema, response schema)."""
        self.server.on_loop(self._set_services, list(services))

    def _set_services(self, wanted: List[Tuple[str, str, str, str]]) -> None:
        current = {(s.name, s.type): s for s in self.services.values()}
        keep = {(name, type_name) for name, type_name, _, _ in wanted}
        gone = [s.id for key, s in current.items() if key not in keep]
        added = []
        for name, type_name, request, response in wanted:
            if (name, type_name) not in current:
                service = Service(next(self.server.ids), name, type_name, request, response)
                self.services[service.id] = service
                added.append(service)
        for service_id in gone:
            del self.services[service_id]
        if p.SERVICES not in self.server.capabilities:
            return
        for client in list(self.server.clients.values()):
            if gone:
                client.send_json({'op': 'unadvertiseServices', 'serviceIds': gone})
            if added:
                client.send_json({'op': 'advertiseServices',
                                  'services': [s.advertisement() for s in added]})

    def on_service_call(self, client: Client, raw: bytes) -> None:
        """Call the service of a client's ServiceCallRequest frame (loop thread)."""
        if p.SERVICES not in self.server.capabilities:
            raise p.ProtocolError('ServiceCallRequest: the server does not offer services')
        call = p.parse_service_call(raw)
        service = self.services.get(call.service_id)

        def fail(text: str) -> None:
            client.send_json({'op': 'serviceCallFailure', 'serviceId': call.service_id,
                              'callId': call.call_id, 'message': text})
        if service is None:
            fail(f'no service with id {call.service_id}')
            return
        if call.encoding != service.encoding:
            fail(f'Unsupported encoding {call.encoding!r}: {service.name} takes '
                 f'{service.encoding}')
            return
        found = service

        def run() -> None:
            try:
                response = self.listener.call_service(client, found, call.payload)
            except CallFailed as exc:
                fail(error_text(exc))
                return
            client.send_control(p.service_call_response(found.id, call.call_id,
                                                        found.encoding, response))
        if not self.server.work(client, 'service call', run):
            fail(f'{service.name}: more than {MAX_CALLS_PER_CLIENT} calls in flight')
