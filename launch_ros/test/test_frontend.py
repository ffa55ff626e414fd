# SPDX-License-Identifier: Apache-2.0
"""The launch_ros tags of the XML and YAML frontends: node, param, remap, namespaces."""

import textwrap

from conftest import argv_lines
import launch
from launch.actions import IncludeLaunchDescription
import pytest
import yaml

XML = """\
<launch>
  <arg name="ns" default="robot"/>
  <group>
    <push-ros-namespace namespace="$(var ns)"/>
    <set_parameter name="global_p" value="7"/>
    <set_remap from="a" to="b"/>
    <node pkg="launch_ros_test_pkg" exec="echo_args" name="talker" namespace="arm"
          args="--flag x" ros_args="--log-level debug" output="screen">
      <param from="{params}"/>
      <param name="rate" value="2.5"/>
      <param name="names" value="a,b" value-sep=","/>
      <param name="nested">
        <param name="inner" value="$(var ns)"/>
      </param>
      <remap from="chatter" to="/other"/>
    </node>
  </group>
  <node pkg="launch_ros_test_pkg" exec="echo_args" output="screen"/>
</launch>
"""

YAML = """\
launch:
- arg: {name: ns, default: robot}
- group:
    children:
    - push-ros-namespace: {namespace: $(var ns)}
    - set_parameter: {name: global_p, value: 7}
    - set_remap: {from: a, to: b}
    - node:
        pkg: launch_ros_test_pkg
        exec: echo_args
        name: talker
        namespace: arm
        args: --flag x
        ros_args: --log-level debug
        output: screen
        param:
        - from: {params}
        - {name: rate, value: 2.5}
        - {name: names, value: [a, b]}
        - name: nested
          param:
          - {name: inner, value: $(var ns)}
        remap:
        - {from: chatter, to: /other}
- node: {pkg: launch_ros_test_pkg, exec: echo_args, output: screen}
"""


@pytest.mark.parametrize('form,text', [('xml', XML), ('yaml', YAML)])
def test_node_tags(fake_package, tmp_path, capsys, form, text):
    params = tmp_path / 'p.yaml'
    params.write_text('/**:\n  ros__parameters:\n    from_file: 1\n')
    path = tmp_path / f'nodes.launch.{form}'
    path.write_text(textwrap.dedent(text).replace('{params}', str(params)))
    service = launch.LaunchService()
    service.include_launch_description(launch.LaunchDescription([
        IncludeLaunchDescription(str(path))]))
    assert service.run() == 0
    out = capsys.readouterr().out
    talker, plain = sorted(argv_lines(out), key=len, reverse=True)
    assert plain == ['--ros-args']
    assert talker[:12] == ['--flag', 'x', '--ros-args', '--log-level', 'debug', '--ros-args',
                           '-r', '__node:=talker', '-r', '__ns:=/robot/arm', '-p',
                           'global_p:=7']
    assert talker[12:14] == ['--params-file', str(params)]
    assert talker[14] == '--params-file' and talker[16:] == [
        '-r', 'a:=b', '-r', 'chatter:=/other']
    with open(talker[15]) as f:
        written = yaml.safe_load(f)['/**']['ros__parameters']
    assert written == {'rate': 2.5, 'names': ['a', 'b'], 'nested.inner': 'robot'}


def test_find_pkg_substitutions(fake_package, tmp_path, capsys):
    path = tmp_path / 'subs.launch.xml'
    path.write_text('<launch><log message="$(find-pkg-share launch_ros_test_pkg)|'
                    '$(find-pkg-prefix launch_ros_test_pkg)|'
                    '$(exec-in-pkg echo_args launch_ros_test_pkg)"/></launch>')
    service = launch.LaunchService()
    service.include_launch_description(launch.LaunchDescription([
        IncludeLaunchDescription(str(path))]))
    assert service.run() == 0
    prefix = str(fake_package)
    assert (f'{prefix}/share/launch_ros_test_pkg|{prefix}|'
            f'{prefix}/lib/launch_ros_test_pkg/echo_args') in capsys.readouterr().out
