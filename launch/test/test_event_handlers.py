# SPDX-License-Identifier: Apache-2.0
"""ros2/launch's test_on_process_*.py and test_on_shutdown.py cases (handlers alone)."""

from unittest.mock import Mock
from unittest.mock import NonCallableMock

from launch import LaunchContext
from launch.action import Action
from launch.actions import ExecuteProcess
from launch.event_handlers import OnProcessExit
from launch.event_handlers import OnProcessIO
from launch.event_handlers import OnProcessStart
from launch.event_handlers import OnShutdown
from launch.events import Shutdown
from launch.events.process import ProcessExited
from launch.events.process import ProcessIO
from launch.events.process import ProcessStarted
import pytest

DETAILS = {'cmd': ['ls'], 'cwd': None, 'env': None}
started = ProcessStarted(action=Mock(spec=Action), name='PhonyStarted', pid=1, **DETAILS)
exited = ProcessExited(action=Mock(spec=Action), name='PhonyExited', pid=2, returncode=0,
                       **DETAILS)
io = ProcessIO(action=Mock(spec=Action), name='PhonyIO', pid=3, text=b'phony', fd=1, **DETAILS)
context = Mock(spec=LaunchContext)


@pytest.mark.parametrize('handler_cls,kw,event,other', [
    (OnProcessExit, 'on_exit', exited, started),
    (OnProcessStart, 'on_start', started, exited),
])
def test_start_and_exit_handlers(handler_cls, kw, event, other):
    with pytest.raises(TypeError):
        handler_cls(target_action=NonCallableMock(), **{kw: NonCallableMock(spec=Action)})
    with pytest.raises(TypeError):
        handler_cls(target_action=Mock(spec=ExecuteProcess), on_nothing=NonCallableMock())
    callable_target = handler_cls(target_action=Mock(spec=ExecuteProcess),
                                  **{kw: NonCallableMock(spec=Action)})
    assert callable_target.matches(event) and not callable_target.matches(other)
    target = NonCallableMock(spec=ExecuteProcess)
    single = handler_cls(target_action=target, **{kw: Mock()})
    assert not single.matches(event)
    assert single.matches(type(event)(action=target, name='foo', pid=4, **DETAILS, **(
        {'returncode': 0} if event is exited else {})))
    function = Mock()
    handler_cls(**{kw: function}).handle(event, context)
    function.assert_called_once_with(event, context)
    action = NonCallableMock(spec=Action)
    assert handler_cls(**{kw: action}).handle(event, context) == [action]
    actions = [NonCallableMock(spec=Action), NonCallableMock(spec=Action)]
    assert handler_cls(**{kw: actions}).handle(event, context) == actions


@pytest.mark.parametrize('handler', [
    OnProcessExit(on_exit=Mock()), OnProcessIO(), OnShutdown(on_shutdown=Mock())])
def test_event_in_locals_and_handle_once(handler):
    event = {OnProcessExit: exited, OnProcessIO: io, OnShutdown: Shutdown()}[type(handler)]
    ctx = Mock(spec=LaunchContext)
    handler.handle(event, ctx)
    ctx.extend_locals.assert_called_once_with({'event': event})
    ctx.unregister_event_handler.assert_not_called()
    once = type(handler)(handle_once=True, **(
        {'on_exit': Mock()} if isinstance(handler, OnProcessExit) else
        {'on_shutdown': Mock()} if isinstance(handler, OnShutdown) else {}))
    once.handle(event, ctx)
    ctx.unregister_event_handler.assert_called_once_with(once)


def test_on_process_io_dispatch():
    with pytest.raises(TypeError):
        OnProcessIO(target_action=NonCallableMock())
    assert OnProcessIO().matches(io) and not OnProcessIO().matches(started)
    for fd, name in ((0, 'stdin'), (1, 'stdout'), (2, 'stderr')):
        callbacks = {f'on_{n}': Mock() for n in ('stdin', 'stdout', 'stderr')}
        event = ProcessIO(action=Mock(spec=Action), name='x', pid=5, text=b't', fd=fd,
                          **DETAILS)
        OnProcessIO(**callbacks).handle(event, context)
        for key, callback in callbacks.items():
            if key == f'on_{name}':
                callback.assert_called_once_with(event)
            else:
                callback.assert_not_called()


def test_on_shutdown():
    shutdown = Shutdown(reason='r')
    handler = OnShutdown(on_shutdown=Mock())
    assert handler.matches(shutdown) and not handler.matches(started)
    action = NonCallableMock(spec=Action)
    assert OnShutdown(on_shutdown=action).handle(shutdown, context) == action
