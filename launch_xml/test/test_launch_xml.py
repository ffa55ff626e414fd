# SPDX-License-Identifier: Apache-2.0
"""ros2/launch's launch_xml tests (arg, executable, group, let/var, list, timer, booleans ...)."""

import io
import math
import os
import textwrap
from typing import List

from launch import LaunchContext
from launch import LaunchService
from launch.actions import GroupAction
from launch.actions import PopEnvironment
from launch.actions import PopLaunchConfigurations
from launch.actions import PushEnvironment
from launch.actions import PushLaunchConfigurations
from launch.actions import ResetEnvironment
from launch.actions import ResetLaunchConfigurations
from launch.actions import SetLaunchConfiguration
from launch.actions import Shutdown
from launch.actions import TimerAction
from launch.frontend import Parser
from launch.launch_description_sources import get_launch_description_from_any_launch_file
from launch.substitutions import LaunchConfiguration
from launch.utilities import perform_substitutions
import launch_xml
import pytest


def load(text):
    return Parser.load(io.StringIO(textwrap.dedent(text)))


def description(text):
    root, parser = load(text)
    return parser.parse_description(root)


def test_the_xml_frontend_is_found():
    assert 'xml' in Parser.get_available_extensions()
    assert Parser.is_filename_valid('a.launch.xml')
    assert Parser.get_parsers_from_filename('a.launch.xml') == [launch_xml.Parser]


def test_arg():
    arg = description('<launch><arg name="my_arg" default="asd" description="something"/>'
                      '</launch>').entities[0]
    assert arg.name == 'my_arg' and arg.description == 'something'
    assert ''.join(x.perform(None) for x in arg.default_value) == 'asd'


def test_arg_with_choices():
    arg = description("""
        <launch>
            <arg name="my_arg" default="asd" description="something">
                <choice value="asd"/>
                <choice value="bsd"/>
            </arg>
        </launch>""").entities[0]
    assert arg.description == "something. Valid choices are: ['asd', 'bsd']"
    assert arg.choices == ['asd', 'bsd']


@pytest.mark.parametrize('text', [
    '<launch><arg name="my_arg" whats_this="hello" default="asd"/></launch>',
    '<launch><arg name="my_arg" default="asd"><whats_this/></arg></launch>',
])
def test_arg_unexpected_attribute_or_child(text):
    root, parser = load(text)
    with pytest.raises(ValueError) as info:
        parser.parse_description(root)
    assert '`arg`' in str(info.value) and 'whats_this' in str(info.value)


EXECUTABLE = """
    <launch>
        <executable cmd="ls -l -a -s" cwd="/" name="my_ls" shell="true" output="log"
                    emulate_tty="true" sigkill_timeout="4.0" sigterm_timeout="7.0"
                    launch-prefix="$(env LAUNCH_PREFIX '')">
            <env name="var" value="1"/>
        </executable>
    </launch>"""


def test_executable():
    ld = description(EXECUTABLE)
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
    service = LaunchService()
    service.include_launch_description(ld)
    assert service.run() == 0


def test_executable_wrong_subtag_and_on_exit():
    root, parser = load(EXECUTABLE.replace('<env name="var" value="1"/>',
                                           '<env name="var" value="1"/><whats_this/>'))
    with pytest.raises(ValueError) as info:
        parser.parse_description(root)
    assert '`executable`' in str(info.value) and 'whats_this' in str(info.value)
    executable = description('<launch><executable cmd="ls" on_exit="shutdown"/></launch>'
                             ).entities[0]
    [sub_entity] = executable.get_sub_entities()
    assert isinstance(sub_entity, Shutdown)


def test_group():
    ld = description("""
        <launch>
            <let name="foo" value="FOO"/>
            <let name="bar" value="BAR"/>
            <group scoped="True" forwarding="False">
                <keep name="bar" value="$(var bar)"/>
                <keep name="baz" value="BAZ"/>
                <let name="var1" value="asd"/>
                <let name="var2" value="asd"/>
            </group>
        </launch>""")
    assert isinstance(ld.entities[0], SetLaunchConfiguration)
    assert isinstance(ld.entities[2], GroupAction)
    lc = LaunchContext()
    ld.entities[0].visit(lc)
    ld.entities[1].visit(lc)
    assert lc.launch_configurations == {'foo': 'FOO', 'bar': 'BAR'}
    actions = ld.entities[2].execute(lc)
    assert [type(a) for a in actions] == [
        PushLaunchConfigurations, PushEnvironment, ResetEnvironment, ResetLaunchConfigurations,
        SetLaunchConfiguration, SetLaunchConfiguration, PopEnvironment, PopLaunchConfigurations]
    for action in actions[:4]:
        action.visit(lc)
    assert lc.launch_configurations == {'bar': 'BAR', 'baz': 'BAZ'}
    for action in actions[4:]:
        action.visit(lc)
    assert lc.launch_configurations == {'foo': 'FOO', 'bar': 'BAR'}


