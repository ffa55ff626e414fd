# SPDX-License-Identifier: Apache-2.0
"""
Every executable of the workspace follows node_runtime.runner's exit-code rule.

- SIGINT and SIGTERM at any moment: exit 0, no traceback (the runs at three moments below).
- A bad parameter or configuration (BAD_CONFIG: a real parameter out of its range, a
  configuration value the program refuses): exit 2 with exactly one line on stderr,
  `<executable>: configuration error: <reason>`, and nothing on stdout but log lines. The
  command-line tools follow argparse's form of it: exit 2, the usage, then one line
  `<prog>: error: <reason>`.
- The bad-configuration run is made twice where the executable is a Python launcher script:
  installed, and from the source tree as it is (`./hb50_nodes/scripts/bridge_node`), whose first
  line the install has not rewritten.

Discovery: every file in lib/<pkg>/ of every package of the ament index installed in this
workspace's install space, so a new package or executable is covered without touching this
test. Each one is started as a user would start it (ARGUMENTS gives a CLI what it needs to
run at all, e.g. a verb; rclpy nodes get their package's shipped parameters from PARAMS
where they need them), then stopped with SIGINT and with SIGTERM at three moments:

- imports: 0.02 s after the executable's script has imported its first module, i.e.
  while it imports the rest (rclpy, DDS, numpy...). The interpreter's own start-up before
  the script runs (0.1 s on an idle machine, over 1 s on a loaded one: the venv's .pth
  hooks and sitecustomize, then the check of argv[0] as an import path) runs no code of the
  workspace, so no executable can handle a signal there. PYTHONPROFILEIMPORTTIME reports
  every finished import on stderr: the first report after the one of 'site' is the
  script's first import. Executables that are not Python programs (no such report within
  SITE_TIMEOUT) get the signal 0.05 s after the start.
- start-up: 0.4 s later (nodes are being created, endpoints discovered),
- steady: 2 s later.

Pass (signals): exit status 0 and neither 'Traceback' nor '[FATAL]' in the output (stdout and
stderr).
An executable that ends by itself before the signal (a CLI's one-shot run) must end the
same way. Runs are made in four processes at a time (most of a run's time is the wait for
its moment and the exit: with two at a time the test waited more than it computed), the
runs of one executable one after the other (so ports and files of one executable never
clash), on a ROS_DOMAIN_ID from workspace_testing.
"""

from concurrent.futures import ThreadPoolExecutor
import os
import pathlib
import signal
import subprocess
import tempfile
import threading
import time

from ament_index_python import get_resources
from ament_index_python.packages import get_package_share_directory
import pytest
import workspace_testing as wt

WORKSPACE = pathlib.Path(__file__).resolve().parents[2]

# Arguments an executable needs to run at all (CLIs: a long-running verb where the tool has
# one, else a one-shot run) or to run as shipped (a non-ROS program's own config file).
# '{tmp}' becomes a fresh directory of the run, '{share}' the package's share directory.
ARGUMENTS = {
    ('ros2cli_py', 'ros2'): ['topic', 'echo', '/signal_test', 'std_msgs/msg/String'],
    ('ros2bag_mcap', 'ros2bag'): ['record', '-o', '{tmp}/bag', '/signal_test'],
    ('ros2bag_mcap', 'bag_plot'): ['--help'],
    ('robstride_sim', 'robstride_cli'): ['--timeout', '30', 'state'],
    ('pnd_adam_sim', 'adam_sim'): ['--config', '{share}/config/adam_sim.yaml'],
    ('aimrt_mujoco_sim', 'aimrt_mujoco_sim'): [
        '--config', '{share}/config/aimrt_mujoco_sim.yaml'],
}
# The shipped parameter file (share/<pkg>/config/<file>) of each ROS node, as its launch
# file and README start it.
PARAMS = {
    ('hb50_nodes', 'hb50_stack'): 'hb50.yaml',
    ('hb50_nodes', 'bridge_node'): 'hb50.yaml',
    ('hb50_nodes', 'control_node'): 'hb50.yaml',
    ('hb50_nodes', 'heartbeat_monitor'): 'hb50.yaml',
    ('hb50_nodes', 'state_publisher_node'): 'hb50.yaml',
    ('aimrt_bridge', 'aimrt_bridge_node'): 'aimrt_bridge.yaml',
    ('horus_bridge', 'horus_bridge'): 'horus_bridge.yaml',
    ('robstride_sim', 'robstride_sim_node'): 'robstride_sim.yaml',
    ('pnd_adam_examples', 'adam_arm_pose'): 'arm_pose.yaml',
}

