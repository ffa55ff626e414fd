# SPDX-License-Identifier: Apache-2.0
"""
node_runtime.stop: SIGINT/SIGTERM at several moments of a launched program -> exit 0.

Each case runs a launcher script like the workspace's (its first statements note signals
with `_signal`, then launch()) in a subprocess with a small target module, and signals it
before launch() ran, during the target's import and inside its main loop.
"""

import os
import re
import signal
import subprocess
import sys
import textwrap
import time

import node_runtime
from node_runtime import stop
import pytest
import workspace_testing

PACKAGE_ROOT = os.path.dirname(os.path.dirname(node_runtime.__file__))

LAUNCHER = textwrap.dedent("""\
    import _signal

    EARLY = []
    _signal.signal(_signal.SIGINT, lambda signum, frame: EARLY.append(signum))
    _signal.signal(_signal.SIGTERM, lambda signum, frame: EARLY.append(signum))
    import sys  # noqa
    print('launcher', flush=True)
    if 'early' in sys.argv:
        import time
        time.sleep(1.5)
    from node_runtime.stop import launch  # noqa: E402

    launch('target_mod', EARLY, {options})
    """)

# A target whose import takes a while (a heavy import) and whose main() loops until stopped.
TARGET = textwrap.dedent("""\
    import sys
    import time

    from node_runtime import stop as stop_request

    print('importing', flush=True)
    if 'import' in sys.argv:
        time.sleep(1.5)
    if 'extension' in sys.argv:     # like a C extension's init hit by KeyboardInterrupt
        try:
            time.sleep(30)
        except KeyboardInterrupt as exc:
            raise ImportError('initialization failed') from exc
    if 'broken' in sys.argv:        # a real import error, no signal involved
        raise ImportError('initialization failed')


    def main(*args, stop=None):
        event = stop
        print('main', args, flush=True)
        if 'raise' in sys.argv:
            raise SystemExit(3)
        if 'wait' in sys.argv:      # a short-lived command that waits (interrupt=True)
            time.sleep(30)
            return 5
        while not stop_requested(event):
            time.sleep(0.01)
        print('stopped', stop_request.signum(), flush=True)
        return 0


    def stop_requested(event):
        return event.is_set() if event is not None else stop_request.requested()
    """)


def run(tmp_path, options, mode, sig, expect_line=None):
    (tmp_path / 'target_mod.py').write_text(TARGET)
    (tmp_path / 'launcher').write_text(LAUNCHER.format(options=options))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(tmp_path), PACKAGE_ROOT, os.environ.get('PYTHONPATH', '')]))
    proc = workspace_testing.start([sys.executable, '-S', str(tmp_path / 'launcher'), mode],
                                   env=env, separate_stderr=True)
    try:
        if expect_line is not None:
            line = re.compile('^' + re.escape(expect_line), re.MULTILINE)
            assert proc.wait_for_output(line, 60), \
                f'no {expect_line!r} before the end: {proc.output()} {proc.errors()}'
        if mode in ('loop', 'wait'):
            time.sleep(0.2)
        proc.send_signal(sig)
        proc.wait(60)
    finally:
        result = workspace_testing.stop(proc)
    assert result.signal is None, f'did not exit on {sig!r}: {result}'
    return result.returncode, result.output, proc.errors()


def run_to_exit(tmp_path, options, mode):
    """Run the launcher in `mode` with no signal until it exits: (returncode, stderr)."""
    (tmp_path / 'target_mod.py').write_text(TARGET)
    (tmp_path / 'launcher').write_text(LAUNCHER.format(options=options))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), PACKAGE_ROOT]))
    proc = workspace_testing.start(
        [sys.executable, '-S', str(tmp_path / 'launcher'), mode], env=env,
        separate_stderr=True)
    try:
        proc.wait(60)
    finally:
        result = workspace_testing.stop(proc)
    return result.returncode, proc.errors()


SIGNALS = [signal.SIGINT, signal.SIGTERM]


@pytest.mark.parametrize('sig', SIGNALS)
@pytest.mark.parametrize('options', ['', 'hard_exit=True, argv=True', 'stop=True'])
def test_signal_before_launch_exits_0_without_running_the_target(tmp_path, sig, options):
    code, out, err = run(tmp_path, options, 'early', sig, 'launcher')
    assert (code, err) == (0, '')
    assert 'importing' not in out


@pytest.mark.parametrize('sig', SIGNALS)
@pytest.mark.parametrize('options', ['', 'hard_exit=True, argv=True', 'stop=True'])
def test_signal_during_the_import_is_a_stop_request(tmp_path, sig, options):
    code, out, err = run(tmp_path, options, 'import', sig, 'importing')
    assert (code, err) == (0, '')
    assert 'stopped' in out