def test_let_var():
    ld = description('<launch><let name="var1" value="asd"/>'
                     '<let name="var2" value="2 $(var var1)"/></launch>')
    context = LaunchContext()
    for entity in ld.entities:
        entity.execute(context)
    assert context.launch_configurations == {'var1': 'asd', 'var2': '2 asd'}


def test_list():
    root, _ = load("""
        <root>
            <tag attr="1,2,3" attr-sep=","/>
            <tag attr="1 2 3" attr-sep=" "/>
            <tag attr="1, 2, 3" attr-sep=", "/>
        </root>""")
    for tag in root.children:
        assert tag.get_attr('attr', data_type=List[str]) == ['1', '2', '3']
        assert tag.get_attr('attr', data_type=List[int]) == [1, 2, 3]
        assert tag.get_attr('attr', data_type=List[float]) == [1., 2., 3.]


def test_timer():
    timer = description('<launch><timer period="5"><executable cmd="ls -las"/></timer>'
                        '</launch>').entities[0]
    assert isinstance(timer, TimerAction) and isinstance(timer.period, float)
    assert math.isclose(timer.period, 5.) and len(timer.actions) == 1
    timer = description('<launch><timer period="$(var my_period 5)"><executable cmd="ls"/>'
                        '</timer></launch>').entities[0]
    assert isinstance(timer.period, list) and isinstance(timer.period[0], LaunchConfiguration)


def test_boolean_and_equals_substitutions():
    ld = description("""
        <launch>
            <let name="t" value="true"/>
            <let name="f" value="false"/>
            <let name="not_t" value="$(not $(var t))"/>
            <let name="and_tf" value="$(and $(var t) $(var f))"/>
            <let name="or_tf" value="$(or $(var t) $(var f))"/>
            <let name="all" value="$(all $(var t) $(var t) 1)"/>
            <let name="any" value="$(any $(var f) 0)"/>
            <let name="eq" value="$(equals $(var t) 1)"/>
            <let name="neq" value="$(not-equals 'a b' 'a b')"/>
            <let name="eval" value="$(eval '$(var n 2) * 3')"/>
        </launch>""")
    service = LaunchService()
    service.include_launch_description(ld)
    assert service.run() == 0
    values = {k: service.context.launch_configurations[k] for k in (
        'not_t', 'and_tf', 'or_tf', 'all', 'any', 'eq', 'neq', 'eval')}
    assert values == {'not_t': 'false', 'and_tf': 'false', 'or_tf': 'true', 'all': 'true',
                      'any': 'false', 'eq': 'true', 'neq': 'false', 'eval': '6'}


def test_env_actions_log_and_conditions(capsys, monkeypatch):
    monkeypatch.setenv('LAUNCH_XML_PATHS', 'a')
    monkeypatch.setenv('LAUNCH_XML_GONE', 'x')
    ld = description("""
        <launch>
            <set_env name="LAUNCH_XML_SET" value="set"/>
            <append_env name="LAUNCH_XML_PATHS" value="b"/>
            <unset_env name="LAUNCH_XML_GONE"/>
            <log message="shown $(env LAUNCH_XML_SET) $(env LAUNCH_XML_PATHS)"/>
            <log message="hidden" if="false"/>
            <log message="also shown" unless="false"/>
        </launch>""")
    service = LaunchService()
    service.include_launch_description(ld)
    assert service.run() == 0
    out = capsys.readouterr().out
    assert f'[INFO] [launch.user]: shown set a{os.pathsep}b' in out
    assert 'also shown' in out and 'hidden' not in out
    assert 'LAUNCH_XML_GONE' not in os.environ