# The bad parameter or configuration of each executable, after its ARGUMENTS and PARAMS
# ('-p' entries go after the shipped --params-file and override it). CLI: argparse's form.
BAD_CONFIG = {
    ('hb50_nodes', 'hb50_stack'): ['-p', 'rate:=-5.0'],
    ('hb50_nodes', 'bridge_node'): ['-p', 'rate:=-5.0'],
    ('hb50_nodes', 'control_node'): ['-p', 'rate:=5000.0'],
    ('hb50_nodes', 'heartbeat_monitor'): ['-p', 'check_rate:=0.0'],
    ('hb50_nodes', 'state_publisher_node'): ['-p', 'publish_rate:=0.0'],
    ('hb50_nodes', 'live_view'): ['--ros-args', '-p', 'refresh_rate:=0.0'],
    ('aimrt_bridge', 'aimrt_bridge_node'): ['-p', 'http_port:=70000'],
    ('horus_bridge', 'horus_bridge'): ['-p', 'poll_period_s:=0.0'],
    ('robstride_sim', 'robstride_sim_node'): ['-p', 'update_rate_hz:=5000.0'],
    ('pnd_adam_examples', 'adam_arm_pose'): ['-p', 'command_rate:=5000.0'],
    ('pnd_adam_examples', 'adam_state_publisher'): ['--ros-args', '-p', 'publish_rate:=0.0'],
    ('foxglove_live', 'foxglove_server'): ['--ros-args', '-p', 'port:=70000'],
    ('pnd_adam_sim', 'adam_sim'): ['--rate', '-5'],
    ('rcl_floor', 'rcl_floor'): ['--rate', '0'],
    ('aimrt_mujoco_sim', 'aimrt_mujoco_sim'): ['--config', '{tmp}/bad.yaml'],
    ('robstride_sim', 'robstride_fake_motors'): ['--motors', '1:RS99'],
    ('ros2cli_py', 'ros2'): ['topic', 'hz', '/x', '--window', '-5'],
    ('ros2bag_mcap', 'ros2bag'): ['record', '-s', 'sqlite3', '/x'],
    ('ros2bag_mcap', 'bag_plot'): ['-o'],
    ('robstride_sim', 'robstride_cli'): ['--timeout', '1', 'no_such_command'],
}
# Those that take BAD_CONFIG instead of ARGUMENTS (a command line of their own).
BAD_REPLACES_ARGUMENTS = {('ros2cli_py', 'ros2'), ('ros2bag_mcap', 'ros2bag'),
                          ('ros2bag_mcap', 'bag_plot'), ('robstride_sim', 'robstride_cli'),
                          ('aimrt_mujoco_sim', 'aimrt_mujoco_sim')}
CLIS = {('ros2cli_py', 'ros2'), ('ros2bag_mcap', 'ros2bag'), ('ros2bag_mcap', 'bag_plot'),
        ('robstride_sim', 'robstride_cli')}
BAD_CONFIG_FILES = {'bad.yaml': 'rate_hz: -1.0\n'}

IMPORTS_DELAY = 0.02   # s after the interpreter's start-up
NOT_PYTHON_DELAY = 0.05  # s after the start, for executables that are not Python
MOMENTS = {'imports': 0.0, 'start-up': 0.4, 'steady': 2.0}  # s after the imports moment
SIGNALS = (signal.SIGINT, signal.SIGTERM)
EXIT_TIMEOUT = 20.0    # s a process gets to exit after the signal (imports on a loaded host)
SITE_TIMEOUT = 10.0    # s to wait for the interpreter's start-up
FIRST_IMPORT_TIMEOUT = 3.0  # s to wait for the script's first import after it
PARALLEL = 4
_IMPORT_LINE = 'import time:'


# Packages whose lib/<pkg>/ holds test fixtures, not programs for users: launch_testing's
# example processes sit where upstream's example launch tests look for them, and exit as
# those examples need (exit_code_proc.py exits 1 on purpose).
FIXTURE_PACKAGES = {'launch_testing'}


def workspace_executables():
    """(package, executable path) of every executable installed by this workspace."""
    install = (WORKSPACE / 'install').resolve()
    found = []
    for package, prefix in sorted(get_resources('packages').items()):
        prefix = pathlib.Path(prefix).resolve()
        if install not in prefix.parents or package in FIXTURE_PACKAGES:
            continue  # the toolchain's own packages (rclpy, ...), test fixtures
        lib = prefix / 'lib' / package
        if lib.is_dir():
            found += [(package, path) for path in sorted(lib.iterdir())
                      if path.is_file() and os.access(path, os.X_OK)]
    return found


EXECUTABLES = workspace_executables()


