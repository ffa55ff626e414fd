# SPDX-License-Identifier: Apache-2.0
"""
node_runtime.parameters on a real rclpy node in this process.

Descriptors as `ros2 param describe` sees them (also through the node's describe_parameters
and set_parameters services, the calls the ros2 CLI makes), start-up values checked with a
one-line error, read-only sets refused, run-time sets validated and applied, empty lists
typed.
"""

import math
import random

from node_runtime.parameters import declare, on_change, Parameter
import pytest
from rcl_interfaces.msg import ParameterType
from rcl_interfaces.srv import DescribeParameters, SetParameters
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.parameter import Parameter as RclpyParameter
from workspace_testing import allocate_domain, release_domain

TABLE = (
    Parameter('rate_hz', 500.0, 'cycle rate [Hz]', value_range=(1.0, 2000.0)),
    Parameter('host_id', 253, 'our CAN id', value_range=(0, 255)),
    Parameter('bus', 'sim', 'bus kind', choices=('sim', 'virtual', 'socketcan')),
    Parameter('names', ['a', 'b'], 'joint names, joint order'),
    Parameter('gain', 20.0, 'stiffness [N*m/rad]', read_only=False, value_range=(0.0, 500.0)),
    Parameter('load', [0.0, 0.0], 'external load per joint [N*m]', read_only=False,
              value_range=(-60.0, 60.0), constraints='one entry per joint'),
    Parameter('mode', 'ok', 'injected bus state', read_only=False,
              choices=('ok', 'not_open')),
    Parameter('extra_ids', [], 'more CAN ids', value_type='integer_array'),
    Parameter('offsets', [], 'offsets per joint [rad]', read_only=False,
              value_type='double_array'),
)


@pytest.fixture(scope='module')
def context():
    domain = allocate_domain()
    ctx = rclpy.Context()
    rclpy.init(context=ctx, domain_id=domain)
    yield ctx
    rclpy.try_shutdown(context=ctx)
    release_domain(domain)


def make_node(context, overrides=()):
    name = f'params_test_{random.randrange(1 << 30)}'
    return rclpy.create_node(name, context=context, parameter_overrides=[
        RclpyParameter(n, value=v) for n, v in overrides])


@pytest.fixture
def node(context):
    n = make_node(context)
    yield n
    n.destroy_node()


def test_every_parameter_gets_its_descriptor(node):
    values = declare(node, TABLE)
    assert values == {'rate_hz': 500.0, 'host_id': 253, 'bus': 'sim', 'names': ['a', 'b'],
                      'gain': 20.0, 'load': [0.0, 0.0], 'mode': 'ok', 'extra_ids': [],
                      'offsets': []}
    d = node.describe_parameter('rate_hz')
    assert (d.description, d.read_only, d.type) == ('cycle rate [Hz]', True,
                                                    ParameterType.PARAMETER_DOUBLE)
    assert (d.floating_point_range[0].from_value, d.floating_point_range[0].to_value) == \
        (1.0, 2000.0)
    d = node.describe_parameter('host_id')
    assert (d.integer_range[0].from_value, d.integer_range[0].to_value) == (0, 255)
    assert node.describe_parameter('bus').additional_constraints == \
        'one of: sim, virtual, socketcan'
    d = node.describe_parameter('load')
    assert not d.read_only and d.type == ParameterType.PARAMETER_DOUBLE_ARRAY
    assert d.additional_constraints == 'each element in [-60, 60]; one entry per joint'
    assert not d.floating_point_range      # ROS ranges are for scalars only


def test_empty_list_defaults_are_typed(node):
    declare(node, TABLE)
    assert node.describe_parameter('extra_ids').type == ParameterType.PARAMETER_INTEGER_ARRAY
    assert node.get_parameter('offsets').type_ == RclpyParameter.Type.DOUBLE_ARRAY
    assert node.get_parameter('offsets').value == []
    ok = node.set_parameters([RclpyParameter('offsets', value=[0.5, -0.5])])[0]
    assert ok.successful, ok.reason
    assert list(node.get_parameter('offsets').value) == [0.5, -0.5]
    wrong = node.set_parameters([RclpyParameter('offsets', value=['x'])])[0]
    assert not wrong.successful


def test_an_empty_list_without_type_is_refused_at_definition():
    with pytest.raises(ValueError, match="'ids'.*value_type="):
        Parameter('ids', [], 'ids')


def test_read_only_set_is_refused_and_changes_nothing(node):
    declare(node, TABLE)
    result = node.set_parameters([RclpyParameter('rate_hz', value=100.0)])[0]
    assert not result.successful
    assert 'read-only' in result.reason and 'rate_hz' in result.reason
    assert node.get_parameter('rate_hz').value == 500.0


