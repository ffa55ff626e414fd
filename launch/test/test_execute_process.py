# SPDX-License-Identifier: Apache-2.0
"""ExecuteProcess with real child processes: output, events, exit, respawn, escalation."""

import os
import re
import sys
import time

import launch
from launch.actions import EmitEvent
from launch.actions import ExecuteProcess
from launch.actions import OpaqueFunction
from launch.actions import RegisterEventHandler
from launch.actions import SetEnvironmentVariable
from launch.actions import SetLaunchConfiguration
from launch.actions import Shutdown
from launch.actions import TimerAction
from launch.event_handlers import OnProcessExit
from launch.event_handlers import OnProcessIO
from launch.event_handlers import OnProcessStart
from launch.events import matchers
from launch.events.process import ProcessExited
from launch.events.process import ShutdownProcess
from launch.events.process import SignalProcess
from launch_helpers import run
import pytest

PY = sys.executable


def pids_started(out):
    return [int(p) for p in re.findall(r'process started with pid \[(\d+)\]', out)]


def gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with open(f'/proc/{pid}/stat') as f:     # a zombie is gone too
        return f.read().rsplit(')', 1)[1].split()[0] == 'Z'


def test_output_screen_prefix_and_lifecycle_lines(capsys):
    rc, _ = run([ExecuteProcess(cmd=['echo', 'hello world'], output='screen'),
                 ExecuteProcess(cmd=[PY, '-c', 'import sys; print("out"); '
                                     'print("err", file=sys.stderr); sys.exit(3)'],
                                name='failing', output='screen')])
    out = capsys.readouterr().out
    assert rc == 0      # a process that dies does not fail the launch (upstream)
    number = re.search(r'\[echo-(\d+)\] hello world', out)
    assert number
    pid = pids_started(out)[0]
    assert f'[INFO] [echo-{number.group(1)}]: process started with pid [{pid}]' in out
    assert f'[INFO] [echo-{number.group(1)}]: process has finished cleanly [pid {pid}]' in out
    assert re.search(r'\[failing-\d+\] out', out) and re.search(r'\[failing-\d+\] err', out)
    assert re.search(r'\[ERROR\] \[failing-\d+\]: process has died \[pid \d+, exit code 3, '
                     r"cmd '.*python.* -c import sys.*'\]\.", out)


def test_output_log_goes_to_launch_log_and_stderr_to_screen(capsys, launch_log_dir):
    rc, _ = run([ExecuteProcess(cmd=['sh', '-c', 'echo to-stdout; echo to-stderr >&2'],
                                output='log', name='logged')])
    out = capsys.readouterr().out
    assert rc == 0
    assert 'to-stdout' not in out and re.search(r'\[logged-\d+\] to-stderr', out)
    log_file = launch.logging.launch_config.get_log_file_path()
    text = open(log_file).read()
    assert re.search(r'\d+\.\d+ \[logged-\d+\] to-stdout', text)
    assert re.search(r'\[INFO\] \[logged-\d+\]: process started with pid', text)
    assert log_file.startswith(str(launch_log_dir))


def test_partial_lines_are_joined_and_flushed(capsys):
    rc, _ = run([ExecuteProcess(cmd=['sh', '-c', 'printf "a"; sleep 0.1; printf "b\\nlast"'],
                                output='screen', name='partial')])
    out = capsys.readouterr().out
    assert rc == 0
    assert re.search(r'\[partial-\d+\] ab\n', out) and re.search(r'\[partial-\d+\] last', out)


