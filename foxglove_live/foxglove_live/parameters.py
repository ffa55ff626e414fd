# SPDX-License-Identifier: Apache-2.0
"""
Parameters capability: every node's parameters, named `/node_name.param` as foxglove_bridge does.

Get, set and subscribe go through each node's ROS parameter services (list_parameters,
get_parameters, set_parameters) and /parameter_events. All nodes are asked at once; one
that does not answer within the timeout is left out of the answer (and logged), so it
delays a request by at most the timeout and never blocks the server.

(foxglove_server's own parameters are settings.PARAMETERS, declared through
node_runtime.parameters.)
"""

import base64
import binascii
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Set, Tuple

from rcl_interfaces.msg import Parameter as RosParameter, ParameterType as T, ParameterValue
from rcl_interfaces.srv import GetParameters, ListParameters, SetParameters

from .ros_calls import RosCalls
from .ws_client import Client

# A parameter entry of the protocol: {name, value, type?}.
Entry = Dict[str, Any]

# ParameterValue field of each ROS parameter type.
FIELDS: Dict[int, str] = {
    T.PARAMETER_BOOL: 'bool_value', T.PARAMETER_INTEGER: 'integer_value',
    T.PARAMETER_DOUBLE: 'double_value', T.PARAMETER_STRING: 'string_value',
    T.PARAMETER_BYTE_ARRAY: 'byte_array_value', T.PARAMETER_BOOL_ARRAY: 'bool_array_value',
    T.PARAMETER_INTEGER_ARRAY: 'integer_array_value',
    T.PARAMETER_DOUBLE_ARRAY: 'double_array_value',
    T.PARAMETER_STRING_ARRAY: 'string_array_value'}
TYPE_NAMES: Dict[int, str] = {
    T.PARAMETER_BOOL: 'bool', T.PARAMETER_INTEGER: 'integer',
    T.PARAMETER_DOUBLE: 'double', T.PARAMETER_STRING: 'string',
    T.PARAMETER_BYTE_ARRAY: 'byte array', T.PARAMETER_BOOL_ARRAY: 'bool array',
    T.PARAMETER_INTEGER_ARRAY: 'integer array',
    T.PARAMETER_DOUBLE_ARRAY: 'double array',
    T.PARAMETER_STRING_ARRAY: 'string array'}


class ParameterRefused(ValueError):
    """A set request refused before it reaches the node (its text goes to the client)."""


def split_name(full: str) -> Tuple[str, str]:
    """'/ns/node.param.sub' -> ('/ns/node', 'param.sub'); node names hold no dots."""
    node, dot, param = full.partition('.')
    if not dot or not node.startswith('/') or not param:
        raise ParameterRefused(f'{full!r}: not a /node_name.parameter name')
    return node, param


def to_foxglove(full: str, value: Any) -> Optional[Entry]:
    """
    Return the ws-protocol parameter entry of a ROS ParameterValue (None for NOT_SET).

    {name, value, type?}: `type` only where JSON cannot tell, as the protocol has it:
    float64 (a double whose value may be whole), float64_array, byte_array (base64 text).
    """
    kind = value.type
    if kind not in FIELDS:
        return None
    native = getattr(value, FIELDS[kind])
    if kind == T.PARAMETER_DOUBLE:
        return {'name': full, 'value': float(native), 'type': 'float64'}
    if kind == T.PARAMETER_DOUBLE_ARRAY:
        return {'name': full, 'value': [float(v) for v in native], 'type': 'float64_array'}
    if kind == T.PARAMETER_BYTE_ARRAY:
        raw = bytes(b if isinstance(b, int) else ord(b) for b in native)
        return {'name': full, 'value': base64.b64encode(raw).decode('ascii'),
                'type': 'byte_array'}
    if kind in (T.PARAMETER_BOOL_ARRAY, T.PARAMETER_INTEGER_ARRAY, T.PARAMETER_STRING_ARRAY):
        native = list(native)
    return {'name': full, 'value': native}


def client_value(entry: Mapping[str, Any]) -> Any:
    """Return the Python value of a client's parameter entry ({name, value, type?})."""
    value: Any = entry.get('value')
    kind = entry.get('type')
    if kind == 'byte_array':
        if not isinstance(value, str):
            raise ParameterRefused('a byte_array value must be base64 text')
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise ParameterRefused('a byte_array value must be base64 text') from None
    if kind == 'float64' and _is_number(value):
        return float(value)
    if kind == 'float64_array' and isinstance(value, list) and all(map(_is_number, value)):
        return [float(v) for v in value]
    return value


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: object) -> bool:
    return _is_int(v) or isinstance(v, float)


