# SPDX-License-Identifier: Apache-2.0
"""
Helpers to run the installed simulator as a separate process (tests, benchmarks).

Shared by this package's tests, pnd_adam_examples' interop tests and benchmarks/pnd_*.py,
so that starting, watching and stopping the robot stand-in is written once.
"""

import os
import re
import subprocess
import threading
import time

from ament_index_python.packages import get_package_prefix, get_package_share_directory

PACKAGE = 'pnd_adam_sim'


def sim_executable():
    return os.path.join(get_package_prefix(PACKAGE), 'lib', PACKAGE, 'adam_sim')


def cyclone_localhost_uri():
    """CYCLONEDDS_URI value that keeps Cyclone on the loopback interface (network only)."""
    path = os.path.join(get_package_share_directory(PACKAGE), 'config',
                        'cyclonedds_localhost.xml')
    return 'file://' + path


def localhost_env(domain_id, base=None):
    """Environment for any DDS process of a local test: loopback only, given domain."""
    env = dict(os.environ if base is None else base)
    env['CYCLONEDDS_URI'] = cyclone_localhost_uri()
    env['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    env['ROS_DOMAIN_ID'] = str(domain_id)
    env['PYTHONUNBUFFERED'] = '1'
    return env


_COUNTERS = re.compile(
    r'stopped after (?P<ticks>\d+) ticks: lowcmd applied (?P<lowcmd_applied>\d+) rejected '
    r'(?P<lowcmd_rejected>\d+), handcmd applied (?P<handcmd_applied>\d+) rejected '
    r'(?P<handcmd_rejected>\d+), (?P<overruns>\d+) overruns')


class SimProcess:
    """The installed adam_sim in a subprocess; its log lines are collected in .lines."""

    def __init__(self, domain_id, rate_hz=None, extra_args=(), env=None):
        cmd = [sim_executable(), '--domain', str(domain_id)]
        if rate_hz is not None:
            cmd += ['--rate', str(rate_hz)]
        cmd += list(extra_args)
        self.lines = []
        self._cond = threading.Condition()
        self.proc = subprocess.Popen(
            cmd, env=env if env is not None else localhost_env(domain_id),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self.proc.stderr:
            with self._cond:
                self.lines.append(line.rstrip('\n'))
                self._cond.notify_all()

    def wait_for(self, text, timeout):
        """Return the first log line containing text, or None after timeout seconds."""
        end = time.monotonic() + timeout
        with self._cond:
            while True:
                for line in self.lines:
                    if text in line:
                        return line
                left = end - time.monotonic()
                if left <= 0 or (self.proc.poll() is not None and not self._reader.is_alive()):
                    return None
                self._cond.wait(min(left, 0.1))

    def rss_bytes(self):
        """Resident memory of the simulator process now."""
        with open(f'/proc/{self.proc.pid}/status', encoding='ascii') as f:
            for line in f:
                if line.startswith('VmRSS:'):
                    return int(line.split()[1]) * 1024
        raise RuntimeError('no VmRSS line')

    def cpu_seconds(self):
        """Return the CPU time (user + system, all threads) the simulator has used so far."""
        with open(f'/proc/{self.proc.pid}/stat', encoding='ascii') as f:
            fields = f.read().rsplit(')', 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')

    def log_bytes(self):
        """Size of everything the simulator has logged so far."""
        with self._cond:
            return sum(len(line) + 1 for line in self.lines)

    def counters(self):
        """Return the counters of the exit line ('stopped after ...') as a dict, None before it."""
        line = self.wait_for('stopped after', 0)
        if line is None:
            return None
        m = _COUNTERS.search(line)
        return {k: int(v) for k, v in m.groupdict().items()} if m else None

    def stop(self, timeout=5.0):
        """SIGTERM (the simulator exits cleanly and logs its counters), SIGKILL if stuck."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout)
        self._reader.join(timeout)
        return self.proc.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
