# SPDX-License-Identifier: Apache-2.0
"""assets on the WebSocket side (no ROS): fetchAsset, answered on the worker pool."""

from typing import Any, Dict

from . import protocol as p
from .ws_client import Client
from .ws_context import Capability, error_text, Op
from .ws_listener import CallFailed


class Assets(Capability):
    """fetchAsset: the listener reads the bytes; a refusal goes back as the error text."""

    def ops(self) -> Dict[str, Op]:
        """Answer fetchAsset (assets)."""
        return {'fetchAsset': (p.ASSETS, self._fetch)}

    def _fetch(self, client: Client, msg: Dict[str, Any]) -> None:
        uri, request_id = str(msg['uri']), int(msg['requestId'])

        def fetch() -> None:
            try:
                data = self.listener.fetch_asset(client, uri)
            except CallFailed as exc:
                client.send_control(p.fetch_asset_response(request_id, error=error_text(exc)))
                return
            client.send_control(p.fetch_asset_response(request_id, data))
        self.server.work(client, 'fetchAsset', fetch)
