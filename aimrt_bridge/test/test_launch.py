"""launch is not installable here: parse the launch file as text and check that
every package/executable it names is installed and executable."""
import ast
import os
import pathlib

from ament_index_python.packages import get_package_prefix, get_package_share_directory

SHARE = pathlib.Path(get_package_share_directory('aimrt_bridge'))


def node_actions(path):
    tree = ast.parse(path.read_text())
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and getattr(call.func, 'id', None) == 'Node':
            kw = {k.arg: k.value.value for k in call.keywords
                  if isinstance(k.value, ast.Constant)}
            yield kw


def test_launch_files_name_installed_executables():
    launch_files = sorted((SHARE / 'launch').glob('*.launch.py'))
    assert launch_files
    for path in launch_files:
        nodes = list(node_actions(path))
        assert nodes, f'{path} starts no Node'
        for kw in nodes:
            exe = os.path.join(get_package_prefix(kw['package']), 'lib', kw['package'],
                               kw['executable'])
            assert os.path.isfile(exe) and os.access(exe, os.X_OK), exe


def test_config_installed_and_names_every_declared_parameter():
    import yaml
    from aimrt_bridge.bridge_node import PARAMETERS
    cfg = yaml.safe_load((SHARE / 'config' / 'aimrt_bridge.yaml').read_text())
    params = cfg['aimrt_bridge']['ros__parameters']
    assert params == PARAMETERS