def test_runtime_set_is_validated_then_applied(node):
    declare(node, TABLE)
    applied, seen = [], []

    def validate(changes):
        seen.append(dict(changes))
        if 'load' in changes and len(changes['load']) != 2:
            return f'load needs 2 entries, got {len(changes["load"])}'
        return None
    on_change(node, TABLE, applied.append, validate)

    result = node.set_parameters([RclpyParameter('gain', value=80.0)])[0]
    assert result.successful, result.reason
    assert applied == [{'gain': 80.0}]

    result = node.set_parameters([RclpyParameter('gain', value=600.0)])[0]
    assert not result.successful and 'out of range' in result.reason
    result = node.set_parameters([RclpyParameter('gain', value=math.nan)])[0]
    assert not result.successful
    result = node.set_parameters([RclpyParameter('load', value=[1.0, 61.0])])[0]
    assert (result.successful, result.reason) == (
        False, "parameter 'load'[1]: 61.0 is outside [-60, 60]")
    result = node.set_parameters([RclpyParameter('load', value=[1.0])])[0]
    assert (result.successful, result.reason) == (False, 'load needs 2 entries, got 1')
    result = node.set_parameters([RclpyParameter('mode', value='broken')])[0]
    assert (result.successful, result.reason) == (
        False, "parameter 'mode': 'broken' is not one of ok, not_open")
    assert applied == [{'gain': 80.0}]          # nothing refused was applied
    assert node.get_parameter('gain').value == 80.0
    assert list(node.get_parameter('load').value) == [0.0, 0.0]

    result = node.set_parameters_atomically([RclpyParameter('load', value=[2.0, -2.0]),
                                             RclpyParameter('mode', value='not_open')])
    assert result.successful, result.reason
    assert applied[-1] == {'load': [2.0, -2.0], 'mode': 'not_open'}
    assert type(applied[-1]['load']) is list
    assert seen[-1] == applied[-1]


@pytest.mark.parametrize('name, value, message', [
    ('rate_hz', 5000.0, "parameter 'rate_hz': Parameter rate_hz out of range"),
    ('host_id', -1, "parameter 'host_id': Parameter host_id out of range"),
    ('bus', 'can', "parameter 'bus': 'can' is not one of sim, virtual, socketcan"),
    ('load', [0.0, 100.0], "parameter 'load'[1]: 100.0 is outside [-60, 60]"),
    ('rate_hz', 500, "parameter 'rate_hz': wrong type"),
])
def test_bad_start_up_values_stop_with_one_line(context, name, value, message):
    n = make_node(context, [(name, value)])
    try:
        with pytest.raises(ValueError) as exc:
            declare(n, TABLE)
        text = str(exc.value)
        assert text.startswith(message) and '\n' not in text, text
    finally:
        n.destroy_node()


def test_overrides_win_and_are_returned(context):
    n = make_node(context, [('rate_hz', 250.0), ('extra_ids', [3, 4]), ('names', ['x'])])
    try:
        values = declare(n, TABLE)
        got = (values['rate_hz'], values['extra_ids'], values['names'])
        assert got == (250.0, [3, 4], ['x'])
    finally:
        n.destroy_node()


def test_definition_errors():
    with pytest.raises(ValueError, match='outside'):
        Parameter('x', 5.0, 'x', value_range=(0.0, 1.0))
    with pytest.raises(ValueError, match='value_range needs a numeric type'):
        Parameter('x', 'a', 'x', value_range=(0, 1))
    with pytest.raises(ValueError, match='type'):
        Parameter('x', 1.0, 'x', value_type='float')
    assert Parameter('x', 1, 'x', value_type='double').default == 1.0
    assert Parameter('x', [1, 2.5], 'x').value_type == RclpyParameter.Type.DOUBLE_ARRAY
    with pytest.raises(ValueError, match='listed twice'):
        declare(None, [Parameter('x', 1, 'x'), Parameter('x', 2, 'x')])


def test_the_services_ros2_param_uses(context):
    # `ros2 param describe` / `ros2 param set` call these two services of the node.
    server = make_node(context)
    client_node = make_node(context)
    executor = SingleThreadedExecutor(context=context)
    try:
        declare(server, TABLE)
        applied = []
        on_change(server, TABLE, applied.append)
        executor.add_node(server)
        executor.add_node(client_node)
        prefix = server.get_fully_qualified_name()

        def call(srv_type, service, request):
            client = client_node.create_client(srv_type, f'{prefix}/{service}')
            assert client.wait_for_service(timeout_sec=30.0)
            future = client.call_async(request)
            executor.spin_until_future_complete(future, timeout_sec=30.0)
            assert future.done()
            return future.result()

        described = call(DescribeParameters, 'describe_parameters',
                         DescribeParameters.Request(names=['gain', 'host_id']))
        gain, host_id = described.descriptors
        assert (gain.description, gain.read_only) == ('stiffness [N*m/rad]', False)
        assert (host_id.description, host_id.read_only) == ('our CAN id', True)

        results = call(SetParameters, 'set_parameters', SetParameters.Request(parameters=[
            RclpyParameter('gain', value=42.0).to_parameter_msg(),
            RclpyParameter('host_id', value=7).to_parameter_msg()])).results
        assert results[0].successful and not results[1].successful
        assert 'read-only' in results[1].reason
        assert applied == [{'gain': 42.0}]
        assert server.get_parameter('host_id').value == 253
    finally:
        executor.shutdown()
        client_node.destroy_node()
        server.destroy_node()
