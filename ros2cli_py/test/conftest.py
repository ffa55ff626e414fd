# SPDX-License-Identifier: Apache-2.0
"""Run the installed `ros2` as a user would: subprocesses on a private ROS_DOMAIN_ID."""

import os
import random
import signal
import subprocess
import sys
import tempfile
import time

from ament_index_python.packages import get_package_prefix
import pytest

DOMAIN_RANGE = (100, 109)       # this package's ROS_DOMAIN_ID range (HELPERS.md)
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures')


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

    def start(self, *args, env=None):
        """Start a long-running command, output to temporary files."""
        out = tempfile.TemporaryFile(mode='w+')
        err = tempfile.TemporaryFile(mode='w+')
        proc = subprocess.Popen([ros2_path(), *args], stdout=out, stderr=err, text=True,
                                env=env or self.env, start_new_session=True)
        proc.out_file, proc.err_file = out, err
        return proc

    @staticmethod
    def output(proc):
        """(stdout, stderr) written so far by a started command."""
        texts = []
        for f in (proc.out_file, proc.err_file):
            f.flush()
            f.seek(0)
            texts.append(f.read())
        return tuple(texts)

    @staticmethod
    def stop(proc, sig=signal.SIGINT, timeout=15):
        """Signal a started command and wait; returns its exit code."""
        if proc.poll() is None:
            proc.send_signal(sig)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout)
        return proc.returncode


def wait_output(ros2, proc, predicate, timeout):
    """Poll a started command's stdout until predicate(stdout) or timeout; returns stdout."""
    deadline = time.monotonic() + timeout
    while True:
        out, _ = ros2.output(proc)
        if predicate(out) or time.monotonic() > deadline or proc.poll() is not None:
            return out
        time.sleep(0.1)


@pytest.fixture(scope='session')
def domain():
    return random.randint(*DOMAIN_RANGE)


@pytest.fixture(scope='session')
def ros2(domain):
    return Ros2(domain)


@pytest.fixture(scope='session')
def fixture_script():
    def path(name):
        return [sys.executable, os.path.join(FIXTURES, name)]
    return path
