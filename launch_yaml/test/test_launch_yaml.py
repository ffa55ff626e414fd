# SPDX-License-Identifier: Apache-2.0
"""ros2/launch's launch_yaml tests (executable, group, booleans, log ...) and errors."""

import io
import os
import textwrap

from launch import LaunchContext
from launch import LaunchService
from launch.actions import GroupAction
from launch.actions import IncludeLaunchDescription
from launch.actions import PopEnvironment
from launch.actions import PopLaunchConfigurations
from launch.actions import PushEnvironment
from launch.actions import PushLaunchConfigurations
from launch.actions import ResetEnvironment
from launch.actions import ResetLaunchConfigurations
from launch.actions import SetLaunchConfiguration
from launch.actions import Shutdown
from launch.frontend import Parser
from launch.launch_description_sources import get_launch_description_from_any_launch_file
import launch_yaml
import pytest


def description(text):
    root, parser = Parser.load(io.StringIO(textwrap.dedent(text)))
    return parser.parse_description(root)


def run(ld):
    import launch
    service = LaunchService()
    service.include_launch_description(
        ld if isinstance(ld, launch.LaunchDescription) else launch.LaunchDescription(ld))
    return service.run(), service


def test_the_yaml_frontend_is_found():
    assert {'yaml', 'yml'} <= set(Parser.get_available_extensions())
    assert Parser.get_parsers_from_filename('a.launch.yaml') == [launch_yaml.Parser]


def test_executable():
    ld = description("""\
        launch:
        -   executable:
                cmd: ls -l -a -s
                cwd: '/'
                name: my_ls
                shell: true
                emulate_tty: true
                output: log
                sigkill_timeout: 4.0
                sigterm_timeout: 7.0
                'launch-prefix': $(env LAUNCH_PREFIX '')
                env:
                    -   name: var
                        value: '1'
        """)
    executable = ld.entities[0]
    assert [i[0].perform(None) for i in executable.cmd] == ['ls', '-l', '-a', '-s']
    assert executable.cwd[0].perform(None) == '/'
    assert executable.name[0].perform(None) == 'my_ls'
    assert executable.shell is True and executable.emulate_tty is True
    assert executable.output[0].perform(None) == 'log'
    assert executable.sigkill_timeout[0].perform(None) == '4.0'
    assert executable.sigterm_timeout[0].perform(None) == '7.0'
    key, value = executable.additional_env[0]
    assert (key[0].perform(None), value[0].perform(None)) == ('var', '1')
    assert run(ld)[0] == 0
    executable = description('launch:\n- executable: {cmd: ls, on_exit: shutdown}\n'
                             ).entities[0]
    [sub_entity] = executable.get_sub_entities()
    assert isinstance(sub_entity, Shutdown)


def test_group():
    ld = description("""\
        launch:
            - let:
                name: 'foo'
                value: 'FOO'
            - let:
                name: 'bar'
                value: 'BAR'
            - group:
                scoped: True
                forwarding: False
                keep:
                    -   name: 'bar'
                        value: $(var bar)
                    -   name: 'baz'
                        value: 'BAZ'
                children:
                    - let:
                        name: 'var1'
                        value: 'asd'
                    - let:
                        name: 'var2'
                        value: 'asd'
        """)
    assert isinstance(ld.entities[2], GroupAction)
    lc = LaunchContext()
    ld.entities[0].visit(lc)
    ld.entities[1].visit(lc)
    actions = ld.entities[2].execute(lc)
    assert [type(a) for a in actions] == [
        PushLaunchConfigurations, PushEnvironment, ResetEnvironment, ResetLaunchConfigurations,
        SetLaunchConfiguration, SetLaunchConfiguration, PopEnvironment, PopLaunchConfigurations]
    for action in actions[:4]:
        action.visit(lc)
    assert lc.launch_configurations == {'bar': 'BAR', 'baz': 'BAZ'}


