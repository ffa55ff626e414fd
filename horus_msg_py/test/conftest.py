# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
import os
import uuid

from horus_msg_py import shm
import pytest


@pytest.fixture
def horus_ns(monkeypatch):
    """Give each test a fresh HORUS_NAMESPACE; its /dev/shm folder is removed afterwards."""
    name = 'hmp_test_%d_%s' % (os.getpid(), uuid.uuid4().hex[:8])
    monkeypatch.setenv('HORUS_NAMESPACE', name)
    yield name
    shm.remove_namespace(name)
    assert not os.path.exists(shm.namespace_dir(name))