def to_ros(value: Any, current_type: int) -> Any:
    """
    Return the ROS ParameterValue of a client's value for a parameter of `current_type`.

    The client's JSON cannot tell 1.0 from 1, so a whole number sets a double parameter;
    anything else of another type than the parameter's is refused (ParameterRefused).
    """
    checks: Dict[int, Callable[[Any], bool]] = {
        T.PARAMETER_BOOL: lambda v: isinstance(v, bool),
        T.PARAMETER_INTEGER: _is_int,
        T.PARAMETER_DOUBLE: _is_number,
        T.PARAMETER_STRING: lambda v: isinstance(v, str),
        T.PARAMETER_BYTE_ARRAY: lambda v: isinstance(v, (bytes, bytearray)),
        T.PARAMETER_BOOL_ARRAY: lambda v: isinstance(v, list) and all(
            isinstance(x, bool) for x in v),
        T.PARAMETER_INTEGER_ARRAY: lambda v: isinstance(v, list) and all(map(_is_int, v)),
        T.PARAMETER_DOUBLE_ARRAY: lambda v: isinstance(v, list) and all(map(_is_number, v)),
        T.PARAMETER_STRING_ARRAY: lambda v: isinstance(v, list) and all(
            isinstance(x, str) for x in v),
    }
    if current_type not in FIELDS:      # a new parameter: its type is the value's
        current_type = _infer_type(value)
    if not checks[current_type](value):
        raise ParameterRefused(f'a {TYPE_NAMES[current_type]} is expected, not '
                               f'{_describe(value)}')
    if current_type == T.PARAMETER_DOUBLE:
        value = float(value)
    elif current_type == T.PARAMETER_DOUBLE_ARRAY:
        value = [float(v) for v in value]
    elif current_type == T.PARAMETER_BYTE_ARRAY:
        value = [bytes([b]) for b in value]
    out = ParameterValue(type=current_type)
    setattr(out, FIELDS[current_type], value)
    return out


def _describe(value: object) -> str:
    text = repr(value)
    return f'{type(value).__name__} {text if len(text) <= 40 else text[:37] + "..."}'


def _infer_type(value: object) -> Any:     # a ParameterType constant
    if isinstance(value, bool):
        return T.PARAMETER_BOOL
    if _is_int(value):
        return T.PARAMETER_INTEGER
    if isinstance(value, float):
        return T.PARAMETER_DOUBLE
    if isinstance(value, str):
        return T.PARAMETER_STRING
    if isinstance(value, (bytes, bytearray)):
        return T.PARAMETER_BYTE_ARRAY
    if isinstance(value, list) and value:
        for kind in (T.PARAMETER_BOOL_ARRAY, T.PARAMETER_INTEGER_ARRAY,
                     T.PARAMETER_DOUBLE_ARRAY, T.PARAMETER_STRING_ARRAY):
            first = {T.PARAMETER_BOOL_ARRAY: bool, T.PARAMETER_INTEGER_ARRAY: int,
                     T.PARAMETER_DOUBLE_ARRAY: float, T.PARAMETER_STRING_ARRAY: str}[kind]
            if type(value[0]) is first:
                return kind
    raise ParameterRefused(f'no ROS parameter type holds {_describe(value)}')


