# SPDX-License-Identifier: Apache-2.0
"""Parameters of Node: files, dicts and Parameter descriptions, performed and typed."""

import os
import pathlib
from typing import Any, Dict, List, Union

from launch.substitution import Substitution
from launch.utilities import normalize_to_list_of_substitutions, perform_substitutions
import yaml

from ..parameter_descriptions import Parameter, ParameterFile, ParameterValue


def _is_substitutions(value: Any) -> bool:
    if isinstance(value, (str, Substitution)):
        return True
    return isinstance(value, (list, tuple)) and len(value) > 0 and all(
        isinstance(v, (str, Substitution)) for v in value) and any(
        isinstance(v, Substitution) for v in value)


def _typed_from_text(text: str) -> Any:
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    if value is None:
        return ''
    if isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list) and all(isinstance(v, (bool, int, float, str)) for v in value):
        return value
    return text


def evaluate_parameter_value(context: Any, value: Any) -> Any:
    """Return a parameter value with its substitutions performed, typed as YAML would."""
    if isinstance(value, ParameterValue):
        return value.evaluate(context)
    if isinstance(value, bytes):
        return value
    if _is_substitutions(value):
        return _typed_from_text(
            perform_substitutions(context, normalize_to_list_of_substitutions(value)))
    if isinstance(value, (list, tuple)):
        items = [evaluate_parameter_value(context, v) for v in value]
        return items
    return value


def evaluate_parameter_dict(context: Any, parameters: Dict[Any, Any],
                            prefix: str = '') -> Dict[str, Any]:
    """Return the dict flattened ('a.b' names) with every value evaluated."""
    result: Dict[str, Any] = {}
    for key, value in parameters.items():
        name = key if isinstance(key, str) else perform_substitutions(
            context, normalize_to_list_of_substitutions(key))
        full = f'{prefix}{name}'
        if isinstance(value, dict):
            result.update(evaluate_parameter_dict(context, value, full + '.'))
        else:
            result[full] = evaluate_parameter_value(context, value)
    return result


def evaluate_parameters(context: Any, parameters: List[Any]
                        ) -> List[Union[pathlib.Path, Dict[str, Any], Parameter]]:
    """Evaluate Node's parameters: file paths, dicts, Parameter descriptions, in order."""
    evaluated: List[Union[pathlib.Path, Dict[str, Any], Parameter]] = []
    for item in parameters:
        if isinstance(item, dict):
            evaluated.append(evaluate_parameter_dict(context, item))
        elif isinstance(item, Parameter):
            evaluated.append(item)
        elif isinstance(item, ParameterFile):
            evaluated.append(item.evaluate(context))
        elif isinstance(item, (os.PathLike, pathlib.Path)):
            evaluated.append(pathlib.Path(item))
        elif _is_substitutions(item) or isinstance(item, (list, tuple)):
            evaluated.append(pathlib.Path(perform_substitutions(
                context, normalize_to_list_of_substitutions(item))))
        else:
            raise TypeError(f'invalid parameters item {item!r}: expected a parameter file, a '
                            'dict or a launch_ros.parameter_descriptions.Parameter')
    return evaluated
