# SPDX-License-Identifier: Apache-2.0
"""Run the installed `ros2` as a user would: subprocesses on a private ROS_DOMAIN_ID."""

import concurrent.futures
import importlib.util
import os
import signal
import subprocess
import sys
import time

from ament_index_python.packages import get_package_prefix
import pytest
import workspace_testing as wt

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures')

# The workspace's ros2doctor is built only where the toolchain has no ros2cli (setup.py); with
# one, ros2doctor is the toolchain's own (tested upstream).
if importlib.util.find_spec('ros2cli') is not None:
    collect_ignore_glob = ['test_ros2doctor_*.py']


def ros2_path():
    """Return the installed `ros2` wrapper (what PATH finds after sourcing)."""
    return os.path.join(get_package_prefix('ros2cli_py'), 'bin', 'ros2')


def base_env(domain):
    env = dict(os.environ)
    env.update(ROS_DOMAIN_ID=str(domain), ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST',
               ROS2CLI_PY_NO_DELEGATE='1', PYTHONUNBUFFERED='1')
    return env


class Result:
    """Exit code and output of one command."""

    def __init__(self, args, code, out, err):
        self.args, self.code, self.out, self.err = args, code, out, err

    def __repr__(self):
        return f'<ros2 {" ".join(self.args)}: rc={self.code}\n{self.out}\n{self.err}>'


class Ros2:
    """Runs `ros2 ...` in the test domain."""

    def __init__(self, domain):
        self.domain = domain
        self.env = base_env(domain)

    def __call__(self, *args, timeout=60, env=None, stdin=None):
        """Run to completion; returns a Result."""
        proc = subprocess.run([ros2_path(), *args], capture_output=True, text=True,
                              timeout=timeout, env=env or self.env, input=stdin)
        return Result(args, proc.returncode, proc.stdout, proc.stderr)

    def many(self, *commands, timeout=120, workers=4):
        """
        Run independent commands at the same time; their Results, in order.

        Each command is an argv tuple run as by __call__. A command spends most of its time
        idle in DDS discovery waits: running the commands a test does not order side by side
        overlaps those waits. `workers` bounds how many run at once: a command takes
        ~0.7 s of CPU, and the HB50 stack leaves less than one core of this 2-core machine.
        `timeout` (each) only catches a hang. A command that raises (its timeout) gives a
        Result whose code is None and whose stderr names the exception, so each check fails
        on its own.
        """
        def run(argv):
            try:
                return self(*argv, timeout=timeout)
            except Exception as e:      # noqa: B902 - reported in the Result
                return Result(argv, None, '', f'{type(e).__name__}: {e}')
        with concurrent.futures.ThreadPoolExecutor(max(1, min(workers, len(commands)))) as pool:
            return list(pool.map(run, commands))

    def start(self, *args, env=None):
        """Start a long-running command (a workspace_testing NodeProcess, stderr apart)."""
        return wt.start([ros2_path(), *args], env=env or self.env, separate_stderr=True)

    @staticmethod
    def output(proc):
        """(stdout, stderr) written so far by a started command."""
        return proc.output(), proc.errors()

    @staticmethod
    def stop(proc, sig=signal.SIGINT, timeout=15):
        """Signal a started command (SIGTERM, SIGKILL if it does not exit); its exit code."""
        return wt.stop(proc, timeout, first=sig).returncode


def wait_output(ros2, proc, predicate, timeout):
    """Poll a started command's stdout until predicate(stdout) or timeout; returns stdout."""
    deadline = time.monotonic() + timeout
    while True:
        out, _ = ros2.output(proc)
        if predicate(out) or time.monotonic() > deadline or proc.poll() is not None:
            return out
        time.sleep(0.1)


@pytest.fixture(scope='session')
def domain_id():
    """
    Return the session's ROS_DOMAIN_ID (the workspace's fixture name, session-wide here).

    The `ros2` commands get it through their environment only; this process stays off it.
    """
    return wt.allocate_domain()


@pytest.fixture(scope='session')
def ros2(domain_id):
    """`ros2` in the session's domain; the daemon its graph verbs start is stopped at the end."""
    runner = Ros2(domain_id)
    yield runner
    stop_daemon(runner)


def stop_daemon(runner):
    """Stop the daemon of a runner's domain (none left behind by a test run)."""
    result = runner('daemon', 'stop', timeout=30)
    assert result.code == 0, result


@pytest.fixture(scope='session')
def fixture_script():
    def path(name):
        return [sys.executable, os.path.join(FIXTURES, name)]
    return path
