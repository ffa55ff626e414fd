"""Launch files are checked as text (launch is not installed here): every package and
executable they name must be installed. Also checks the installed package layout."""
import ast
import glob
import os

from ament_index_python.packages import get_package_prefix, get_package_share_directory
import pytest

SHARE = get_package_share_directory('robstride_sim')
LAUNCH_FILES = sorted(glob.glob(os.path.join(SHARE, 'launch', '*.launch.py')))


def _node_calls(tree):
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and getattr(call.func, 'id', None) == 'Node':
            yield {kw.arg: kw.value for kw in call.keywords}


def test_launch_files_installed():
    assert [os.path.basename(p) for p in LAUNCH_FILES] == ['robstride_sim.launch.py']


@pytest.mark.parametrize('path', LAUNCH_FILES)
def test_launch_file_names_installed_executables(path):
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    nodes = list(_node_calls(tree))
    assert nodes, 'no launch_ros Node in ' + path
    for kw in nodes:
        package, exe = kw['package'].value, kw['executable'].value
        exe_path = os.path.join(get_package_prefix(package), 'lib', package, exe)
        assert os.access(exe_path, os.X_OK), exe_path
        assert kw['name'].value == 'robstride_hardware_interface'
    # Config files the launch file refers to must be installed too.
    names = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
             and isinstance(n.value, str) and n.value.endswith('.yaml')}
    for name in names:
        assert os.path.isfile(os.path.join(SHARE, 'config', name)), name


def test_config_and_readme_installed():
    import yaml
    with open(os.path.join(SHARE, 'config', 'robstride_sim.yaml')) as f:
        doc = yaml.safe_load(f)
    params = doc['/**/robstride_hardware_interface']['ros__parameters']
    from robstride_sim.node import PARAMETERS, SIM_SCALARS, _sim_defaults
    expected = set(PARAMETERS) | set(SIM_SCALARS) | set(_sim_defaults(2))
    assert set(params) == expected          # every parameter documented, nothing stale
    assert os.path.isfile(os.path.join(SHARE, 'README.md'))
