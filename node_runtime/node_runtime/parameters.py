# SPDX-License-Identifier: Apache-2.0
"""
Declared parameters: one table per node, a descriptor for every entry, changes that act.

A node lists its parameters once as ``Parameter`` entries (name, default, description with
units, read_only, value_range, choices) and calls ``declare(node, table)``: every parameter gets a
``rcl_interfaces/ParameterDescriptor`` (``ros2 param describe`` shows it), a start-up value
out of range or not among the choices stops the node with a one-line ValueError naming the
parameter, and the values come back as a dict. Read-only (start-up) parameters are refused
by rclpy itself when set later. For the run-time ones ``on_change(node, table, apply,
validate)`` checks a set first (range, choices, the node's own ``validate``; a refusal is a
SetParametersResult with a reason) and then calls ``apply`` with the new values, so
``ros2 param set`` changes what the node does.

The only module of node_runtime that imports rclpy (the rest stays ROS-free).
"""

# The annotations stay text: rclpy.parameter.Parameter is generic only in its hints.
from __future__ import annotations

from dataclasses import dataclass
import math
from typing import (Any, Callable, cast, Dict, Iterable, List, Mapping, Optional, Sequence,
                    Tuple, TYPE_CHECKING, TypeAlias, Union)

from rcl_interfaces.msg import (FloatingPointRange, IntegerRange, ParameterDescriptor,
                                SetParametersResult)
from rclpy.exceptions import InvalidParameterTypeException, InvalidParameterValueException
from rclpy.parameter import Parameter as RclpyParameter

if TYPE_CHECKING:     # only for the annotations: rclpy.node is imported by the node itself
    from rclpy.node import Node

Type: TypeAlias = RclpyParameter.Type

# Names accepted for Parameter.value_type (as `ros2 param describe` spells them, with '_').
TYPE_NAMES = {
    'bool': Type.BOOL,
    'integer': Type.INTEGER,
    'double': Type.DOUBLE,
    'string': Type.STRING,
    'bool_array': Type.BOOL_ARRAY,
    'integer_array': Type.INTEGER_ARRAY,
    'double_array': Type.DOUBLE_ARRAY,
    'string_array': Type.STRING_ARRAY,
}
_ARRAYS: Dict[Type, Type] = {Type.BOOL_ARRAY: Type.BOOL, Type.INTEGER_ARRAY: Type.INTEGER,
                             Type.DOUBLE_ARRAY: Type.DOUBLE, Type.STRING_ARRAY: Type.STRING}
_INT64 = (-2 ** 63, 2 ** 63 - 1)


def _element_type(value: object) -> Optional[Type]:
    if isinstance(value, bool):
        return Type.BOOL
    if isinstance(value, int):
        return Type.INTEGER
    if isinstance(value, float):
        return Type.DOUBLE
    if isinstance(value, str):
        return Type.STRING
    return None


def _infer_type(name: str, default: object) -> Type:
    if isinstance(default, (list, tuple)):
        kinds = {_element_type(v) for v in default}
        if kinds == {Type.INTEGER, Type.DOUBLE}:
            kinds = {Type.DOUBLE}           # [1, 2.5] is a double array
        element = kinds.pop() if len(kinds) == 1 else None
        if element is None:
            raise ValueError(f'parameter {name!r}: default {default!r} needs value_type= '
                             '(an empty list or mixed elements have no parameter type)')
        return {v: k for k, v in _ARRAYS.items()}[element]
    kind = _element_type(default)
    if kind is None:
        raise ValueError(f'parameter {name!r}: default {default!r} is no parameter type')
    return kind


def _coerce(kind: Type, value: Any) -> Any:
    """Value as rclpy types it for `kind` (ints given for doubles become floats)."""
    if kind == Type.DOUBLE and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if kind == Type.DOUBLE_ARRAY:
        return [float(v) if isinstance(v, int) and not isinstance(v, bool) else v
                for v in value]
    if kind in _ARRAYS:
        return list(value)
    return value


def _fmt(bound: object) -> str:
    return f'{bound:g}' if isinstance(bound, float) else str(bound)


