# SPDX-License-Identifier: Apache-2.0
"""
The installed PND Adam simulator (pnd_adam_sim's adam_sim) as a subprocess.

For pnd_adam_sim's tests, pnd_adam_examples' interop tests, the workspace tests and
benchmarks/pnd_*.py: its command line, the Cyclone loopback configuration it installs, the
counters of its exit line, and its resource use. It runs the installed executable only;
nothing of pnd_adam_sim is imported.
"""

import os
import re
import signal
from types import TracebackType
from typing import Dict, Iterable, List, Mapping, Optional, Type

from ament_index_python.packages import get_package_share_directory

from . import domain as _domain
from . import process as _process

PACKAGE = 'pnd_adam_sim'


def sim_executable() -> str:
    """Return the path of the installed adam_sim."""
    return _process.executable(PACKAGE, 'adam_sim')


def cyclone_localhost_uri() -> str:
    """CYCLONEDDS_URI value that keeps Cyclone on the loopback interface (network only)."""
    path = os.path.join(get_package_share_directory(PACKAGE), 'config',
                        'cyclonedds_localhost.xml')
    return 'file://' + path


def localhost_env(domain_id: int, base: Optional[Mapping[str, str]] = None) -> Dict[str, str]:
    """
    Environment for any DDS process of a local test: loopback only, given domain.

    workspace_testing.localhost_env (ROS_DOMAIN_ID, ROS discovery on this host) plus the
    Cyclone loopback configuration for the plain-DDS peers, and unbuffered Python output.
    """
    env = _domain.localhost_env(domain_id, base)
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

    def __init__(self, domain_id: int, rate_hz: Optional[float] = None,
                 extra_args: Iterable[str] = (), env: Optional[Mapping[str, str]] = None
                 ) -> None:
        cmd = [sim_executable(), '--domain', str(domain_id)]
        if rate_hz is not None:
            cmd += ['--rate', str(rate_hz)]
        cmd += list(extra_args)
        self.proc = _process.start(
            cmd, env=env if env is not None else localhost_env(domain_id))

    @property
    def lines(self) -> List[str]:
        """Every line the simulator has logged so far."""
        return self.proc.output().splitlines()

    def wait_for(self, text: str, timeout: float) -> Optional[str]:
        """Return the first log line containing text, or None after timeout seconds."""
        found = self.proc.wait_for_output(
            re.compile('^.*' + re.escape(text) + '.*$', re.MULTILINE), timeout)
        return found.group(0) if found else None

    def rss_bytes(self) -> int:
        """Resident memory of the simulator process now."""
        with open(f'/proc/{self.proc.pid}/status', encoding='ascii') as f:
            for line in f:
                if line.startswith('VmRSS:'):
                    return int(line.split()[1]) * 1024
        raise RuntimeError('no VmRSS line')

    def cpu_seconds(self) -> float:
        """Return the CPU time (user + system, all threads) the simulator has used so far."""
        with open(f'/proc/{self.proc.pid}/stat', encoding='ascii') as f:
            fields = f.read().rsplit(')', 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')

    def log_bytes(self) -> int:
        """Size of everything the simulator has logged so far."""
        return len(self.proc.output())

    def counters(self) -> Optional[Dict[str, int]]:
        """Return the counters of the exit line ('stopped after ...') as a dict, None before it."""
        line = self.wait_for('stopped after', 0)
        if line is None:
            return None
        m = _COUNTERS.search(line)
        return {k: int(v) for k, v in m.groupdict().items()} if m else None

    def stop(self, timeout: float = 5.0) -> _process.Stopped:
        """
        Stop it with SIGTERM (it exits cleanly and logs its counters); return `Stopped`.

        workspace_testing.stop: SIGKILL after `timeout` s if it is stuck; `signal` is None
        when it had exited by itself.
        """
        return _process.stop(self.proc, timeout, first=signal.SIGTERM)

    def __enter__(self) -> 'SimProcess':
        return self

    def __exit__(self, exc_type: Optional[Type[BaseException]],
                 exc: Optional[BaseException], tb: Optional[TracebackType]) -> None:
        self.stop()
