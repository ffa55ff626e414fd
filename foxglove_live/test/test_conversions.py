# SPDX-License-Identifier: Apache-2.0
"""Parameter value conversions and service schemas, without a running graph."""

from foxglove_live import parameters as params
from foxglove_live import services
import pytest
from rcl_interfaces.msg import ParameterType as T, ParameterValue


def test_split_name_at_first_dot():
    assert params.split_name('/hb50/bridge_node.kp_max') == ('/hb50/bridge_node', 'kp_max')
    assert params.split_name('/n.qos_overrides./tf.publisher.depth') == \
        ('/n', 'qos_overrides./tf.publisher.depth')
    for bad in ('kp_max', '/node', '/node.', 'node.x'):
        with pytest.raises(params.ParameterRefused):
            params.split_name(bad)


def test_whole_number_sets_a_double():
    value = params.to_ros(10, T.PARAMETER_DOUBLE)
    assert value.type == T.PARAMETER_DOUBLE and value.double_value == 10.0
    value = params.to_ros([1, 2.5], T.PARAMETER_DOUBLE_ARRAY)
    assert list(value.double_array_value) == [1.0, 2.5]


@pytest.mark.parametrize('value, kind', [
    ('very high', T.PARAMETER_DOUBLE), (True, T.PARAMETER_DOUBLE), (1.5, T.PARAMETER_INTEGER),
    (True, T.PARAMETER_INTEGER), (1, T.PARAMETER_BOOL), (3, T.PARAMETER_STRING),
    (['a', 1], T.PARAMETER_STRING_ARRAY), ([1, 'x'], T.PARAMETER_INTEGER_ARRAY),
])
def test_wrong_type_refused(value, kind):
    with pytest.raises(params.ParameterRefused, match='is expected'):
        params.to_ros(value, kind)


def test_new_parameter_takes_the_value_type():
    assert params.to_ros('x', T.PARAMETER_NOT_SET).type == T.PARAMETER_STRING
    assert params.to_ros([True], T.PARAMETER_NOT_SET).type == T.PARAMETER_BOOL_ARRAY
    with pytest.raises(params.ParameterRefused):
        params.to_ros(None, T.PARAMETER_NOT_SET)


def test_ros_values_to_foxglove():
    double = params.to_foxglove('/n.d', ParameterValue(type=T.PARAMETER_DOUBLE,
                                                       double_value=2.0))
    # a whole double keeps its type on the wire (JSON alone would make it an integer)
    assert double == {'name': '/n.d', 'value': 2.0, 'type': 'float64'}
    ints = params.to_foxglove('/n.i', ParameterValue(type=T.PARAMETER_INTEGER_ARRAY,
                                                     integer_array_value=[1, 2]))
    assert ints == {'name': '/n.i', 'value': [1, 2]}
    raw = params.to_foxglove('/n.b', ParameterValue(type=T.PARAMETER_BYTE_ARRAY,
                                                    byte_array_value=[b'\x01', b'\xff']))
    assert raw == {'name': '/n.b', 'value': 'Af8=', 'type': 'byte_array'}
    assert params.to_foxglove('/n.x', ParameterValue(type=T.PARAMETER_NOT_SET)) is None


def test_client_values_by_protocol_type():
    assert params.client_value({'name': '/n.b', 'value': 'Af8=', 'type': 'byte_array'}) == \
        b'\x01\xff'
    assert params.client_value({'name': '/n.d', 'value': 3, 'type': 'float64'}) == 3.0
    assert params.client_value({'name': '/n.a', 'value': [1, 2],
                                'type': 'float64_array'}) == [1.0, 2.0]
    with pytest.raises(params.ParameterRefused, match='base64'):
        params.client_value({'name': '/n.b', 'value': '!!', 'type': 'byte_array'})


def test_service_schema_of_robstride_get_data():
    request, response = services.service_definitions(
        'robstride_interfaces/srv/GetDataFromRobstride')
    assert 'string item_name' in request and 'float32 item_data' not in request
    assert 'float32 item_data' in response and 'bool result' in response
    # nested types once each, in the ros2msg layout
    assert request.count('MSG: std_msgs/Header') == 1
    assert request.count('MSG: builtin_interfaces/Time') == 1


def test_malformed_service_request_refused():
    cls = services.service_class('robstride_interfaces/srv/GetDataFromRobstride')
    with pytest.raises(services.ServiceRefused, match='malformed CDR'):
        services.decode_request(cls, 'cdr', b'\x00\x01\x00')
    with pytest.raises(services.ServiceRefused, match='encoding'):
        services.decode_request(cls, 'json', b'{}')
