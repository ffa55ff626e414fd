# SPDX-License-Identifier: Apache-2.0
"""
Every launch file of the workspace names only installed things.

Every launch file of the workspace, checked statically: it is installed, and every package,
executable and shared file it names exists in the install space, so `ros2 launch` finds
them all, on a user's ROS 2 as with the workspace's own launch (whose tests run them).
"""

import ast
import os
import pathlib
import xml.etree.ElementTree as ET

from ament_index_python import get_resources
from ament_index_python.packages import get_package_prefix, get_package_share_directory
import pytest

WORKSPACE = pathlib.Path(__file__).resolve().parents[2]


def source_launch_files():
    """(package name, source path) of every launch file in the workspace's packages."""
    found = []
    for package_xml in sorted(WORKSPACE.glob('*/package.xml')):
        launch_dir = package_xml.parent / 'launch'
        if launch_dir.is_dir():
            name = package_name(package_xml)
            found += [(name, path) for path in sorted(launch_dir.glob('*.launch.py'))]
    return found


def package_name(package_xml):
    return ET.parse(package_xml).getroot().findtext('name')


LAUNCH_FILES = source_launch_files()


def literal(node, what, path):
    assert isinstance(node, ast.Constant) and isinstance(node.value, str), (
        f'{path}: {what} must be a string literal so that it can be checked')
    return node.value


def named_things(path):
    """
    Return what a launch file names.

    Nodes (package, executable), packages whose share dir is looked up, and the share
    files joined onto it (os.path.join(get_package_share_directory(p), 'config', 'x.yaml')).
    """
    tree = ast.parse(path.read_text(encoding='utf-8'))
    nodes, packages, share_files = [], set(), []
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        if isinstance(call.func, ast.Attribute):
            func = call.func.attr
        else:
            func = getattr(call.func, 'id', '')
        keywords = {k.arg: k.value for k in call.keywords}
        if func == 'Node':
            nodes.append((literal(keywords['package'], 'package', path),
                          literal(keywords['executable'], 'executable', path)))
        elif func == 'get_package_share_directory':
            packages.add(literal(call.args[0], 'package', path))
        elif func == 'join' and call.args and isinstance(call.args[0], ast.Call) and getattr(
                call.args[0].func, 'id', '') == 'get_package_share_directory':
            package = literal(call.args[0].args[0], 'package', path)
            parts = [literal(a, 'path part', path) for a in call.args[1:]]
            share_files.append((package, os.path.join(*parts)))
    return nodes, packages, share_files


def test_the_workspace_has_launch_files():
    assert LAUNCH_FILES, 'no launch files found: the test would check nothing'


@pytest.mark.parametrize('package,path', LAUNCH_FILES, ids=[p.name for _, p in LAUNCH_FILES])
def test_launch_file_is_installed_and_names_only_installed_things(package, path):
    installed = pathlib.Path(get_package_share_directory(package)) / 'launch' / path.name
    assert installed.is_file(), f'{path.name} is not installed to share/{package}/launch'
    nodes, packages, share_files = named_things(installed)
    assert nodes, f'{path.name} launches no node'
    known = set(get_resources('packages'))
    for pkg, exe in nodes:
        assert pkg in known, f'{path.name}: package {pkg} is not installed'
        exe_path = pathlib.Path(get_package_prefix(pkg)) / 'lib' / pkg / exe
        assert exe_path.is_file() and os.access(exe_path, os.X_OK), (
            f'{path.name}: {exe_path} is missing or not executable (ros2 run {pkg} {exe})')
    for pkg in packages:
        assert pkg in known, f'{path.name}: package {pkg} is not installed'
    for pkg, relative in share_files:
        shared = pathlib.Path(get_package_share_directory(pkg)) / relative
        assert shared.exists(), f'{path.name}: {shared} is not installed'