def test_booleans_log_env_and_conditions(capsys, monkeypatch):
    monkeypatch.setenv('LAUNCH_YAML_PATHS', 'a')
    rc, service = run(description("""\
        launch:
        - let: {name: t, value: 'true'}
        - let: {name: f, value: 'false'}
        - let: {name: and_tf, value: $(and $(var t) $(var f))}
        - let: {name: or_tf, value: $(or $(var t) $(var f))}
        - let: {name: not_f, value: $(not $(var f))}
        - append_env: {name: LAUNCH_YAML_PATHS, value: b, prepend: true}
        - log: {message: 'paths $(env LAUNCH_YAML_PATHS)'}
        - log: {message: hidden, if: $(var f)}
        - group:
            if: $(var t)
            children:
            - log: {message: in the group}
        """))
    assert rc == 0
    configurations = service.context.launch_configurations
    assert (configurations['and_tf'], configurations['or_tf'], configurations['not_f']) == \
        ('false', 'true', 'true')
    out = capsys.readouterr().out
    assert f'[INFO] [launch.user]: paths b{os.pathsep}a' in out
    assert 'in the group' in out and 'hidden' not in out


def test_include_and_timer(tmp_path, capsys):
    (tmp_path / 'inner.launch.yaml').write_text(
        'launch:\n- arg: {name: who}\n- log: {message: hello $(var who)}\n')
    (tmp_path / 'outer.launch.yaml').write_text(textwrap.dedent("""\
        launch:
        - include:
            file: $(dirname)/inner.launch.yaml
            arg:
            - {name: who, value: world}
        - timer:
            period: 0.1
            children:
            - log: {message: timer fired}
        """))
    rc, _ = run([IncludeLaunchDescription(str(tmp_path / 'outer.launch.yaml'))])
    out = capsys.readouterr().out
    assert rc == 0
    assert '[INFO] [launch.user]: hello world' in out and 'timer fired' in out


def test_malformed_yaml_and_unknown_attribute_name_file_and_line(tmp_path):
    bad = tmp_path / 'bad.launch.yaml'
    bad.write_text('launch:\n- arg: {name: a\n- log: {message: x}\n')
    with pytest.raises(Exception) as info:
        get_launch_description_from_any_launch_file(str(bad))
    assert f'{bad}:3: malformed YAML' in str(info.value)
    typo = tmp_path / 'typo.launch.yaml'
    typo.write_text('launch:\n- arg: {name: a}\n- log:\n    mesage: x\n')
    with pytest.raises(Exception) as info:
        get_launch_description_from_any_launch_file(str(typo))
    assert f"{typo}:4: <log>: attribute 'message' is required" in str(info.value)


def test_reset_keeps_the_given_configurations():
    """Upstream's test_reset.py (YAML): reset with keep."""
    ld = description("""
        launch:
        - let: {name: foo, value: FOO}
        - let: {name: bar, value: BAR}
        - reset:
            keep:
            - {name: bar, value: $(var bar)}
            - {name: baz, value: BAZ}
    """)
    assert isinstance(ld.entities[2], ResetLaunchConfigurations)
    context = LaunchContext()
    for entity in ld.entities:
        entity.visit(context)
    assert context.launch_configurations == {'bar': 'BAR', 'baz': 'BAZ'}


def test_append_env_prepend():
    """Upstream's test_append_env.py (YAML): prepend as a YAML bool or text."""
    ld = description("""
        launch:
        - append_env: {name: my_env_var, value: asd}
        - append_env: {name: my_env_var, value: zxc, prepend: false}
        - append_env: {name: my_env_var, value: qwe, prepend: true, separator: '|'}
    """)
    assert [bool(e.prepend) for e in ld.entities] == [False, False, True]
    context = LaunchContext()
    PushEnvironment().visit(context)
    try:
        os.environ.pop('my_env_var', None)
        for entity in ld.entities:
            entity.visit(context)
        assert os.environ['my_env_var'] == 'qwe|asd' + os.pathsep + 'zxc'
    finally:
        PopEnvironment().visit(context)