@dataclass(frozen=True)
class Parameter:
    """
    One parameter of a node.

    name: the parameter name ('sim.load_torque'); default: its value when no override is
    given; description: what it does, with units ('cycle rate [Hz]'); read_only: True for
    start-up-only parameters (a later set is refused), False for run-time ones (see
    on_change); value_range: (low, high), inclusive, for numbers (for arrays: each
    element); None as a bound leaves that side open; choices: the allowed values (for
    arrays: of each element); value_type: 'bool', 'integer', 'double', 'string' or
    '<that>_array' (or an rclpy Parameter.Type), needed when the default is an empty list,
    otherwise taken from the default; constraints: further text for the descriptor's
    additional_constraints. (range/type would shadow builtins: flake8-builtins A003.)
    """

    name: str
    default: Any
    description: str
    read_only: bool = True
    value_range: Optional[Tuple[Any, Any]] = None
    choices: Optional[Tuple[Any, ...]] = None
    value_type: Union[str, Type, None] = None
    constraints: str = ''

    def __post_init__(self) -> None:
        kind = self.value_type
        if isinstance(kind, str):
            if kind not in TYPE_NAMES:
                raise ValueError(f'parameter {self.name!r}: value_type {kind!r} is not one of '
                                 f'{", ".join(TYPE_NAMES)}')
            kind = TYPE_NAMES[kind]
        elif kind is None:
            kind = _infer_type(self.name, self.default)
        elif not isinstance(kind, RclpyParameter.Type) or kind not in TYPE_NAMES.values():
            raise ValueError(f'parameter {self.name!r}: unsupported value_type {kind!r}')
        object.__setattr__(self, 'value_type', kind)
        object.__setattr__(self, 'default', _coerce(kind, self.default))
        if isinstance(self.default, list):
            object.__setattr__(self, 'default', tuple(self.default))    # frozen: no list
        if not kind.check(list(self.default) if kind in _ARRAYS else self.default):
            raise ValueError(f'parameter {self.name!r}: default {self.default!r} is not '
                             f'of type {kind.name.lower()}')
        if self.value_range is not None:
            if self.element_type not in (Type.INTEGER, Type.DOUBLE) or len(self.value_range) != 2:
                raise ValueError(f'parameter {self.name!r}: value_range needs a numeric type and '
                                 '(low, high)')
        if self.choices is not None:
            object.__setattr__(self, 'choices', tuple(self.choices))
        self.check(self.value_default())

    @property
    def _type(self) -> Type:
        # __post_init__ has replaced a type name or None by the rclpy type.
        return cast(Type, self.value_type)

    @property
    def element_type(self) -> Type:
        """Give the type of the value, or of each element for an array parameter."""
        return _ARRAYS.get(self._type, self._type)

    def value_default(self) -> Any:
        """Return the default as the node sees it (a list for array parameters)."""
        return list(self.default) if self.value_type in _ARRAYS else self.default

    def bounds(self) -> Union[Tuple[float, float], Tuple[int, int]]:
        """(low, high) with open sides as infinities (doubles) or int64 limits (integers)."""
        low, high = self._range()
        if self.element_type == Type.DOUBLE:
            return (-math.inf if low is None else float(low),
                    math.inf if high is None else float(high))
        return (_INT64[0] if low is None else int(low), _INT64[1] if high is None else int(high))

    def _range(self) -> Tuple[Any, Any]:
        if self.value_range is None:
            raise TypeError(f'parameter {self.name!r} has no value_range')
        return self.value_range

    def _range_text(self) -> str:
        low, high = self._range()
        return f'[{"-inf" if low is None else _fmt(low)}, {"inf" if high is None else _fmt(high)}]'

    def descriptor(self) -> ParameterDescriptor:
        """Build the ParameterDescriptor that ``ros2 param describe`` shows."""
        d = ParameterDescriptor(name=self.name, type=self._type.value,
                                description=self.description, read_only=self.read_only)
        notes = []
        if self.value_range is not None:
            low, high = self.bounds()
            if self.value_type == Type.DOUBLE:
                d.floating_point_range = [FloatingPointRange(from_value=low, to_value=high,
                                                             step=0.0)]
            elif self.value_type == Type.INTEGER:
                d.integer_range = [IntegerRange(from_value=low, to_value=high, step=0)]
            else:
                notes.append(f'each element in {self._range_text()}')
        if self.choices is not None:
            one = ', '.join(str(c) for c in self.choices)
            notes.append(f'each element one of: {one}' if self.value_type in _ARRAYS
                         else f'one of: {one}')
        if self.constraints:
            notes.append(self.constraints)
        d.additional_constraints = '; '.join(notes)
        return d

    def check(self, value: Any) -> None:
        """Raise a one-line ValueError naming the parameter if `value` breaks range/choices."""
        values = list(value) if self.value_type in _ARRAYS else [value]
        for i, v in enumerate(values):
            where = f'[{i}]' if self.value_type in _ARRAYS else ''
            if self.value_range is not None:
                low, high = self.bounds()
                if not low <= v <= high:     # NaN is outside every range
                    raise ValueError(f'parameter {self.name!r}{where}: {v!r} is outside '
                                     f'{self._range_text()}')
            if self.choices is not None and v not in self.choices:
                raise ValueError(f'parameter {self.name!r}{where}: {v!r} is not one of '
                                 f'{", ".join(str(c) for c in self.choices)}')


