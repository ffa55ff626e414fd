# SPDX-License-Identifier: Apache-2.0
"""
The services of robstride_hardware_interface, translated to RobstrideHardware calls.

Every handler returns immediately (no waiting inside a callback); an expected error gives
result=false (success=false) with the reason logged, at most one line per verb and kind of
error per second.
"""
import time
from typing import Any, Callable, Tuple, Type

from .bus import BusError
from .hardware import RobstrideHardware
from .hardware_errors import ReactivationError, UnknownItemError, UnknownMotorError
from .logbound import clip, RateLimitedLog
from .params import ParamError


class RobstrideServices:
    """The handlers of the node's services over one RobstrideHardware."""

    def __init__(self, hw: RobstrideHardware, limited: RateLimitedLog) -> None:
        """Serve ``hw``; rejected requests are logged through ``limited``."""
        self.hw = hw
        self._limited = limited

    def serve(self, resp: Any, verb: str, what: Callable[[], str], action: Callable[[], object],
              errors: Tuple[Type[Exception], ...]) -> Any:
        """
        Run one service request: result=true when action() succeeds.

        On one of the expected errors result=false and the reason is logged (bounded, at most
        one line per verb and kind of error per second). Anything else is a bug.
        """
        try:
            action()
            resp.result = True
        except errors as exc:
            self._limited.log('warning', f'{verb} {type(exc).__name__}',
                              f'{what()} rejected: {exc}')
            resp.result = False
        return resp

    def on_get(self, req: Any, resp: Any) -> Any:
        def read() -> None:
            resp.item_data = float(self.hw.get_item(req.id, req.item_name))
        return self.serve(resp, 'get', lambda: f'get id={req.id} {clip(req.item_name)}', read,
                          (UnknownMotorError, UnknownItemError))

    def on_set(self, req: Any, resp: Any) -> Any:
        return self.serve(
            resp, 'set', lambda: f'set id={req.id} {clip(req.item_name)}={req.item_data:g}',
            lambda: self.hw.set_item(req.id, req.item_name, req.item_data, time.monotonic()),
            (UnknownMotorError, ParamError, BusError))

    def on_zero(self, req: Any, resp: Any) -> Any:
        return self.serve(resp, 'set_zero', lambda: f'set_zero id={req.id}',
                          lambda: self.hw.set_zero(req.id, time.monotonic()),
                          (UnknownMotorError, BusError))

    def on_reboot(self, req: Any, resp: Any) -> Any:
        return self.serve(resp, 'reboot', lambda: f'reboot id={req.id}',
                          lambda: self.hw.reboot(req.id, time.monotonic()),
                          (UnknownMotorError, BusError))

    def on_set_torque(self, req: Any, resp: Any) -> Any:
        self.hw.set_torque(req.data)
        resp.success = True
        resp.message = 'torque on' if req.data else 'torque off'
        return resp

    def on_reactivate(self, req: Any, resp: Any) -> Any:
        try:
            self.hw.reactivate(time.monotonic())
            resp.success, resp.message = True, 'reactivated'
        except ReactivationError as exc:
            self._limited.log('warning', 'reactivate', f'reactivate rejected: {exc}')
            resp.success, resp.message = False, str(exc)
        return resp
