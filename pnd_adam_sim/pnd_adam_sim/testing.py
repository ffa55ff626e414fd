# SPDX-License-Identifier: Apache-2.0
"""
Helpers to run the installed simulator as a separate process (tests, benchmarks).

Shared by this package's tests, pnd_adam_examples' interop tests and benchmarks/pnd_*.py.
Starting, stopping and the domain's environment are workspace_testing's; what is
simulator-specific lives here: its command line, the Cyclone loopback configuration, the
counters of its exit line, and its resource use.
"""

import os
import re
import signal

from ament_index_python.packages import get_package_share_directory
import workspace_testing

PACKAGE = 'pnd_adam_sim'


def sim_executable():
    return workspace_testing.executable(PACKAGE, 'adam_sim')


def cyclone_localhost_uri():
    """CYCLONEDDS_URI value that keeps Cyclone on the loopback interface (network only)."""
    path = os.path.join(get_package_share_directory(PACKAGE), 'config',
                        'cyclonedds_localhost.xml')
    return 'file://' + path


def localhost_env(domain_id, base=None):
    """
    Environment for any DDS process of a local test: loopback only, given domain.

    workspace_testing.localhost_env (ROS_DOMAIN_ID, ROS discovery on this host) plus the
    Cyclone loopback configuration for the plain-DDS peers, and unbuffered Python output.
    """
    env = workspace_testing.localhost_env(domain_id, base)
    env['CYCLONEDDS_URI'] = cyclone_localhost_uri()
    env['PYTHONUNBUFFERED'] = '1'
    return env


_COUNTERS = re.compile(
    r'stopped after (?P<ticks>\d+) ticks: lowcmd applied (?P<lowcmd_applied>\d+) rejected '
    r'(?P<lowcmd_rejected>\d+), handcmd applied (?P<handcmd_applied>\d+) rejected '
    r'(?P<handcmd_rejected>\d+), (?P<overruns>\d+) overruns')


class SimProcess:
    """
    The installed adam_sim as a workspace_testing NodeProcess (`.proc`).

    Its log is the process's output; `.lines` is that log split into lines.
    """

    def __init__(self, domain_id, rate_hz=None, extra_args=(), env=None):
        cmd = [sim_executable(), '--domain', str(domain_id)]
        if rate_hz is not None:
            cmd += ['--rate', str(rate_hz)]
        cmd += list(extra_args)
        self.proc = workspace_testing.start(
            cmd, env=env if env is not None else localhost_env(domain_id))

    @property
    def lines(self):
        """Every line the simulator has logged so far."""
        return self.proc.output().splitlines()

    def wait_for(self, text, timeout):
        """Return the first log line containing text, or None after timeout seconds."""
        found = self.proc.wait_for_output(
            re.compile('^.*' + re.escape(text) + '.*$', re.MULTILINE), timeout)
        return found.group(0) if found else None

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
        return len(self.proc.output())

    def counters(self):
        """Return the counters of the exit line ('stopped after ...') as a dict, None before it."""
        line = self.wait_for('stopped after', 0)
        if line is None:
            return None
        m = _COUNTERS.search(line)
        return {k: int(v) for k, v in m.groupdict().items()} if m else None

    def stop(self, timeout=5.0):
        """
        Stop it with SIGTERM (it exits cleanly and logs its counters); return `Stopped`.

        workspace_testing.stop: SIGKILL after `timeout` s if it is stuck; `signal` is None
        when it had exited by itself.
        """
        return workspace_testing.stop(self.proc, timeout, first=signal.SIGTERM)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