def table(parameters: Iterable[Parameter]) -> Dict[str, Parameter]:
    """Map name -> Parameter; ValueError on a duplicate name."""
    out: Dict[str, Parameter] = {}
    for p in parameters:
        if p.name in out:
            raise ValueError(f'parameter {p.name!r} is listed twice')
        out[p.name] = p
    return out


def _declare_one(node: 'Node', p: Parameter) -> Any:
    descriptor = p.descriptor()
    default = p.value_default()
    if not default and p.value_type in _ARRAYS:
        # rclpy types an empty list as a byte array: declare the type, then set the typed
        # empty list (an override, if one was given, is already the value).
        node.declare_parameters('', [(p.name, p.value_type, descriptor)])
        if node.get_parameter_or(p.name).type_ == Type.NOT_SET:
            result = node._set_parameters_atomically_common(
                [RclpyParameter(p.name, p.value_type, [])], {p.name: p.descriptor()})
            if not result.successful:
                raise ValueError(f'parameter {p.name!r}: {result.reason}')
    else:
        node.declare_parameters('', [(p.name, default, descriptor)])
    return node.get_parameter(p.name).value


def declare(node: 'Node', parameters: Iterable[Parameter]) -> Dict[str, Any]:
    """
    Declare every parameter on `node` with its descriptor; return {name: start-up value}.

    Overrides (--ros-args -p, --params-file) take precedence over the defaults. A start-up
    value of the wrong type, out of range or not among the choices raises ValueError with
    one line naming the parameter (the node should exit with it, nothing started yet).
    """
    values: Dict[str, Any] = {}
    for p in table(parameters).values():
        try:
            value = _declare_one(node, p)
        except InvalidParameterTypeException as exc:
            raise ValueError(f'parameter {p.name!r}: wrong type ({exc.args[0]})') from None
        except InvalidParameterValueException as exc:
            reason = str(exc.args[0]).split('Reason: ', 1)[-1]
            if not reason.startswith(f'parameter {p.name!r}'):
                reason = f'parameter {p.name!r}: {reason}'
            raise ValueError(reason) from None
        if isinstance(value, tuple) or (p.value_type in _ARRAYS and not isinstance(value, list)):
            value = list(value)
        p.check(value)
        values[p.name] = value
    return values


def on_change(node: 'Node', parameters: Iterable[Parameter],
              apply: Optional[Callable[[Dict[str, Any]], None]] = None,
              validate: Optional[Callable[[Mapping[str, Any]], Optional[str]]] = None,
              ) -> Tuple[Callable[[List[RclpyParameter[Any]]], SetParametersResult],
                         Callable[[List[RclpyParameter[Any]]], None]]:
    """
    Make the run-time parameters of `parameters` take effect when set.

    Registers, on `node`, a set-parameters callback that checks each changed parameter of
    the table against its range and choices and then calls ``validate(changes)`` (changes:
    {name: new value}, only this table's names; return a reason string to refuse, None to
    accept), and a post-set callback that calls ``apply(changes)`` once the values are
    stored. A refusal answers the set with successful=False and the reason; nothing is
    applied. Read-only parameters never get here: rclpy refuses them first. Parameters of
    other tables are left alone. Returns the two callback handles (for
    node.remove_on_set_parameters_callback / remove_post_set_parameters_callback).
    """
    specs = table(parameters)

    def changes_of(params: Sequence[RclpyParameter[Any]]) -> Dict[str, Any]:
        # Array values arrive as array.array or tuples: hand lists to the node.
        return {p.name: (list(p.value) if specs[p.name].value_type in _ARRAYS else p.value)
                for p in params if p.name in specs}

    def check(params: List[RclpyParameter[Any]]) -> SetParametersResult:
        changes = changes_of(params)
        try:
            for name, value in changes.items():
                specs[name].check(value)
        except ValueError as exc:
            return SetParametersResult(successful=False, reason=str(exc))
        reason = validate(changes) if (validate is not None and changes) else None
        if reason:
            return SetParametersResult(successful=False, reason=str(reason))
        return SetParametersResult(successful=True)

    def applied(params: List[RclpyParameter[Any]]) -> None:
        changes = changes_of(params)
        if changes and apply is not None:
            apply(changes)

    node.add_on_set_parameters_callback(check)
    node.add_post_set_parameters_callback(applied)
    return check, applied