def command(package, path, tmp):
    share = get_package_share_directory(package)
    cmd = [str(path)] + [a.replace('{tmp}', tmp).replace('{share}', share)
                         for a in ARGUMENTS.get((package, path.name), [])]
    params = PARAMS.get((package, path.name))
    if params:
        cmd += ['--ros-args', '--params-file', os.path.join(share, 'config', params)]
    return cmd


def bad_command(package, path, tmp):
    """Return the command line of `path` with its bad parameter or configuration."""
    key = (package, path.name)
    share = get_package_share_directory(package)
    bad = [a.replace('{tmp}', tmp) for a in BAD_CONFIG[key]]
    if key in BAD_REPLACES_ARGUMENTS:
        return [str(path)] + bad
    cmd = command(package, path, tmp)
    if PARAMS.get(key):
        return cmd + bad        # continues the --ros-args of the shipped parameter file
    return cmd + [a.replace('{share}', share) for a in bad]


def environment(domain_id, tmp):
    env = dict(os.environ)
    env.update({
        'ROS_DOMAIN_ID': str(domain_id),
        'ROS_AUTOMATIC_DISCOVERY_RANGE': 'LOCALHOST',
        'ROS_LOG_DIR': os.path.join(tmp, 'ros_log'),
        'PYTHONUNBUFFERED': '1',
        # Reports every finished import on stderr: 'site' ends the interpreter's start-up.
        'PYTHONPROFILEIMPORTTIME': '1',
    })
    try:  # Cyclone DDS peers (pnd_adam_sim) stay on the loopback interface, like rmw's.
        share = get_package_share_directory('pnd_adam_sim')
        env['CYCLONEDDS_URI'] = 'file://' + os.path.join(share, 'config',
                                                         'cyclonedds_localhost.xml')
    except LookupError:
        pass
    return env


