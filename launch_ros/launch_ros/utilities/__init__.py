# SPDX-License-Identifier: Apache-2.0
"""Helpers of launch_ros."""

from .namespace_utils import is_namespace_absolute
from .namespace_utils import is_root_namespace
from .namespace_utils import make_namespace_absolute
from .namespace_utils import prefix_namespace
from .namespace_utils import validate_namespace
from .namespace_utils import validate_node_name
from .normalize_parameters import evaluate_parameter_dict
from .normalize_parameters import evaluate_parameters

__all__ = [
    'evaluate_parameter_dict',
    'evaluate_parameters',
    'is_namespace_absolute',
    'is_root_namespace',
    'make_namespace_absolute',
    'prefix_namespace',
    'validate_namespace',
    'validate_node_name',
]