class Parameters:
    """The ServerListener's parameter callbacks, given RosCalls and the server's settings."""

    def __init__(self, calls: RosCalls, allowed: Callable[[str], bool], timeout: float,
                 warn: Callable[[Optional[Client], str], None], server_name: str,
                 writable: Optional[Callable[[str], bool]] = None) -> None:
        """Serve through `calls` the parameters for which `allowed(full name)` is true."""
        self.calls = calls
        self.allowed = allowed          # full name -> bool (param_whitelist)
        self.writable = writable or allowed     # full name -> bool (param_write_whitelist)
        self.timeout = timeout
        self.warn = warn                # (client or None, text): status + rate-limited log
        self.server_name = server_name
        self.subscribed: Set[str] = set()
        self.events: Any = None
        # set by the bridge: the server's parameter update
        self.publish: Optional[Callable[[List[Entry]], None]] = None

    def nodes(self) -> List[str]:
        """Full names of the nodes that offer parameter services (hidden ones left out)."""
        suffix = '/list_parameters'
        return sorted({name[:-len(suffix)]
                       for name, _ in self.calls.node.get_service_names_and_types()
                       if name.endswith(suffix)
                       and not name[:-len(suffix)].rsplit('/', 1)[-1].startswith('_')})

    def _get(self, wanted: Mapping[str, List[str]],
             client: Optional[Client]) -> Dict[str, Any]:
        """{node: [param names]} -> {full name: ROS ParameterValue} of the nodes that answered."""
        nodes = list(wanted)
        calls = [(GetParameters, f'{node}/get_parameters',
                  GetParameters.Request(names=wanted[node])) for node in nodes]
        out: Dict[str, Any] = {}
        for node, result in zip(nodes, self.calls.call_many(calls, self.timeout)):
            if isinstance(result, Exception):
                self.warn(client, f'parameters of {node} skipped: {_reason(result)}')
                continue
            for name, value in zip(wanted[node], result.values):
                out[f'{node}.{name}'] = value
        return out

    def _list_all(self, client: Optional[Client]) -> Dict[str, List[str]]:
        nodes = self.nodes()
        calls = [(ListParameters, f'{node}/list_parameters', ListParameters.Request())
                 for node in nodes]
        wanted: Dict[str, List[str]] = {}
        for node, result in zip(nodes, self.calls.call_many(calls, self.timeout)):
            if isinstance(result, Exception):
                self.warn(client, f'parameters of {node} skipped: {_reason(result)}')
                continue
            names = [n for n in result.result.names if self.allowed(f'{node}.{n}')]
            if names:
                wanted[node] = names
        return wanted

    def get_values(self, client: Optional[Client], names: List[str]) -> List[Entry]:
        """on_get_parameters: every allowed parameter of every node when `names` is empty."""
        wanted: Dict[str, List[str]]
        if names:
            wanted = {}
            for full in names:
                try:
                    node, param = split_name(full)
                except ParameterRefused as exc:
                    self.warn(client, str(exc))
                    continue
                if self.allowed(full):
                    wanted.setdefault(node, []).append(param)
        else:
            wanted = self._list_all(client)
        values = self._get(wanted, client)
        return [p for p in (to_foxglove(full, v) for full, v in sorted(values.items()))
                if p is not None]

    def set_values(self, client: Optional[Client],
                   parameters: List[Entry]) -> List[Entry]:
        """on_set_parameters: set through each node's set_parameters; return the values now."""
        by_node: Dict[str, List[Tuple[str, Entry]]] = {}
        names: Dict[str, List[str]] = {}
        for p in parameters:
            try:
                node, param = split_name(str(p['name']))
                if not self.allowed(p['name']):
                    raise ParameterRefused(f'{p["name"]}: not in param_whitelist')
            except ParameterRefused as exc:
                self.warn(client, f'set refused: {exc}')
                continue
            names.setdefault(node, []).append(param)
            if not self.writable(p['name']):
                # readable: the answer carries its value, so the app shows it unchanged
                self.warn(client, f'set refused: {p["name"]}: not in param_write_whitelist')
                continue
            by_node.setdefault(node, []).append((param, p))
        current = self._get(names, client)
        calls = []
        for node, items in by_node.items():
            ros = []
            for param, p in items:
                full = f'{node}.{param}'
                if full not in current:
                    continue        # the node did not answer: already reported
                try:
                    ros.append(RosParameter(name=param, value=to_ros(
                        client_value(p), current[full].type)))
                except ParameterRefused as exc:
                    self.warn(client, f'set {full} refused: {exc}')
            if ros:
                calls.append((node, SetParameters.Request(parameters=ros)))
        results = self.calls.call_many(
            [(SetParameters, f'{node}/set_parameters', req) for node, req in calls],
            self.timeout)
        for (node, req), result in zip(calls, results):
            if isinstance(result, Exception):
                self.warn(client, f'set on {node} failed: {_reason(result)}')
                continue
            for param, outcome in zip(req.parameters, result.results):
                if not outcome.successful:
                    self.warn(client, f'set {node}.{param.name} refused by the node: '
                                      f'{outcome.reason or "no reason given"}')
        after = self._get(names, client)
        return [p for p in (to_foxglove(full, v) for full, v in sorted(after.items()))
                if p is not None]

    def subscribe(self, names: Iterable[str]) -> None:
        """on_parameters_subscribe: publish the changes of `names` (from /parameter_events)."""
        self.subscribed.update(n for n in names if self.allowed(n))
        if self.events is None:
            self.events = self.calls.subscribe_parameter_events(self._on_event)

    def unsubscribe(self, names: Iterable[str]) -> None:
        """on_parameters_unsubscribe: the last client subscribed to `names` left."""
        self.subscribed.difference_update(names)

    def _on_event(self, event: Any) -> None:
        if not self.subscribed or self.publish is None:
            return
        changed = []
        for p in list(event.new_parameters) + list(event.changed_parameters):
            full = f'{event.node}.{p.name}'
            if full in self.subscribed:
                fox = to_foxglove(full, p.value)
                if fox is not None:
                    changed.append(fox)
        if changed:
            self.publish(changed)


def _reason(exc: BaseException) -> str:
    return ' '.join(str(exc).split()) or type(exc).__name__
