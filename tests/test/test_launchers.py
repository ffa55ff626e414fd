# SPDX-License-Identifier: Apache-2.0
"""
Every executable of the workspace has one launcher form, in one folder: `<package>/scripts/`.

A launcher installs the stop handlers with `_signal` before anything else is imported (`python3
-S`: not even site), then hands over to node_runtime.stop.launch with its module (see
node_runtime's README). The one exception is ros2cli_py's `bin/ros2`, a shell wrapper
installed to the prefix's bin/ that runs the launcher `scripts/ros2` from lib/.
"""

import pathlib
import re

WORKSPACE = pathlib.Path(__file__).resolve().parents[2]
FORM = re.compile(
    r'#!/usr/bin/env -S python3 -S\n'
    r'# SPDX-License-Identifier: Apache-2\.0\n'
    r'"""(?P<name>[\w.-]+): stop handlers first, then site and the imports '
    r'\(node_runtime\.stop\)\."""\n'
    r'import _signal\n\n'
    r'EARLY = \[\]\n'
    r'_signal\.signal\(_signal\.SIGINT, lambda signum, frame: EARLY\.append\(signum\)\)\n'
    r'_signal\.signal\(_signal\.SIGTERM, lambda signum, frame: EARLY\.append\(signum\)\)\n\n'
    r'from node_runtime\.stop import launch  # noqa: E402\n\n'
    r"launch\('(?P<module>[\w.]+)', EARLY(?P<options>(, \w+=\w+)*)\)\n\Z")


def packages():
    return sorted(p.parent for p in WORKSPACE.glob('*/setup.py'))


def test_no_launcher_outside_scripts():
    found = [str(p.relative_to(WORKSPACE)) for package in packages()
             for p in sorted((package / 'bin').glob('*'))]
    assert found == ['ros2cli_py/bin/ros2'], found


def test_every_launcher_has_the_one_form():
    launchers = [p for package in packages() for p in sorted((package / 'scripts').glob('*'))]
    assert len(launchers) >= 19, launchers     # an empty walk cannot pass
    for path in launchers:
        found = FORM.match(path.read_text())
        assert found, f'{path.relative_to(WORKSPACE)} is not in the one launcher form'
        assert found['name'] == path.name, path
        module = found['module'].split('.')
        assert module[0] == path.parent.parent.name, path      # its own package's module
        assert (path.parent.parent / pathlib.Path(*module)).with_suffix('.py').is_file() or \
            (path.parent.parent / pathlib.Path(*module) / '__init__.py').is_file(), path
