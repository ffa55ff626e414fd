# SPDX-License-Identifier: Apache-2.0
"""
A small synchronous client for robstride_hardware_interface.

Works with this node (any bus mode) or the real upstream node: Get/Set/SetZero/Reboot,
set_torque, reactivate, one state sample, and node parameters (fault injection).

The client owns a private node and executor and spins them only while it waits, with a
timeout on every wait, so it must not be handed a node someone else is spinning.

    with RobstrideClient() as rs:
        print(rs.get(1, 'temperature'))
        rs.set_data(1, '0x7016', 1.5)
"""
import itertools
import os
import time
from typing import Any, Dict, List

from rcl_interfaces.msg import ParameterType
from rcl_interfaces.srv import GetParameters, SetParameters
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.parameter import Parameter
from robstride_interfaces.msg import RobstrideState
from robstride_interfaces.srv import (GetDataFromRobstride, RebootRobstride,
                                      SetDataToRobstride, SetZeroRobstride)
from std_srvs.srv import SetBool, Trigger

from .hardware import GAIN_ITEMS
from .logbound import clip
from .params import parse_index
from .qos import STATE_QOS

DEFAULT_PREFIX = '/robstride/robstride_hardware_interface'
_counter = itertools.count()


class RobstrideClientError(RuntimeError):
    """Base of the client's errors."""


class ServiceUnavailableError(RobstrideClientError):
    """
    The service did not appear within the timeout.

    The node is not running, or the prefix or ROS_DOMAIN_ID is wrong.
    """


class CallTimeoutError(RobstrideClientError):
    """No response (or no state message) within the timeout."""


class RequestRejectedError(RobstrideClientError):
    """The node answered result=false (the node's log says why)."""


def check_id(can_id: int) -> int:
    value = int(can_id)
    if not 0 <= value <= 255:
        raise ValueError(f'CAN id {can_id} outside 0..255 (the services carry a uint8)')
    return value


def check_set_item(item: str) -> str:
    """kp, kd or a parameter index (hex or decimal); raises ParamError otherwise."""
    if item not in GAIN_ITEMS:
        parse_index(item)
    return item


def _wait_for_service(client: Any, timeout_sec: float) -> bool:
    """
    Wait until the service has a server; False after timeout_sec.

    Checked every 10 ms: rclpy's wait_for_service sleeps 0.25 s between checks, which a
    one-shot call (robstride_cli) would spend almost entirely waiting after discovery.
    """
    deadline = time.monotonic() + timeout_sec
    while not client.service_is_ready():
        if time.monotonic() >= deadline or not client.context.ok():
            return False
        time.sleep(0.01)
    return True


