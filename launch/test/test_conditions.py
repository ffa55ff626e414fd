# SPDX-License-Identifier: Apache-2.0
"""IfCondition, UnlessCondition, LaunchConfiguration(Not)Equals, as upstream's tests."""

from launch import LaunchContext
from launch.conditions import evaluate_condition_expression
from launch.conditions import IfCondition
from launch.conditions import InvalidConditionExpressionError
from launch.conditions import LaunchConfigurationEquals
from launch.conditions import LaunchConfigurationNotEquals
from launch.conditions import UnlessCondition
from launch.substitutions import LaunchConfiguration
from launch.utilities import normalize_to_list_of_substitutions
import pytest


@pytest.mark.parametrize('text,value', [
    ('true', True), ('True', True), (' TRUE ', True), ('1', True),
    ('false', False), ('False', False), ('0', False)])
def test_valid_expressions(text, value):
    lc = LaunchContext()
    assert evaluate_condition_expression(lc, normalize_to_list_of_substitutions(text)) is value
    assert IfCondition(text).evaluate(lc) is value
    assert UnlessCondition(text).evaluate(lc) is (not value)


@pytest.mark.parametrize('text', ['', 'yes', 'no', '2', 'truee'])
def test_invalid_expressions(text):
    with pytest.raises(InvalidConditionExpressionError, match='invalid condition expression'):
        IfCondition(text).evaluate(LaunchContext())


def test_if_condition_of_launch_configuration():
    lc = LaunchContext()
    lc.launch_configurations['use'] = 'true'
    assert IfCondition(LaunchConfiguration('use')).evaluate(lc)
    lc.launch_configurations['use'] = 'false'
    assert not IfCondition(LaunchConfiguration('use')).evaluate(lc)


def test_launch_configuration_equals():
    lc = LaunchContext()
    assert LaunchConfigurationEquals('mode', None).evaluate(lc)
    assert not LaunchConfigurationNotEquals('mode', None).evaluate(lc)
    assert not LaunchConfigurationEquals('mode', 'sim').evaluate(lc)
    lc.launch_configurations['mode'] = 'sim'
    assert LaunchConfigurationEquals('mode', 'sim').evaluate(lc)
    assert not LaunchConfigurationEquals('mode', 'real').evaluate(lc)
    assert LaunchConfigurationNotEquals('mode', 'real').evaluate(lc)
    assert not LaunchConfigurationEquals('mode', None).evaluate(lc)
