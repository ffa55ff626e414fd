# SPDX-License-Identifier: Apache-2.0
"""
Every executable of the workspace stops cleanly on SIGINT and on SIGTERM at any moment.

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

Pass: exit status 0 and neither 'Traceback' nor '[FATAL]' in the output (stdout and stderr).
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

IMPORTS_DELAY = 0.02   # s after the interpreter's start-up
NOT_PYTHON_DELAY = 0.05  # s after the start, for executables that are not Python
MOMENTS = {'imports': 0.0, 'start-up': 0.4, 'steady': 2.0}  # s after the imports moment
SIGNALS = (signal.SIGINT, signal.SIGTERM)
EXIT_TIMEOUT = 20.0    # s a process gets to exit after the signal (imports on a loaded host)
SITE_TIMEOUT = 10.0    # s to wait for the interpreter's start-up
FIRST_IMPORT_TIMEOUT = 3.0  # s to wait for the script's first import after it
PARALLEL = 4
_IMPORT_LINE = 'import time:'


def workspace_executables():
    """(package, executable path) of every executable installed by this workspace."""
    install = (WORKSPACE / 'install').resolve()
    found = []
    for package, prefix in sorted(get_resources('packages').items()):
        prefix = pathlib.Path(prefix).resolve()
        if install not in prefix.parents:
            continue  # the toolchain's own packages (rclpy, ...)
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


def _runs_of(package, path):
    return [Run(package, path, signum, moment) for moment in MOMENTS for signum in SIGNALS]


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
    for key in list(ARGUMENTS) + list(PARAMS):
        if key[0] in {package for package, _ in EXECUTABLES}:
            assert key in names, f'{key} in the table but not installed'


@pytest.mark.parametrize('package,path', EXECUTABLES,
                         ids=[f'{p}/{e.name}' for p, e in EXECUTABLES])
def test_executable_exits_cleanly_on_signals(results, package, path):
    runs = results[(package, path.name)]
    failed = [(run, run.problems()) for run in runs if run.problems()]
    report = []
    for run, bad in failed:
        tail = '\n      '.join(run.output[-6:])
        report.append(f'{run}: {", ".join(bad)}\n      {tail}')
    assert not failed, (f'{package}/{path.name}: {len(failed)} of {len(runs)} stops not '
                        'clean:\n  ' + '\n  '.join(report))