class Run:
    """One start, one signal at one moment, and what came of it."""

    def __init__(self, package, path, signum, moment):
        self.package, self.path, self.signum, self.moment = package, path, signum, moment
        self.returncode = None
        self.output = []
        self.signalled_at = None  # s after the start; None: it had ended by itself
        self.hung = False

    def __str__(self):
        when = (f'{self.signalled_at:.2f} s' if self.signalled_at is not None
                else 'never: it had ended by itself')
        return (f'{signal.Signals(self.signum).name} at {self.moment} (sent {when}): '
                f'exit {self.returncode}{" (hung, killed)" if self.hung else ""}')

    def problems(self):
        text = '\n'.join(self.output)
        bad = []
        if self.hung:
            bad.append(f'did not exit within {EXIT_TIMEOUT:g} s of the signal')
        elif self.returncode != 0:
            bad.append(f'exit status {self.returncode}')
        for marker in ('Traceback', '[FATAL]'):
            if marker in text:
                bad.append(f'{marker!r} in its output')
        return bad

    def execute(self, domain_id):
        with tempfile.TemporaryDirectory(prefix='signal_test_') as tmp:
            proc = subprocess.Popen(
                command(self.package, self.path, tmp), env=environment(domain_id, tmp),
                cwd=tmp, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, text=True, errors='replace')
            started = time.monotonic()
            site_done, script_imports = threading.Event(), threading.Event()
            reader = threading.Thread(target=self._read,
                                      args=(proc, site_done, script_imports), daemon=True)
            reader.start()
            if site_done.wait(SITE_TIMEOUT):
                script_imports.wait(FIRST_IMPORT_TIMEOUT)
                at = time.monotonic() + IMPORTS_DELAY
            else:
                at = started + NOT_PYTHON_DELAY
            at += MOMENTS[self.moment]
            while proc.poll() is None and time.monotonic() < at:
                time.sleep(min(0.005, max(0.0, at - time.monotonic())))
            if proc.poll() is None:
                self.signalled_at = time.monotonic() - started
                proc.send_signal(self.signum)
            try:
                self.returncode = proc.wait(EXIT_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.hung = True
                proc.kill()
                self.returncode = proc.wait()
            reader.join(5.0)
        return self

    def _read(self, proc, site_done, script_imports):
        for line in proc.stdout:
            line = line.rstrip('\n')
            if line.startswith(_IMPORT_LINE):
                if site_done.is_set():
                    script_imports.set()
                elif line.endswith('| site'):
                    site_done.set()
                continue
            self.output.append(line)


class BadConfigRun:
    """One start with a bad parameter or configuration, until the executable exits."""

    def __init__(self, package, path, where='installed'):
        self.package, self.path, self.where = package, path, where
        self.returncode = None
        self.stdout = self.stderr = ''
        self.hung = False

    def __str__(self):
        return (f'bad configuration {BAD_CONFIG[(self.package, self.path.name)]} '
                f'({self.where}: {self.path})')

    def problems(self):
        key = (self.package, self.path.name)
        if self.hung:
            return [f'did not exit within {EXIT_TIMEOUT:g} s']
        lines = self.stderr.splitlines()
        bad = []
        if self.returncode != 2:
            bad.append(f'exit status {self.returncode}, not 2')
        if 'Traceback' in self.stdout + self.stderr:
            bad.append("'Traceback' in its output")
        if key in CLIS:
            if not lines or ': error: ' not in lines[-1]:
                bad.append(f"stderr does not end in one '<prog>: error: ' line: {lines[-3:]}")
        else:
            # rcl's and the nodes' log lines go to stderr too: the run must have none.
            expected = f'{self.path.name}: configuration error: '
            if len(lines) != 1 or not lines[0].startswith(expected):
                bad.append(f'stderr is not one {expected!r} line: {lines[-5:]}')
        return bad

    def execute(self, domain_id):
        with tempfile.TemporaryDirectory(prefix='exit_code_test_') as tmp:
            for name, text in BAD_CONFIG_FILES.items():
                pathlib.Path(tmp, name).write_text(text)
            env = environment(domain_id, tmp)
            del env['PYTHONPROFILEIMPORTTIME']
            proc = subprocess.Popen(
                bad_command(self.package, self.path, tmp), env=env, cwd=tmp,
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, errors='replace')
            try:
                self.stdout, self.stderr = proc.communicate(timeout=EXIT_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.hung = True
                proc.kill()
                self.stdout, self.stderr = proc.communicate()
            self.returncode = proc.returncode
        return self


def source_launcher(package, name):
    """Return the launcher script of an executable in the source tree, or None."""
    path = WORKSPACE / package / 'scripts' / name     # the one launcher folder
    if path.is_file() and 'python' in path.read_text(errors='replace').split('\n', 1)[0]:
        return path
    return None


def _runs_of(package, path):
    # The source tree's launcher too: it must run as it is, before install rewrites its
    # first line (a user runs ./pkg/scripts/x; `env python3 -S` would fail there).
    source = source_launcher(package, path.name)
    from_source = [BadConfigRun(package, source, 'source tree')] if source else []
    return [BadConfigRun(package, path)] + from_source + [
        Run(package, path, signum, moment) for moment in MOMENTS for signum in SIGNALS]


@pytest.fixture(scope='module')
def results():
    """Every run of every executable, PARALLEL executables at a time."""
    domain_id = wt.allocate_domain()

    def run_all(item):
        return [run.execute(domain_id) for run in _runs_of(*item)]
    with ThreadPoolExecutor(PARALLEL) as pool:
        done = pool.map(run_all, EXECUTABLES)
        return {(package, path.name): runs
                for (package, path), runs in zip(EXECUTABLES, done)}


def test_discovery_finds_the_workspace_executables():
    names = {(package, path.name) for package, path in EXECUTABLES}
    # Two that have been in the workspace from the start, one Python console script and
    # one plain script: discovery that missed them would check nothing.
    assert ('pnd_adam_sim', 'adam_sim') in names and ('hb50_nodes', 'bridge_node') in names
    # Every table entry names something that exists: a renamed executable must not leave
    # its arguments behind while the test quietly starts it without them.
    for key in list(ARGUMENTS) + list(PARAMS) + list(BAD_CONFIG):
        if key[0] in {package for package, _ in EXECUTABLES}:
            assert key in names, f'{key} in the table but not installed'
    # The launchers are plain scripts in the source tree (their handlers come first).
    assert source_launcher('hb50_nodes', 'bridge_node') is not None
    # Every executable has its bad configuration: a new one is checked from the start.
    assert names <= set(BAD_CONFIG), f'no BAD_CONFIG entry for {sorted(names - set(BAD_CONFIG))}'


@pytest.mark.parametrize('package,path', EXECUTABLES,
                         ids=[f'{p}/{e.name}' for p, e in EXECUTABLES])
def test_executable_follows_the_exit_code_rule(results, package, path):
    runs = results[(package, path.name)]
    failed = [(run, run.problems()) for run in runs if run.problems()]
    report = []
    for run, bad in failed:
        output = run.output if isinstance(run, Run) else (run.stdout + run.stderr).splitlines()
        tail = '\n      '.join(output[-6:])
        report.append(f'{run}: {", ".join(bad)}\n      {tail}')
    assert not failed, (f'{package}/{path.name}: {len(failed)} of {len(runs)} runs break '
                        'the exit-code rule:\n  ' + '\n  '.join(report))
