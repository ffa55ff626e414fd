# SPDX-License-Identifier: Apache-2.0
"""ros2/launch's test_launch_context.py cases: argv, locals, configurations, handlers."""

import asyncio
import os

from launch import LaunchContext
import pytest


def test_argv_and_noninteractive():
    assert LaunchContext(argv=['a', 'b']).argv == ['a', 'b']
    assert LaunchContext().argv == []
    assert LaunchContext(noninteractive=True).noninteractive
    assert not LaunchContext().noninteractive


def test_asyncio_loop():
    lc = LaunchContext()
    assert lc.asyncio_loop is None
    loop = asyncio.new_event_loop()
    try:
        lc._set_asyncio_loop(loop)
        assert lc.asyncio_loop is loop
    finally:
        loop.close()


def test_locals():
    lc = LaunchContext()
    assert len(lc.get_locals_as_dict()) == 0
    lc.extend_locals({'foo': 1})
    assert lc.get_locals_as_dict()['foo'] == 1 and lc.locals.foo == 1
    with pytest.raises(AttributeError):
        lc.locals.foo = 2
    lc._push_locals()
    lc.extend_locals({'foo': 2, 'bar': 3})
    assert lc.locals.foo == 2 and lc.locals.bar == 3
    lc._pop_locals()
    assert lc.locals.foo == 1
    with pytest.raises(AttributeError):
        lc.locals.bar
    with pytest.raises(RuntimeError):
        lc._pop_locals()
    lc.extend_globals({'g': 'global'})
    assert lc.locals.g == 'global'


def test_launch_configurations():
    lc = LaunchContext()
    assert len(lc.launch_configurations) == 0
    lc.launch_configurations.update({'foo': 1})
    lc._push_launch_configurations()
    lc.launch_configurations.update({'foo': 2, 'bar': 3})
    assert lc.launch_configurations == {'foo': 2, 'bar': 3}
    lc._pop_launch_configurations()
    assert lc.launch_configurations == {'foo': 1}
    with pytest.raises(RuntimeError):
        lc._pop_launch_configurations()


def test_environment(monkeypatch):
    monkeypatch.setenv('LAUNCH_TEST_ENV_PUSH_POP', 'FOO')
    lc = LaunchContext()
    assert lc.environment == dict(os.environ)
    lc._push_environment()
    lc.environment['LAUNCH_TEST_ENV_PUSH_POP'] = 'BAR'
    assert os.environ['LAUNCH_TEST_ENV_PUSH_POP'] == 'BAR'
    lc._pop_environment()
    assert os.environ['LAUNCH_TEST_ENV_PUSH_POP'] == 'FOO'
    with pytest.raises(RuntimeError):
        lc._pop_environment()


def test_register_event_handlers():
    lc = LaunchContext()

    class MockEventHandler:
        def matches(self, event):
            return True

    first, second = MockEventHandler(), MockEventHandler()
    lc.register_event_handler(first)
    lc.register_event_handler(second)
    assert list(lc._event_handlers) == [second, first]     # the newest handles first
    assert lc.would_handle_event(object())
    lc.unregister_event_handler(first)
    lc.unregister_event_handler(second)
    assert len(lc._event_handlers) == 0
    with pytest.raises(ValueError):
        lc.unregister_event_handler(first)
