# SPDX-License-Identifier: Apache-2.0
"""Parameter, ParameterFile, ParameterValue: what Node's ``parameters`` may hold."""

import pathlib
from typing import Any, Optional, Text, Tuple

from launch.substitution import Substitution
from launch.utilities import normalize_to_list_of_substitutions, perform_substitutions
import yaml


class ParameterValue:
    """A parameter value (substitutions or a plain value), typed as ``value_type`` if given."""

    def __init__(self, value: Any, *, value_type: Optional[type] = None) -> None:
        """Create the value."""
        self.__value = value
        self.__value_type = value_type

    @property
    def value(self) -> Any:
        """Getter for value."""
        return self.__value

    @property
    def value_type(self) -> Optional[type]:
        """Getter for value_type."""
        return self.__value_type

    def evaluate(self, context: Any) -> Any:
        """Return the value, performed and typed."""
        value = self.__value
        if isinstance(value, (str, Substitution)) or (
                isinstance(value, (list, tuple)) and value
                and all(isinstance(v, (str, Substitution)) for v in value)
                and any(isinstance(v, Substitution) for v in value)):
            text = perform_substitutions(context, normalize_to_list_of_substitutions(value))
            if self.__value_type is str:
                return text
            value = yaml.safe_load(text) if text else ''
        if self.__value_type is not None and self.__value_type is not str and value != '':
            value = self.__value_type(value)
        return value


class Parameter:
    """One parameter, ``name`` := ``value`` (passed as ``-p name:=value``)."""

    def __init__(self, name: Any, value: Any, *, value_type: Optional[type] = None) -> None:
        """Create the parameter."""
        self.__name = normalize_to_list_of_substitutions(name)
        self.__value = value if isinstance(value, ParameterValue) \
            else ParameterValue(value, value_type=value_type)

    @property
    def name(self) -> Any:
        """Getter for name."""
        return self.__name

    @property
    def value(self) -> ParameterValue:
        """Getter for value."""
        return self.__value

    def evaluate(self, context: Any) -> Tuple[Text, Any]:
        """Return (name, value), performed."""
        return perform_substitutions(context, self.__name), self.__value.evaluate(context)


class ParameterFile:
    """A parameter file (path: substitutions)."""

    def __init__(self, param_file: Any, *, allow_substs: bool = False) -> None:
        """Create the description; ``allow_substs`` is accepted and ignored here."""
        self.__param_file = param_file if isinstance(param_file, pathlib.Path) \
            else normalize_to_list_of_substitutions(str(param_file) if isinstance(
                param_file, pathlib.PurePath) else param_file)
        self.__allow_substs = allow_substs

    @property
    def param_file(self) -> Any:
        """Getter for param_file."""
        return self.__param_file

    def evaluate(self, context: Any) -> pathlib.Path:
        """Return the path."""
        if isinstance(self.__param_file, pathlib.Path):
            return self.__param_file
        return pathlib.Path(perform_substitutions(context, self.__param_file))
