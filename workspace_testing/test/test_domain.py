# SPDX-License-Identifier: Apache-2.0
"""One ROS_DOMAIN_ID allocator: no two live processes hold the same domain."""

import os
import subprocess
import sys

from workspace_testing import allocate_domain, isolate, localhost_env, release_domain
from workspace_testing.domain import DOMAINS

HOLDER = os.path.join(os.path.dirname(__file__), 'fixtures', 'hold_domain.py')


def holder(n):
    proc = subprocess.Popen([sys.executable, HOLDER, str(n)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    return proc, {int(d) for d in proc.stdout.readline().split()}


def test_concurrent_processes_never_share_a_domain():
    procs = [holder(20) for _ in range(3)]
    try:
        sets = [held for _, held in procs]
        assert all(len(s) == 20 for s in sets)
        assert not (sets[0] & sets[1] or sets[0] & sets[2] or sets[1] & sets[2])
        mine = allocate_domain()
        assert mine in DOMAINS and all(mine not in s for s in sets)
        release_domain(mine)
    finally:
        for proc, _ in procs:
            proc.stdin.close()
            proc.wait(10)


def test_a_dead_holders_domains_are_free_again():
    proc, held = holder(len(DOMAINS))       # every domain still free
    try:
        try:
            allocate_domain()
            raise AssertionError('allocated a domain another process holds')
        except RuntimeError as exc:
            assert 'is held' in str(exc)
    finally:
        proc.kill()
        proc.wait(10)
    assert allocate_domain() in held


def test_release_then_allocate_again():
    d = allocate_domain()
    release_domain(d)
    release_domain(d)                       # twice: no error
    assert allocate_domain() in DOMAINS


def test_isolate_sets_the_environment(monkeypatch):
    monkeypatch.delenv('ROS_DOMAIN_ID', raising=False)
    d = isolate()
    assert os.environ['ROS_DOMAIN_ID'] == str(d)
    assert os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] == 'LOCALHOST'
    env = localhost_env(7, {'PATH': '/bin'})
    assert env == {'PATH': '/bin', 'ROS_DOMAIN_ID': '7',
                   'ROS_AUTOMATIC_DISCOVERY_RANGE': 'LOCALHOST'}
