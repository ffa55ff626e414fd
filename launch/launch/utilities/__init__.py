# SPDX-License-Identifier: Apache-2.0
"""Helpers of the launch package that other packages (launch_ros, launch files) use too."""

from .class_tools_impl import is_a, is_a_subclass, isclassinstance
from .create_future_impl import create_future
from .ensure_argument_type_impl import ensure_argument_type
from .normalize_to_list_of_entities_impl import normalize_to_list_of_entities
from .normalize_to_list_of_substitutions_impl import normalize_to_list_of_substitutions
from .perform_substitutions_impl import perform_substitutions
from .type_utils import perform_typed_substitution
from .visit_all_entities_and_collect_futures_impl import visit_all_entities_and_collect_futures

__all__ = [
    'create_future',
    'ensure_argument_type',
    'is_a',
    'is_a_subclass',
    'isclassinstance',
    'normalize_to_list_of_entities',
    'normalize_to_list_of_substitutions',
    'perform_substitutions',
    'perform_typed_substitution',
    'visit_all_entities_and_collect_futures',
]
