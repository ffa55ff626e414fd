# SPDX-License-Identifier: Apache-2.0
"""
Frontend substitutions, expose decorators, FileContent, OpaqueCoroutine and more.

Upstream behaviour (ros2/launch's test/launch/frontend/test_substitutions.py,
test_expose_decorators.py, substitutions/test_file_content.py, test_if_else_substitution.py,
test_launch_log_dir.py, actions/test_group_action.py, conditions/
test_launch_configuration_equals.py, test_launch_description_entity.py,
test_path_join_substitution.py), rewritten.
"""

import asyncio
import io
import os
import textwrap

import launch
from launch import LaunchContext
from launch.actions import GroupAction, OpaqueCoroutine, OpaqueFunction, PopEnvironment
from launch.actions import PushEnvironment, PushLaunchConfigurations, ResetEnvironment
from launch.actions import Shutdown, TimerAction
from launch.conditions import LaunchConfigurationEquals, LaunchConfigurationNotEquals
from launch.frontend import expose_action, expose_substitution, Parser
from launch.frontend.parse_substitution import parse_if_substitutions
from launch.frontend.parse_substitution import parse_substitution
from launch.frontend.parse_substitution import replace_escaped_characters
from launch.launch_description_entity import LaunchDescriptionEntity
from launch.substitution import Substitution
from launch.substitutions import EnvironmentVariable, FileContent, IfElseSubstitution
from launch.substitutions import LaunchLogDir, PathJoinSubstitution, SubstitutionFailure
from launch.substitutions import TextSubstitution
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


class Echo(Substitution):
    """Substitutes its text (the ``$(echo_test ...)`` of these tests)."""

    def __init__(self, text):
        super().__init__()
        self.text = text

    def perform(self, context):
        return self.text


@expose_substitution('echo_test')
def parse_echo(data):
    """Expose a function (not a class): upstream allows both."""
    if len(data) != 1:
        raise TypeError('echo_test takes one argument')
    return Echo, {'text': ''.join(s.perform(None) for s in data[0])}


def texts(subs):
    return [s.perform(None) for s in subs]


def test_escaped_characters_in_arguments():
    subs = parse_substitution(r'$(env what/\$\(echo_test asd\\\)) 10 10)')
    assert len(subs) == 2
    assert texts(subs[0].name) == ['what/$(echo_test']
    assert texts(subs[0].default_value) == [r'asd\)']
    assert subs[1].perform(None) == ' 10 10)'


def test_escaped_substitution_at_top_level_is_text():
    subs = parse_substitution(r'cost: \$(var x) and $(echo_test y)')
    assert texts(subs) == ['cost: $(var x) and ', 'y']
    assert isinstance(subs[0], TextSubstitution)


def test_dollar_without_bracket_is_text():
    assert texts(parse_substitution('$0 $1')) == ['$0 $1']
    assert texts(parse_substitution("$(echo_test '$0 $1')")) == ['$0 $1']


def test_quotes_inside_other_quotes_are_characters():
    subs = parse_substitution(
        '$(env "asd_bsd_qsd_$(echo_test \'asd_bds\')" \'$(env DEFAULT)_qsd\')')
    [env] = subs
    assert isinstance(env, EnvironmentVariable)
    assert texts(env.name) == ['asd_bsd_qsd_', "'asd_bds'"]
    assert len(env.default_value) == 2
    assert texts(env.default_value[0].name) == ['DEFAULT']
    assert env.default_value[0].default_value is None
    assert env.default_value[1].perform(None) == '_qsd'


def test_nested_and_quoted_substitutions():
    subs = parse_substitution("go_to_$(env WHERE asd)_of_$(env 'something $(echo_test 10)')")
    assert len(subs) == 4
    assert subs[0].perform(None) == 'go_to_'
    assert texts(subs[1].name) == ['WHERE'] and texts(subs[1].default_value) == ['asd']
    assert subs[2].perform(None) == '_of_'
    assert texts(subs[3].name) == ['something ', '10']


def test_parse_if_substitutions():
    assert parse_if_substitutions(1) == 1
    assert parse_if_substitutions('asd') == 'asd'
    [echo] = parse_if_substitutions('$(echo_test asd)')
    assert isinstance(echo, Echo)
    listed = parse_if_substitutions('[$(echo_test asd), $(echo_test bsd)]')
    assert [type(s) for s in listed] == [TextSubstitution, Echo, TextSubstitution, Echo,
                                         TextSubstitution]
    both = parse_if_substitutions(['$(echo_test asd)', 'bsd'])
    assert isinstance(both[0][0], Echo) and both[1] == 'bsd'
    mixed = parse_if_substitutions(['$(echo_test asd)', 1])
    assert isinstance(mixed[0][0], Echo) and mixed[1] == 1
    with pytest.raises(ValueError):
        parse_if_substitutions(['$(echo_test asd)', 1, 1.0])


def test_replace_escaped_characters():
    assert replace_escaped_characters(r'a\$\(b\)\\c') == r'a$(b)\c'
    assert Parser().escape_characters(r'\$(x)') == '$(x)'


def test_expose_accepts_a_class_or_a_callable_only():
    class Exposed:
        @classmethod
        def parse(cls, entity, parser):
            return cls, {}

    assert expose_action('exposed_class_test')(Exposed) is Exposed
    with pytest.raises(RuntimeError, match='is not a callable or a class containing a '
                                           'parse method'):
        expose_action('not_a_callable_test')(5)