def test_include_with_arguments_and_dirname(tmp_path, capsys):
    (tmp_path / 'inner.launch.xml').write_text(
        '<launch><arg name="who"/><log message="hello $(var who) from $(dirname)"/></launch>')
    (tmp_path / 'outer.launch.xml').write_text(
        '<launch><include file="$(dirname)/inner.launch.xml">'
        '<arg name="who" value="world"/></include></launch>')
    ld = get_launch_description_from_any_launch_file(str(tmp_path / 'outer.launch.xml'))
    service = LaunchService()
    service.include_launch_description(ld)
    assert service.run() == 1       # $(dirname) outside an include: no launch file yet
    from launch.actions import IncludeLaunchDescription
    service = LaunchService()
    service.include_launch_description(
        __import__('launch').LaunchDescription([IncludeLaunchDescription(
            str(tmp_path / 'outer.launch.xml'))]))
    assert service.run() == 0
    assert f'[INFO] [launch.user]: hello world from {tmp_path}' in capsys.readouterr().out


def test_malformed_xml_and_unknown_tag_name_file_and_line(tmp_path):
    bad = tmp_path / 'bad.launch.xml'
    bad.write_text('<launch>\n  <arg name="a"\n</launch>\n')
    with pytest.raises(Exception) as info:
        get_launch_description_from_any_launch_file(str(bad))
    assert f'{bad}:3: malformed XML' in str(info.value)
    unknown = tmp_path / 'unknown.launch.xml'
    unknown.write_text('<launch>\n  <arg name="a"/>\n  <nope/>\n</launch>\n')
    with pytest.raises(Exception) as info:
        get_launch_description_from_any_launch_file(str(unknown))
    assert f"{unknown}:3: <nope>: unknown tag 'nope'" in str(info.value)


def test_substitution_errors():
    root, parser = load('<launch><let name="a" value="$(var"/></launch>')
    with pytest.raises(ValueError, match='unterminated'):
        parser.parse_description(root)
    root, parser = load('<launch><let name="a" value="$(nope x)"/></launch>')
    with pytest.raises(ValueError, match=r"unknown substitution '\$\(nope"):
        parser.parse_description(root)


def test_perform_substitutions_of_parsed_text():
    _, parser = load('<launch/>')
    lc = LaunchContext()
    lc.launch_configurations['x'] = 'X'
    assert perform_substitutions(lc, parser.parse_substitution(
        "a $(var x) '$(var x)' $(var missing 'd e')")) == "a X 'X' d e"


def test_reset_keeps_the_given_configurations():
    """Upstream's test_reset.py: <reset> with <keep> children."""
    ld = description("""
        <launch>
            <let name="foo" value="FOO"/>
            <let name="bar" value="BAR"/>
            <reset>
                <keep name="bar" value="$(var bar)"/>
                <keep name="baz" value="BAZ"/>
            </reset>
        </launch>
    """)
    assert isinstance(ld.entities[2], ResetLaunchConfigurations)
    context = LaunchContext()
    for entity in ld.entities:
        entity.visit(context)
    assert context.launch_configurations == {'bar': 'BAR', 'baz': 'BAZ'}


def test_append_env_prepend_and_separator():
    """Upstream's test_append_env.py: prepend false/yes/true, separator."""
    ld = description("""
        <launch>
            <append_env name="my_env_var" value="asd"/>
            <append_env name="my_env_var" value="zxc" separator="|"/>
            <append_env name="my_other_env_var" value="fgh"/>
            <append_env name="my_other_env_var" value="jkl" prepend="false"/>
            <append_env name="my_other_env_var" value="qwe" prepend="yes"/>
            <append_env name="my_other_env_var" value="rty" prepend="true" separator="|"/>
        </launch>
    """)
    assert [bool(e.prepend) for e in ld.entities] == [False, False, False, False, True, True]
    assert [''.join(s.perform(None) for s in e.separator) for e in ld.entities] == [
        os.pathsep, '|', os.pathsep, os.pathsep, os.pathsep, '|']
    context = LaunchContext()
    PushEnvironment().visit(context)
    try:
        os.environ.pop('my_env_var', None)
        os.environ.pop('my_other_env_var', None)
        for entity in ld.entities:
            entity.visit(context)
        assert os.environ['my_env_var'] == 'asd|zxc'
        assert os.environ['my_other_env_var'] == os.pathsep.join(
            ['rty|qwe', 'fgh', 'jkl'])
    finally:
        PopEnvironment().visit(context)