@pytest.mark.parametrize('sig', SIGNALS)
@pytest.mark.parametrize('options', ['', 'hard_exit=True, argv=True', 'stop=True'])
def test_signal_in_the_loop_is_a_stop_request(tmp_path, sig, options):
    code, out, err = run(tmp_path, options, 'loop', sig, 'main')
    assert (code, err) == (0, '')
    assert f'stopped {int(sig)}' in out
    if 'argv=True' in options:
        assert "main (['loop'],)" in out
    else:
        assert 'main ()' in out


@pytest.mark.parametrize('sig', SIGNALS)
def test_interrupt_mode_ends_a_waiting_command_with_0(tmp_path, sig):
    code, out, err = run(tmp_path, 'interrupt=True', 'wait', sig, 'main')
    assert (code, err) == (0, '')


@pytest.mark.parametrize('sig', SIGNALS)
def test_interrupt_mode_stop_inside_an_extension_import_exits_0(tmp_path, sig):
    # The interrupt lands inside the import and comes out as ImportError (as rclpy's module
    # initialisation does): exit 0 without a traceback, not 1.
    code, out, err = run(tmp_path, 'interrupt=True', 'extension', sig, 'importing')
    assert (code, err) == (0, '')
    assert 'main' not in out


def test_an_error_without_a_stop_request_still_fails(tmp_path):
    # The same ImportError without any signal is a real error: not swallowed.
    code, errors = run_to_exit(tmp_path, 'interrupt=True', 'broken')
    assert code == 1
    assert 'ImportError: initialization failed' in errors


def test_system_exit_status_is_kept(tmp_path):
    for options in ('', 'hard_exit=True'):
        code, errors = run_to_exit(tmp_path, options, 'raise')
        assert code == 3, errors


def test_request_event_and_watch_in_process():
    # In this process no signal is involved: request() is what a signal does.
    assert not stop.requested()
    assert stop.signum() is None
    given = object()
    assert stop.watch(given) is given
    event = stop.event()
    assert not event.is_set()
    stop.request(signal.SIGTERM)
    stop.request(signal.SIGINT)             # the first one counts
    assert stop.requested() and event.is_set()
    assert stop.signum() == signal.SIGTERM
    assert stop.event() is event


# The main thread inside the Event's wait() holds the Event's lock for a few bytecodes, and
# a signal handled right then runs on that same thread. Here the lock is held on purpose
# while the signal arrives: a handler that set the Event itself would wait for the lock
# forever (and the process would ignore every later signal).
SIGNAL_WHILE_WAITING = textwrap.dedent("""\
    import os
    import signal
    from node_runtime import stop

    stop.install()
    event = stop.event()
    with event._cond:   # what Event.wait() holds between its bytecodes
        os.kill(os.getpid(), signal.{name})
        print('handler returned', flush=True)
    print('set' if event.wait(10) else 'not set', stop.signum() == signal.{name}, flush=True)
    """)


@pytest.mark.parametrize('sig', SIGNALS)
def test_signal_while_the_event_lock_is_held_still_sets_the_event(tmp_path, sig):
    script = tmp_path / 'waiting.py'
    script.write_text(SIGNAL_WHILE_WAITING.format(name=sig.name))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [PACKAGE_ROOT, os.environ.get('PYTHONPATH', '')]))
    proc = workspace_testing.start([sys.executable, str(script)], env=env)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        pass    # hung: stop() below ends it with SIGKILL, and the assertion says so
    result = workspace_testing.stop(proc, timeout=2.0)
    assert (result.returncode, result.signal) == (0, None), result.output
    assert result.output.split('\n')[:2] == ['handler returned', 'set True'], result.output


@pytest.mark.parametrize('sig', SIGNALS)
def test_launcher_source_runs_a_target_as_a_launcher_file_does(tmp_path, sig):
    (tmp_path / 'target_mod.py').write_text(TARGET)
    source = stop.launcher_source('target_mod', argv=True, stop=True)
    assert source.startswith('import _signal\n')    # the handlers before any other import
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(tmp_path), PACKAGE_ROOT, os.environ.get('PYTHONPATH', '')]))
    proc = workspace_testing.start([sys.executable, '-S', '-c', source, 'loop'], env=env,
                                   separate_stderr=True)
    try:
        assert proc.wait_for_output(re.compile("^main \\(\\['loop'\\],\\)", re.MULTILINE),
                                    60), (proc.output(), proc.errors())
        proc.send_signal(sig)
        proc.wait(60)
    finally:
        result = workspace_testing.stop(proc)
    assert (result.returncode, proc.errors()) == (0, ''), result.output
    assert f'stopped {int(sig)}' in result.output, result.output
    with pytest.raises(TypeError, match='no option'):
        stop.launcher_source('target_mod', daemon=True)
