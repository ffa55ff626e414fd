# SPDX-License-Identifier: Apache-2.0
"""
One ROS_DOMAIN_ID allocator for every test and benchmark of the workspace.

colcon runs the packages' test suites in parallel, and a suite may run beside a benchmark:
two processes on one domain see each other's nodes and topics. Each allocated domain is held
by an exclusive lock on a file (`fcntl.flock`) for as long as the allocating process lives
(or until `release_domain`), so no two live processes hold the same domain, whichever
package they belong to. The kernel drops the lock when the process dies, however it dies.
"""

import fcntl
import os
import random
import tempfile
from typing import Dict, IO, Mapping, Optional

# Valid for Fast DDS and Cyclone DDS with their default port mapping (<= 232). Below 140 are
# users' own experiments (0-29) and the ranges some packages' tests still pick from by hand
# (30-139) until they use this allocator.
DOMAINS = range(140, 230)
LOCK_DIR = os.path.join(tempfile.gettempdir(), 'workspace_testing_domains')

_held: Dict[int, IO[str]] = {}      # domain -> open lock file


def allocate_domain(rng: Optional[random.Random] = None) -> int:
    """
    Return a ROS_DOMAIN_ID no other live process of the workspace holds, and hold it.

    The search starts at a random domain, so that a domain just released (whose shared
    memory may not be gone yet) is unlikely to be taken again at once. Raises RuntimeError
    when every domain is held.
    """
    os.makedirs(LOCK_DIR, exist_ok=True)
    start = (rng.randrange if rng is not None else random.randrange)(len(DOMAINS))
    for i in range(len(DOMAINS)):
        domain = DOMAINS[(start + i) % len(DOMAINS)]
        if domain in _held:
            continue
        f = open(os.path.join(LOCK_DIR, f'{domain}.lock'), 'a')
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            continue
        _held[domain] = f
        return domain
    raise RuntimeError(f'every ROS_DOMAIN_ID in {DOMAINS.start}-{DOMAINS.stop - 1} is held')


def release_domain(domain: int) -> None:
    """Release a domain this process allocated (a no-op for any other)."""
    f = _held.pop(domain, None)
    if f is not None:
        fcntl.flock(f, fcntl.LOCK_UN)
        f.close()


def localhost_env(domain: int, base: Optional[Mapping[str, str]] = None) -> Dict[str, str]:
    """
    Return a copy of `base` (default: os.environ) set to `domain`, discovery on this host.

    ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST keeps rmw discovery on the loopback host; Cyclone
    DDS peers of the tests configure their own interface.
    """
    env = dict(os.environ if base is None else base)
    env['ROS_DOMAIN_ID'] = str(domain)
    env['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    return env


def isolate() -> int:
    """Allocate a domain and put this process (and the children it starts) on it."""
    domain = allocate_domain()
    os.environ.update(localhost_env(domain, {}))
    return domain