class RobstrideClient:
    def __init__(self, prefix: str = DEFAULT_PREFIX, timeout_sec: float = 2.0,
                 context: Any = None) -> None:
        self.prefix = prefix.rstrip('/')
        self.timeout_sec = float(timeout_sec)
        self._context = context
        self.node = rclpy.create_node(f'robstride_client_{os.getpid()}_{next(_counter)}',
                                      context=context)
        self._executor = SingleThreadedExecutor(context=context)
        self._executor.add_node(self.node)
        self._clients: Dict[str, Any] = {}

    def close(self) -> None:
        self._executor.remove_node(self.node)
        self._executor.shutdown(timeout_sec=0.0)
        self.node.destroy_node()

    def __enter__(self) -> 'RobstrideClient':
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- plumbing --------------------------------------------------------------------------

    def _call(self, srv_type: Any, suffix: str, request: Any) -> Any:
        name = f'{self.prefix}/{suffix}'
        client = self._clients.get(name)
        if client is None:
            client = self._clients[name] = self.node.create_client(srv_type, name)
        if not _wait_for_service(client, self.timeout_sec):
            raise ServiceUnavailableError(f'{name} not available after {self.timeout_sec:g} s')
        future = client.call_async(request)
        # spin_once until done: Jazzy's spin_until_future_complete adds milliseconds a call.
        deadline = time.monotonic() + self.timeout_sec
        while not future.done() and time.monotonic() < deadline:
            self._executor.spin_once(timeout_sec=min(0.1, max(0.0, deadline - time.monotonic())))
        if not future.done():
            client.remove_pending_request(future)
            raise CallTimeoutError(f'{name}: no response after {self.timeout_sec:g} s')
        return future.result()

    def _stamp(self, request: Any) -> Any:
        request.header.stamp = self.node.get_clock().now().to_msg()
        return request

    # --- robstride services ----------------------------------------------------------------

    def get(self, can_id: int, item: str, timeout_sec: float = 0.0) -> float:
        req = self._stamp(GetDataFromRobstride.Request(
            id=check_id(can_id), item_name=item, timeout_sec=float(timeout_sec)))
        resp = self._call(GetDataFromRobstride, 'get_data_from_robstride', req)
        if not resp.result:
            raise RequestRejectedError(f'get id={can_id} {clip(item)} rejected')
        value: float = resp.item_data
        return value

    def set_data(self, can_id: int, item: str, value: float) -> None:
        """Set kp/kd or write a parameter index (SetDataToRobstride)."""
        req = self._stamp(SetDataToRobstride.Request(
            id=check_id(can_id), item_name=check_set_item(item), item_data=float(value)))
        if not self._call(SetDataToRobstride, 'set_data_to_robstride', req).result:
            raise RequestRejectedError(f'set id={can_id} {clip(item)}={value} rejected')

    def set_zero(self, can_id: int) -> None:
        req = self._stamp(SetZeroRobstride.Request(id=check_id(can_id)))
        if not self._call(SetZeroRobstride, 'set_zero_robstride', req).result:
            raise RequestRejectedError(f'set_zero id={can_id} rejected')

    def reboot(self, can_id: int) -> None:
        req = self._stamp(RebootRobstride.Request(id=check_id(can_id)))
        if not self._call(RebootRobstride, 'reboot_robstride', req).result:
            raise RequestRejectedError(f'reboot id={can_id} rejected')

    def set_torque(self, on: bool) -> str:
        resp = self._call(SetBool, 'set_torque', SetBool.Request(data=bool(on)))
        if not resp.success:
            raise RequestRejectedError(f'set_torque {on}: {resp.message}')
        message: str = resp.message
        return message

    def reactivate(self) -> str:
        resp = self._call(Trigger, 'reactivate', Trigger.Request())
        if not resp.success:
            raise RequestRejectedError(f'reactivate: {resp.message}')
        message: str = resp.message
        return message

    def state(self) -> RobstrideState:
        """Wait for one ~/robstride_state message."""
        box: List[RobstrideState] = []
        sub = self.node.create_subscription(RobstrideState, f'{self.prefix}/robstride_state',
                                            box.append, STATE_QOS)
        try:
            deadline = self.node.get_clock().now().nanoseconds + int(self.timeout_sec * 1e9)
            while not box and self.node.get_clock().now().nanoseconds < deadline:
                self._executor.spin_once(timeout_sec=0.05)
        finally:
            self.node.destroy_subscription(sub)
        if not box:
            raise CallTimeoutError(f'no {self.prefix}/robstride_state within '
                                   f'{self.timeout_sec:g} s')
        return box[-1]

    # --- node parameters (simulator fault injection) ---------------------------------------

    def set_parameters(self, values: Dict[str, object]) -> None:
        """
        Set node parameters atomically-by-name.

        Ints are widened to the parameter's double type (so `sim.bus_voltage 10` works).
        Raises RequestRejectedError with the node's reason.
        """
        names = list(values)
        current = self._call(GetParameters, 'get_parameters',
                             GetParameters.Request(names=names)).values
        params = []
        for name, cur in zip(names, current):
            value = values[name]
            if cur.type == ParameterType.PARAMETER_DOUBLE and isinstance(value, int) \
                    and not isinstance(value, bool):
                value = float(value)
            elif cur.type == ParameterType.PARAMETER_DOUBLE_ARRAY and isinstance(value, list):
                value = [float(v) for v in value]
            elif cur.type == ParameterType.PARAMETER_NOT_SET:
                raise RequestRejectedError(f'parameter {name!r} is not declared by the node')
            params.append(Parameter(name, value=value).to_parameter_msg())
        results = self._call(SetParameters, 'set_parameters',
                             SetParameters.Request(parameters=params)).results
        failed = [f'{n}: {r.reason}' for n, r in zip(names, results) if not r.successful]
        if failed:
            raise RequestRejectedError('; '.join(failed))
