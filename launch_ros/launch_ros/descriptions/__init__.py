# SPDX-License-Identifier: Apache-2.0
"""Descriptions of launch_ros: parameters (ComposableNode is refused: no rclcpp here)."""

from ..parameter_descriptions import Parameter, ParameterFile, ParameterValue
from ..refusals import ComposableNode

__all__ = ['ComposableNode', 'Parameter', 'ParameterFile', 'ParameterValue']
