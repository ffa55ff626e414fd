# SPDX-License-Identifier: Apache-2.0
"""Node: run a ROS 2 node executable of a package with its ROS arguments."""

import collections
import os
import pathlib
import tempfile
from typing import Any, Dict, Iterable, List, Optional, Text, Tuple, Type

from launch.action import Action

from launch.actions import ExecuteProcess
from launch.frontend import Entity
from launch.frontend import expose_action
import launch.logging
from launch.some_substitutions_type import SomeSubstitutionsType
from launch.substitutions import LocalSubstitution
from launch.utilities import normalize_to_list_of_substitutions, perform_substitutions
import yaml

from ..parameter_descriptions import Parameter
from ..substitutions import ExecutableInPackage
from ..utilities import evaluate_parameters
from ..utilities import make_namespace_absolute
from ..utilities import prefix_namespace
from ..utilities import validate_namespace
from ..utilities import validate_node_name


def _yaml_value(value: Any) -> Text:
    text = yaml.safe_dump(value, default_flow_style=True, width=1 << 30).strip()
    if text.endswith('\n...'):
        text = text[:-4]
    elif text.endswith('...'):
        text = text[:-3].strip()
    return str(text)


def check_parameter_file(path: Text) -> None:
    """Raise RuntimeError (file and line) if ``path`` is not a valid YAML parameter file."""
    try:
        with open(path, encoding='utf-8') as f:
            yaml.safe_load(f)
    except yaml.YAMLError as e:
        mark = getattr(e, 'problem_mark', None)
        where = f', line {mark.line + 1}' if mark is not None else ''
        problem = getattr(e, 'problem', None) or str(e).splitlines()[0]
        raise RuntimeError(f"parameter file '{path}' is not valid YAML{where}: {problem}") \
            from None


