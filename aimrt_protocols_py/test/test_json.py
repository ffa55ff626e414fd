# SPDX-License-Identifier: Apache-2.0
import json

from aimrt_protocols_py import codec
from aimrt_protocols_py.errors import JsonFormatError, UnsupportedContentTypeError
from aimrt_protocols_py.messages import Header, ImuState, JointCommand, JointState
import pytest


def test_json_out_uses_proto_names_and_prints_defaults():
    msg = JointState(header=Header(time_stamp=5), joints=[{'name': 'j'}])
    out = json.loads(codec.to_json(msg))
    assert out == {'header': {'time_stamp': '5', 'frame_id': ''},
                   'joints': [{'name': 'j', 'position': 0.0, 'velocity': 0.0, 'effort': 0.0}]}


def test_json_defaults_of_empty_imu():
    out = json.loads(codec.to_json(ImuState()))
    assert out['orientation_covariance'] == [] and 'linear_acceleration_covariance' in out


@pytest.mark.parametrize('text', [
    '{"header": {"time_stamp": "7", "frame_id": "f"}, "joints": [{"name": "a", "stiffness": 3,'
    ' "damping": 0.5}]}',
    '{"header": {"timeStamp": 7, "frameId": "f"}, "joints": [{"name": "a", "stiffness": 3.0,'
    ' "damping": 0.5}]}',
])
def test_json_in_snake_and_camel(text):
    msg = codec.from_json(JointCommand, text)
    assert msg.header.time_stamp == 7 and msg.header.frame_id == 'f'
    assert msg.joints[0].stiffness == 3.0 and msg.joints[0].damping == 0.5


def test_json_round_trip_bytes_input():
    msg = JointCommand(header=Header(time_stamp=2**63), joints=[{'name': 'x', 'effort': -1.5}])
    assert codec.from_json(JointCommand, codec.to_json(msg).encode()) == msg


@pytest.mark.parametrize('text', [
    'not json', '[1, 2]', '{"joints": 3}', '{"joints": [{"position": "abc"}]}',
    '{"header": {"time_stamp": -1}}', '{"nope": 1}', b'\xff\xfe',
])
def test_bad_json_raises_named_error(text):
    with pytest.raises(JsonFormatError):
        codec.from_json(JointState, text)


def test_unknown_json_keys_can_be_dropped_explicitly():
    text = '{"header": {"time_stamp": "1", "sequence_num": "4"}}'
    with pytest.raises(JsonFormatError):
        codec.from_json(JointState, text)
    assert codec.from_json(JointState, text, ignore_unknown_fields=True).header.time_stamp == 1


def test_binary_unknown_fields_are_not_in_json():
    msg = codec.decode(Header, b'\x08\x01\x18\x07')
    assert json.loads(codec.to_json(msg)) == {'time_stamp': '1', 'frame_id': ''}


def test_body_codec_by_content_type():
    msg = JointCommand(joints=[{'name': 'k', 'stiffness': 10.0}])
    for kind in ('pb', 'json'):
        body, ctype = codec.encode_body(msg, kind)
        assert codec.decode_body(JointCommand, body, ctype) == msg
    assert codec.serialization_of('application/json charset=utf-8') == 'json'
    assert codec.serialization_of('application/json; charset=utf-8') == 'json'
    with pytest.raises(UnsupportedContentTypeError):
        codec.serialization_of('text/plain')
