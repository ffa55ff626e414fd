# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""The typed message classes agree with the layout table; a class that does not is refused."""

from horus_msg_py import MESSAGE_TYPES, messages, Temperature
from horus_msg_py.layouts import LAYOUTS
from horus_msg_py.messages import (ArrayField, FloatField, HorusMessage, IntField,
                                   NameField)
import numpy as np
import pytest


def test_every_layout_has_a_class_with_its_fields_in_wire_order():
    assert set(MESSAGE_TYPES) == set(LAYOUTS)
    for name, cls in MESSAGE_TYPES.items():
        assert cls.__name__ == name
        assert list(cls.__annotations__) == [f[0] for f in LAYOUTS[name][1]]
        assert cls.FIELDS == tuple(cls.__annotations__)
        assert cls.SIZE == LAYOUTS[name][0] == cls.DTYPE.itemsize


def test_class_attribute_is_the_documented_field():
    assert Temperature.temperature.__doc__ == 'temperature (float64)'
    assert Temperature.frame_id.__doc__.startswith('frame_id: NUL-terminated')


def _declare(**annotations):
    namespace = {'__slots__': (), '__annotations__': annotations}
    return type('Temperature', (HorusMessage,), namespace)


@pytest.mark.parametrize('annotations', [
    # a field missing, fields out of order, a kind or a type that does not fit the table
    {'temperature': FloatField, 'variance': FloatField, 'frame_id': NameField},
    {'variance': FloatField, 'temperature': FloatField, 'frame_id': NameField,
     'timestamp_ns': IntField},
    {'temperature': IntField, 'variance': FloatField, 'frame_id': NameField,
     'timestamp_ns': IntField},
    {'temperature': ArrayField[np.float64], 'variance': FloatField, 'frame_id': NameField,
     'timestamp_ns': IntField},
])
def test_a_class_that_disagrees_with_the_layout_table_is_refused(annotations):
    before = MESSAGE_TYPES['Temperature']
    with pytest.raises(TypeError, match='LAYOUTS has'):
        messages._from_layout(_declare(**annotations))
    assert MESSAGE_TYPES['Temperature'] is before
