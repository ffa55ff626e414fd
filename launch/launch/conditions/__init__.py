# SPDX-License-Identifier: Apache-2.0
"""The conditions of launch: IfCondition, UnlessCondition, LaunchConfiguration(Not)Equals."""

from .evaluate_condition_expression_impl import evaluate_condition_expression
from .if_condition import IfCondition
from .invalid_condition_expression_error import InvalidConditionExpressionError
from .launch_configuration_equals import LaunchConfigurationEquals
from .launch_configuration_not_equals import LaunchConfigurationNotEquals
from .unless_condition import UnlessCondition

__all__ = [
    'evaluate_condition_expression',
    'IfCondition',
    'InvalidConditionExpressionError',
    'LaunchConfigurationEquals',
    'LaunchConfigurationNotEquals',
    'UnlessCondition',
]