@expose_action('node')
class Node(ExecuteProcess):
    """
    Runs ``lib/<package>/<executable>`` (found through the ament index) as a ROS 2 node.

    The command line is ``<executable> [arguments] [--ros-args ros_arguments] --ros-args
    [-r __node:=<name>] [-r __ns:=<namespace>] [global parameters] [--params-file <file>
    | -p name:=value ...] [-r from:=to ...]``: ``parameters`` are YAML files (paths or
    substitutions), dicts (written to a temporary parameter file) or
    launch_ros.parameter_descriptions.Parameter (``-p``). The namespace is pushed ones
    (PushRosNamespace) followed by ``namespace``. ``exec_name`` names the process in the
    output (default: the executable). Everything else as launch.actions.ExecuteProcess.
    """

    def __init__(self, *, executable: SomeSubstitutionsType,
                 package: Optional[SomeSubstitutionsType] = None,
                 name: Optional[SomeSubstitutionsType] = None,
                 namespace: Optional[SomeSubstitutionsType] = None,
                 exec_name: Optional[SomeSubstitutionsType] = None,
                 parameters: Optional[Iterable[Any]] = None,
                 remappings: Optional[Iterable[Tuple[SomeSubstitutionsType,
                                                     SomeSubstitutionsType]]] = None,
                 ros_arguments: Optional[Iterable[SomeSubstitutionsType]] = None,
                 arguments: Optional[Iterable[SomeSubstitutionsType]] = None,
                 **kwargs: Any) -> None:
        """Create the action."""
        if package is not None:
            cmd: List[Any] = [ExecutableInPackage(package=package, executable=executable)]
        else:
            cmd = [executable]
        cmd += list(arguments) if arguments is not None else []
        if ros_arguments is not None:
            cmd += ['--ros-args', *ros_arguments]
        cmd += ['--ros-args']
        if name is not None:
            cmd += ['-r', LocalSubstitution("ros_specific_arguments['name']")]
        if exec_name is None:
            exec_name = executable
        super().__init__(cmd=cmd, name=exec_name, **kwargs)
        self.__package = package
        self.__node_executable = executable
        self.__node_name = name
        self.__node_namespace = namespace
        self.__parameters = list(parameters) if parameters is not None else None
        self.__remappings = [(normalize_to_list_of_substitutions(src),
                              normalize_to_list_of_substitutions(dst))
                             for src, dst in remappings] if remappings is not None else None
        self.__ros_arguments = ros_arguments
        self.__arguments = arguments
        self.__expanded_node_name = '<node_name_unspecified>'
        self.__expanded_node_namespace = ''
        self.__expanded_parameter_arguments: Optional[List[Tuple[Text, bool]]] = None
        self.__expanded_remappings: Optional[List[Tuple[Text, Text]]] = None
        self.__final_node_name: Optional[Text] = None
        self.__substitutions_performed = False
        self.__logger = launch.logging.get_logger(__name__)

    @staticmethod
    def parse_nested_parameters(params: List[Entity], parser: Any) -> List[Any]:
        """Return the ``<param>`` children as parameter files and one dict of the rest."""
        files: List[Any] = []
        values: Dict[Any, Any] = {}

        def fill(entities: List[Entity], target: Dict[Any, Any]) -> None:
            for param in entities:
                source = param.get_attr('from', optional=True)
                if source is not None:
                    files.append(parser.parse_substitution(source))
                    continue
                name = tuple(parser.parse_substitution(param.get_attr('name')))
                nested = param.get_attr('param', data_type=List[Entity], optional=True)
                if nested is not None:
                    fill(nested, target.setdefault(name, {}))
                    continue
                value = param.get_attr('value', data_type=None)
                if isinstance(value, str):
                    value = parser.parse_substitution(value)
                elif isinstance(value, list):
                    value = [parser.parse_substitution(v) if isinstance(v, str) else v
                             for v in value]
                target[name] = value

        fill(params, values)
        return files + ([values] if values else [])

    @classmethod
    def parse(cls, entity: Entity, parser: Any, ignore: Optional[List[Text]] = None
              ) -> Tuple[Type[Action], Dict[str, Any]]:
        """Parse ``<node pkg exec name namespace args ros_args ...>`` and its children."""
        _, kwargs = super().parse(entity, parser, ignore=['cmd', *(ignore or [])])
        for attr in ('args', 'ros_args'):
            value = entity.get_attr(attr, optional=True)
            if value is not None:
                kwargs['arguments' if attr == 'args' else 'ros_arguments'] = \
                    super()._parse_cmdline(value, parser)
        for attr, key in (('pkg', 'package'), ('exec', 'executable'), ('name', 'name'),
                          ('namespace', 'namespace'), ('exec_name', 'exec_name')):
            value = entity.get_attr(attr, optional=attr != 'exec')
            if value is not None:
                kwargs[key] = parser.parse_substitution(value)
        kwargs.pop('cmd', None)
        params = entity.get_attr('param', data_type=List[Entity], optional=True)
        if params is not None:
            kwargs['parameters'] = cls.parse_nested_parameters(params, parser)
        remaps = entity.get_attr('remap', data_type=List[Entity], optional=True)
        if remaps is not None:
            kwargs['remappings'] = [(parser.parse_substitution(r.get_attr('from')),
                                     parser.parse_substitution(r.get_attr('to')))
                                    for r in remaps]
        return cls, kwargs

    @property
    def node_package(self) -> Any:
        """Getter for node_package."""
        return self.__package

    @property
    def node_executable(self) -> Any:
        """Getter for node_executable."""
        return self.__node_executable

    @property
    def node_name(self) -> Text:
        """Getter for the node's full name (after execution)."""
        if self.__final_node_name is None:
            raise RuntimeError("cannot access 'node_name' before executing action")
        return self.__final_node_name

    @property
    def expanded_node_namespace(self) -> Text:
        """Getter for the node's namespace (after execution)."""
        return self.__expanded_node_namespace

    @property
    def expanded_remapping_rules(self) -> Optional[List[Tuple[Text, Text]]]:
        """Getter for the remappings (after execution)."""
        return self.__expanded_remappings

    @property
    def expanded_parameter_arguments(self) -> Optional[List[Tuple[Text, bool]]]:
        """Getter for the parameter arguments: (file or name:=value, is_file)."""
        return self.__expanded_parameter_arguments

    @property
    def ros_arguments(self) -> Any:
        """Getter for ros_arguments."""
        return self.__ros_arguments

    @property
    def arguments(self) -> Any:
        """Getter for arguments."""
        return self.__arguments

    def is_node_name_fully_specified(self) -> bool:
        """Return True if the name and namespace do not come from the executable."""
        return self.__node_name is not None and self.__node_namespace is not None

    def _create_params_file_from_dict(self, params: Dict[Text, Any]) -> Text:
        with tempfile.NamedTemporaryFile(mode='w', prefix='launch_params_', suffix='.yaml',
                                         delete=False) as f:
            yaml.safe_dump({'/**': {'ros__parameters': params}}, f, default_flow_style=False)
            return f.name

    def _get_parameter_rule(self, param: Parameter, context: Any) -> Text:
        name, value = param.evaluate(context)
        return f'{name}:={_yaml_value(value)}'

    def __extend_cmd(self, parts: List[Any]) -> None:
        self.cmd.extend(normalize_to_list_of_substitutions(p) for p in parts)

    def _perform_substitutions(self, context: Any) -> None:
        if self.__substitutions_performed:
            return
        self.__substitutions_performed = True
        if self.__node_name is not None:
            self.__expanded_node_name = perform_substitutions(
                context, normalize_to_list_of_substitutions(self.__node_name))
            validate_node_name(self.__expanded_node_name)
        namespace: Optional[Text] = None
        if self.__node_namespace is not None:
            namespace = perform_substitutions(
                context, normalize_to_list_of_substitutions(self.__node_namespace))
        namespace = make_namespace_absolute(prefix_namespace(
            context.launch_configurations.get('ros_namespace', None), namespace))
        if namespace is not None:
            if namespace != '/':
                namespace = namespace.rstrip('/')
            self.__expanded_node_namespace = namespace
            validate_namespace(namespace)
            self.__extend_cmd(['-r', LocalSubstitution("ros_specific_arguments['ns']")])
        self.__final_node_name = prefix_namespace(
            self.__expanded_node_namespace or '/', self.__expanded_node_name)

        global_params = context.launch_configurations.get('global_params', None)
        if global_params is not None or self.__parameters is not None:
            self.__expanded_parameter_arguments = []
        expanded: List[Tuple[Text, bool]] = self.__expanded_parameter_arguments \
            if self.__expanded_parameter_arguments is not None else []
        for param in global_params or []:
            if isinstance(param, tuple):
                name, value = param
                self.__extend_cmd(['-p', f'{name}:={value}'])
            else:
                path = os.path.abspath(str(param))
                check_parameter_file(path)
                expanded.append((path, True))
                self.__extend_cmd(['--params-file', path])
        for params in evaluate_parameters(context, self.__parameters or []):
            if isinstance(params, dict):
                argument, is_file = self._create_params_file_from_dict(params), True
            elif isinstance(params, pathlib.Path):
                argument, is_file = str(params), True
                if not os.path.isfile(argument):
                    self.__logger.warning(f'Parameter file path is not a file: {argument}')
                    continue
                check_parameter_file(argument)
            else:
                argument, is_file = self._get_parameter_rule(params, context), False
            expanded.append((argument, is_file))
            self.__extend_cmd(['--params-file' if is_file else '-p', argument])

        remaps: List[Tuple[Text, Text]] = list(context.launch_configurations.get(
            'ros_remaps', None) or [])
        remaps += [(perform_substitutions(context, src), perform_substitutions(context, dst))
                   for src, dst in self.__remappings or []]
        if remaps:
            self.__expanded_remappings = remaps
            for src, dst in remaps:
                self.__extend_cmd(['-r', f'{src}:={dst}'])

    def execute(self, context: Any) -> Optional[List[Any]]:
        """Perform the ROS arguments, then run the process as ExecuteProcess does."""
        self._perform_substitutions(context)
        ros_specific_arguments: Dict[Text, Text] = {}
        if self.__node_name is not None:
            ros_specific_arguments['name'] = f'__node:={self.__expanded_node_name}'
        if self.__expanded_node_namespace != '':
            ros_specific_arguments['ns'] = f'__ns:={self.__expanded_node_namespace}'
        context.extend_locals({'ros_specific_arguments': ros_specific_arguments})
        result = super().execute(context)
        if self.is_node_name_fully_specified():
            try:
                names = context.locals.unique_ros_node_names
            except AttributeError:
                names = collections.Counter()
                context.extend_globals({'unique_ros_node_names': names})
            names[self.node_name] += 1
            if names[self.node_name] > 1:
                launch.logging.get_logger(self.process_description.final_name).warning(
                    f'there are now at least {names[self.node_name]} nodes with the name '
                    f'{self.node_name} created within this launch context')
        return result
