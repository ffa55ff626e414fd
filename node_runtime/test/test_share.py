# SPDX-License-Identifier: Apache-2.0
"""node_runtime.share: the installed share/ file, else the source tree's."""

import os

from ament_index_python.packages import get_package_share_directory
from node_runtime.share import share_file


def test_an_installed_file_comes_from_share(tmp_path):
    installed = get_package_share_directory('node_runtime')
    assert share_file('node_runtime', str(tmp_path), 'package.xml') == os.path.join(
        installed, 'package.xml')


def test_the_source_tree_is_the_fallback(tmp_path):
    # Not in the install (a file only the source tree has), or no such package at all.
    assert share_file('node_runtime', str(tmp_path), 'models', 'x.xml') == str(
        tmp_path / 'models' / 'x.xml')
    assert share_file('no_such_package_here', str(tmp_path), 'a') == str(tmp_path / 'a')