def test_cwd_env_additional_env_shell(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv('LAUNCH_TEST_INHERITED', 'inherited')
    rc, _ = run([
        SetEnvironmentVariable('LAUNCH_TEST_SET', 'set-by-launch'),
        ExecuteProcess(cmd=['sh', '-c', 'echo "$PWD|$LAUNCH_TEST_INHERITED|$LAUNCH_TEST_SET|$X"'],
                       cwd=str(tmp_path), additional_env={'X': 'extra'}, output='screen',
                       name='envs'),
        ExecuteProcess(cmd=['sh', '-c', 'echo "[$LAUNCH_TEST_INHERITED][$ONLY]"'],
                       env={'ONLY': 'only', 'PATH': os.environ['PATH']}, output='screen',
                       name='replaced'),
        ExecuteProcess(cmd=['echo $((1+2))'], shell=True, output='screen', name='shell'),
    ])
    out = capsys.readouterr().out
    assert rc == 0
    assert f'{tmp_path}|inherited|set-by-launch|extra' in out
    assert '[][only]' in out
    assert re.search(r'\[shell-\d+\] 3', out)


def test_emulate_tty(capsys):
    code = 'import sys; print(sys.stdout.isatty(), sys.stderr.isatty())'
    rc, _ = run([ExecuteProcess(cmd=[PY, '-c', code], output='screen', name='tty',
                                emulate_tty=True),
                 ExecuteProcess(cmd=[PY, '-c', code], output='screen', name='pipe')])
    out = capsys.readouterr().out
    assert rc == 0
    assert re.search(r'\[tty-\d+\] True True', out)
    assert re.search(r'\[pipe-\d+\] False False', out)


def test_process_events_and_handlers():
    events = []
    proc = ExecuteProcess(cmd=['sh', '-c', 'echo line; exit 2'], name='evented')
    rc, _ = run([
        RegisterEventHandler(OnProcessStart(
            target_action=proc, on_start=lambda event, context: events.append(
                ('start', event.pid, event.process_name)))),
        RegisterEventHandler(OnProcessIO(
            target_action=proc, on_stdout=lambda event: events.append(('out', event.text)))),
        RegisterEventHandler(OnProcessExit(
            target_action=proc, on_exit=lambda event, context: events.append(
                ('exit', event.returncode, proc.return_code)))),
        proc])
    assert rc == 0
    assert events[0][0] == 'start' and events[0][2].startswith('evented-')
    assert ('out', b'line\n') in events
    assert events[-1] == ('exit', 2, 2)


def test_on_exit_actions_and_callable():
    seen = []
    rc, _ = run([
        ExecuteProcess(cmd=['true'], on_exit=[OpaqueFunction(
            function=lambda context: seen.append(context.locals.event.returncode))]),
        ExecuteProcess(cmd=['false'], on_exit=lambda event, context: seen.append(
            ('callable', event.returncode))),
    ])
    assert rc == 0 and sorted(map(str, seen)) == sorted(map(str, [0, ('callable', 1)]))


def test_on_exit_shutdown_ends_the_launch(capsys):
    start = time.monotonic()
    rc, _ = run([ExecuteProcess(cmd=['sleep', '30'], output='screen', name='long'),
                 ExecuteProcess(cmd=['true'], on_exit=Shutdown(reason='first exited'))])
    out = capsys.readouterr().out
    assert rc == 0 and time.monotonic() - start < 10
    assert re.search(r"\[INFO\] \[long-\d+\]: sending signal 'SIGINT' to process\[long-\d+\]",
                     out)
    assert all(gone(pid) for pid in pids_started(out))


def test_respawn_with_retries_and_delay(capsys):
    rc, _ = run([ExecuteProcess(cmd=['sh', '-c', 'echo run'], output='screen', name='again',
                                respawn=True, respawn_delay=0.05, respawn_max_retries=2)])
    out = capsys.readouterr().out
    assert rc == 0
    assert len(re.findall(r'\[again-\d+\] run', out)) == 3
    assert len(pids_started(out)) == 3


def test_respawn_stops_at_shutdown(capsys):
    rc, _ = run([ExecuteProcess(cmd=['sleep', '0.1'], respawn=True, name='resp'),
                 TimerAction(period=0.5, actions=[Shutdown()])])
    out = capsys.readouterr().out
    assert rc == 0
    assert 1 <= len(pids_started(out)) <= 8


STUBBORN = 'import signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); {term}' \
    'print("ready", flush=True); time.sleep(30)'


def test_sigint_then_sigterm_escalation(capsys):
    code = STUBBORN.format(term='')
    rc, _ = run([ExecuteProcess(cmd=[PY, '-c', code], name='stubborn', output='screen',
                                sigterm_timeout='0.3', sigkill_timeout='0.3'),
                 TimerAction(period=0.8, actions=[Shutdown()])])
    out = capsys.readouterr().out
    assert rc == 0
    assert re.search(r"process\[stubborn-\d+\] failed to terminate '0.3' seconds after "
                     r"receiving 'SIGINT', escalating to 'SIGTERM'", out)
    assert "escalating to 'SIGKILL'" not in out
    assert re.search(r'process has died \[pid \d+, exit code -15', out)


def test_sigkill_escalation_with_launch_configurations(capsys):
    code = STUBBORN.format(term='signal.signal(signal.SIGTERM, signal.SIG_IGN); ')
    start = time.monotonic()
    rc, _ = run([SetLaunchConfiguration('sigterm_timeout', '0.3'),
                 SetLaunchConfiguration('sigkill_timeout', '0.3'),
                 ExecuteProcess(cmd=[PY, '-c', code], name='stubborn', output='screen'),
                 TimerAction(period=0.8, actions=[Shutdown()])])
    out = capsys.readouterr().out
    assert rc == 0 and time.monotonic() - start < 5
    for received, escalating in (('SIGINT', 'SIGTERM'), ('SIGTERM', 'SIGKILL')):
        assert re.search(r'\[ERROR\] \[stubborn-\d+\]: process\[stubborn-\d+\] failed to '
                         rf"terminate '0.3' seconds after receiving '{received}', escalating "
                         rf"to '{escalating}'", out)
    assert re.search(r"sending signal 'SIGKILL' to process\[stubborn-\d+\]", out)
    assert re.search(r'process has died \[pid \d+, exit code -9', out)
    assert all(gone(pid) for pid in pids_started(out))


def test_shutdown_process_and_signal_process_events(capsys):
    target = ExecuteProcess(cmd=['sleep', '30'], name='target')
    other = ExecuteProcess(cmd=['sleep', '0.6'], name='other')
    rc, _ = run([target, other,
                 TimerAction(period=0.3, actions=[EmitEvent(event=ShutdownProcess(
                     process_matcher=matchers.matches_action(target)))])])
    out = capsys.readouterr().out
    assert rc == 0
    assert re.search(r"sending signal 'SIGINT' to process\[target-\d+\]", out)
    assert not re.search(r"sending signal 'SIGINT' to process\[other-\d+\]", out)
    target = ExecuteProcess(cmd=['sleep', '30'], name='signalled')
    rc, _ = run([target, TimerAction(period=0.3, actions=[EmitEvent(event=SignalProcess(
        signal_number='SIGTERM', process_matcher=matchers.matches_action(target)))])])
    assert rc == 0 and target.return_code == -15


def test_missing_executable_is_one_error_line(capsys):
    rc, _ = run([ExecuteProcess(cmd=['launch_test_no_such_executable'], name='missing')])
    out = capsys.readouterr().out
    assert rc == 0
    lines = [line for line in out.splitlines() if 'missing-' in line]
    assert len(lines) == 1 and 'exception occurred while executing process: ' \
        'FileNotFoundError' in lines[0]
    assert 'Traceback' not in out


def test_cached_output():
    proc = ExecuteProcess(cmd=['sh', '-c', 'echo o; echo e >&2'], cached_output=True)
    rc, _ = run([proc])
    assert rc == 0 and proc.get_stdout() == 'o\n' and proc.get_stderr() == 'e\n'
    with pytest.raises(RuntimeError):
        ExecuteProcess(cmd=['true']).get_stdout()


def test_prefix_and_override_output(capsys, monkeypatch):
    monkeypatch.setenv('OVERRIDE_LAUNCH_PROCESS_OUTPUT', 'screen')
    rc, _ = run([SetLaunchConfiguration('launch-prefix', 'echo PREFIXED'),
                 ExecuteProcess(cmd=['true'], name='prefixed')])
    out = capsys.readouterr().out
    assert rc == 0 and re.search(r'\[prefixed-\d+\] PREFIXED true', out)


def test_executed_twice_is_an_error():
    proc = ExecuteProcess(cmd=['true'])
    rc, _ = run([proc, proc])
    assert rc == 1


def test_exited_event_has_details():
    seen = []
    rc, _ = run([ExecuteProcess(cmd=['true'], cwd='/', name='details'),
                 RegisterEventHandler(OnProcessExit(on_exit=lambda event, context: seen.append(
                     event)))])
    assert rc == 0 and isinstance(seen[0], ProcessExited)
    assert seen[0].cmd == ['true'] and seen[0].cwd == '/' and seen[0].pid > 0


def test_error_after_a_start_leaves_no_child(capsys):
    def fail(context):
        raise RuntimeError('failing after the start')
    start = time.monotonic()
    rc, _ = run([ExecuteProcess(cmd=['sleep', '30'], name='started_first', output='screen'),
                 OpaqueFunction(function=fail)])
    out = capsys.readouterr().out
    assert rc == 1 and time.monotonic() - start < 10
    pids = pids_started(out)
    assert len(pids) == 1 and gone(pids[0]), out
    assert re.search(r"sending signal 'SIGINT' to process\[started_first-\d+\]", out)