def test_file_content():
    path = os.path.join(HERE, 'file_content', 'foo.txt')
    assert FileContent(path).perform(LaunchContext()) == 'Foo\n'
    assert 'foo.txt' in FileContent(path).describe()


def test_file_content_of_a_missing_file_fails():
    with pytest.raises(SubstitutionFailure, match='File not found: .*bar.txt'):
        FileContent(os.path.join(HERE, 'file_content', 'bar.txt')).perform(LaunchContext())


def test_file_content_in_a_frontend_file():
    xml = textwrap.dedent(f"""
        <launch>
            <let name="text" value="$(file-content {HERE}/file_content/foo.txt)"/>
        </launch>
    """)
    with io.StringIO(xml) as f:
        root, parser = Parser.load(f)
        description = parser.parse_description(root)
    context = LaunchContext()
    for entity in description.entities:
        entity.visit(context)
    assert context.launch_configurations['text'] == 'Foo\n'


def run(entities):
    service = launch.LaunchService()
    service.include_launch_description(launch.LaunchDescription(entities))
    return service.run()


def test_opaque_coroutine_runs_with_context_and_arguments():
    seen = []

    async def work(context, a, *, b):
        await asyncio.sleep(0.05)
        seen.append((isinstance(context, LaunchContext), a, b))

    async def no_context(a):
        seen.append(('no context', a))

    assert run([OpaqueCoroutine(coroutine=work, args=[1], kwargs={'b': 2}),
                OpaqueCoroutine(coroutine=no_context, args=[3], ignore_context=True)]) == 0
    assert sorted(seen, key=str) == sorted([(True, 1, 2), ('no context', 3)], key=str)


def test_opaque_coroutine_keeps_the_launch_alive_until_it_returns():
    order = []

    async def slow(context):
        await asyncio.sleep(0.3)
        order.append('coroutine done')

    assert run([OpaqueCoroutine(coroutine=slow),
                OpaqueFunction(function=lambda c: order.append('started') or None)]) == 0
    assert order == ['started', 'coroutine done']


def test_opaque_coroutine_is_cancelled_on_shutdown():
    state = []

    async def forever(context):
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            state.append('cancelled')
            raise

    assert run([OpaqueCoroutine(coroutine=forever),
                TimerAction(period=0.2, actions=[Shutdown(reason='stop')])]) == 0
    assert state == ['cancelled']


def test_opaque_coroutine_wants_a_coroutine_function():
    with pytest.raises(TypeError, match='expected a coroutine function'):
        OpaqueCoroutine(coroutine=lambda context: None)


def test_launch_log_dir_in_a_frontend_file():
    for name in ('launch_log_dir', 'log_dir'):
        [sub] = parse_substitution(f'$({name})')
        assert isinstance(sub, LaunchLogDir)


def test_if_else_condition_is_typed_as_upstream():
    for true in ('true', '1', 'on', 'yes', 'True'):
        assert IfElseSubstitution(true, 'then', 'else').perform(LaunchContext()) == 'then'
    for false in ('false', '0', 'off', 'no'):
        assert IfElseSubstitution(false, 'then', 'else').perform(LaunchContext()) == 'else'
    assert IfElseSubstitution('on', else_value='evalue').perform(LaunchContext()) == ''
    with pytest.raises(SubstitutionFailure):
        IfElseSubstitution('maybe', 'then', 'else').perform(LaunchContext())


def test_reset_environment_goes_back_to_the_context_creation():
    """Upstream's test_group_action: forwarding=False starts from the original environment."""
    context = LaunchContext()
    PushEnvironment().visit(context)
    try:
        os.environ['foo_to_test_launch_group'] = 'FOO'
        actions = GroupAction([], forwarding=False).visit(context)
        assert [type(a) for a in actions[:3]] == [PushLaunchConfigurations, PushEnvironment,
                                                  ResetEnvironment]
        actions[0].visit(context)
        actions[1].visit(context)
        assert os.environ['foo_to_test_launch_group'] == 'FOO'
        actions[2].visit(context)
        assert 'foo_to_test_launch_group' not in os.environ
        for action in actions[3:]:
            action.visit(context)
        assert os.environ['foo_to_test_launch_group'] == 'FOO'
    finally:
        PopEnvironment().visit(context)
    assert 'foo_to_test_launch_group' not in os.environ


def test_launch_configuration_equals_is_deprecated():
    with pytest.warns(UserWarning, match='EqualsSubstitution'):
        LaunchConfigurationEquals('foo', 'bar')
    with pytest.warns(UserWarning, match='NotEqualsSubstitution'):
        LaunchConfigurationNotEquals('foo', 'bar')


def test_entity_base_defaults():
    entity = LaunchDescriptionEntity()
    with pytest.raises(NotImplementedError):
        entity.describe()
    assert entity.visit(LaunchContext()) is None
    assert entity.describe_sub_entities() == []
    assert entity.get_asyncio_future() is None
    assert 'LaunchDescription' in launch.LaunchDescription([]).describe()


def test_substitutions_without_a_context():
    assert PathJoinSubstitution(['asd', 'bsd', 'cds']).perform(None) == os.path.join(
        'asd', 'bsd', 'cds')
