# SPDX-License-Identifier: Apache-2.0
"""
node_runtime.runner: the exit-code rule, the ordered teardown, one thread for ticks and topics.

Each case starts a launcher like the workspace's (`stop.launch`) on a small target module
whose main() is run_nodes()/run_program() over test nodes, in a subprocess on its own
domain, and checks the exit status, stderr and the teardown order the nodes print.
"""

import os
import re
import signal
import subprocess
import sys
import textwrap
import time

import node_runtime
from node_runtime import runner
import pytest
import workspace_testing
from workspace_testing.domain import allocate_domain, release_domain

PACKAGE_ROOT = os.path.dirname(os.path.dirname(node_runtime.__file__))

LAUNCHER = textwrap.dedent("""\
    import _signal

    EARLY = []
    _signal.signal(_signal.SIGINT, lambda signum, frame: EARLY.append(signum))
    _signal.signal(_signal.SIGTERM, lambda signum, frame: EARLY.append(signum))
    from node_runtime.stop import launch  # noqa: E402

    launch('runner_target')
    """)

TARGET = textwrap.dedent("""\
    import sys

    from node_runtime import runner, stop
    from node_runtime.loop import DeadlineLoop
    from rclpy.node import Node
    from std_msgs.msg import UInt32

    MODE = sys.argv[1]


    class Echo(Node):
        # Ticks at 100 Hz in the runner's loop, publishes the count and receives it back.
        runs_in_loop = True
        period = 0.01

        def __init__(self):
            super().__init__('echo')
            self.ticks = self.received = 0
            self.done = False
            self.pub = self.create_publisher(UInt32, 'runner_count', 10)
            self.create_subscription(UInt32, 'runner_count', self.on_count, 10)

        def tick(self, deadline):
            self.ticks += 1
            self.pub.publish(UInt32(data=self.ticks))

        def on_count(self, msg):
            self.received += 1
            if MODE == 'done' and self.received >= 20:
                self.done = True

        def start(self):
            print('started', flush=True)

        def stop(self):
            print('stop', flush=True)

        def close(self):
            print(f'close ticks={self.ticks} received={self.received}', flush=True)

        def destroy_node(self):
            print('destroy', flush=True)
            super().destroy_node()


    class Failing(Node):
        def __init__(self):
            super().__init__('failing')
            self.create_timer(0.05, self.fail)

        def fail(self):
            raise RuntimeError('the bus went away')


    def bad_parameter():
        raise ValueError("parameter 'rate': -5.0 is outside [1, 2000]")


    def program():
        if MODE == 'program_bad':
            raise runner.ConfigError("rate_hz must be > 0, got -1")
        loop = DeadlineLoop(0.01, lambda deadline: None)
        print('running', flush=True)
        loop.run(runner.StopWait(stop.event()), lambda: not stop.requested())
        print(f'program ticks={loop.ticks}', flush=True)


    def command(session):
        # A CLI's body: its node, torn down by the session; a status of the tool's own.
        import rclpy
        node = session.add_node(Echo() if MODE == 'command_stop' else rclpy.create_node(
            'command', context=session.context))
        print(f'command {node.get_name()} ok={session.context.ok()}', flush=True)
        if MODE == 'command_failure':
            raise RuntimeError('no answer from the drive')
        while MODE == 'command_stop' and not stop.requested():
            stop.event().wait(0.05)
        return 0 if MODE == 'command_stop' else 3


    def main():
        ros_args = sys.argv[2:]
        if MODE.startswith('program'):
            return runner.run_program(program)
        if MODE.startswith('command'):
            code = runner.run_command(command, ['runner_target'] + ros_args)
            import rclpy
            print(f'context ok={rclpy.ok()}', flush=True)
            return code
        factories = {'done': [Echo], 'spin': [Echo], 'bad_parameter': [Echo, bad_parameter],
                     'bad_arguments': [Echo], 'failure': [Failing]}[MODE]
        return runner.run_nodes(factories, ['runner_target'] + ros_args)
    """)


@pytest.fixture(scope='module')
def domain_id():
    """Return a ROS_DOMAIN_ID of this module's own."""
    domain = allocate_domain()
    yield domain
    release_domain(domain)


def _start(tmp_path, domain_id, *args, env=None):
    (tmp_path / 'runner_target.py').write_text(TARGET)
    (tmp_path / 'launcher').write_text(LAUNCHER)
    env = dict(os.environ, **(env or {}), ROS_DOMAIN_ID=str(domain_id),
               PYTHONPATH=os.pathsep.join([str(tmp_path), PACKAGE_ROOT,
                                           os.environ.get('PYTHONPATH', '')]))
    return workspace_testing.start([sys.executable, str(tmp_path / 'launcher'), *args],
                                   env=env, separate_stderr=True)


def _to_exit(proc, timeout=60.0):
    try:
        proc.wait(timeout)
    finally:
        result = workspace_testing.stop(proc)
    assert result.signal is None, f'did not exit by itself: {result.output} {proc.errors()}'
    # A loaded machine stalls the loop now and then: its one warning at exit is no error.
    err = ''.join(line for line in proc.errors().splitlines(keepends=True)
                  if 'ticks skipped' not in line)
    return result.returncode, result.output, err


def test_periodic_node_and_its_subscription_share_the_thread_until_done(tmp_path, domain_id):
    code, out, err = _to_exit(_start(tmp_path, domain_id, 'done'))
    assert (code, err) == (0, ''), (out, err)
    lines = out.split()
    # The teardown order: stop, close, destroy; the loop ticked and the callbacks ran.
    assert [w for w in lines if w in ('stop', 'destroy')] == ['stop', 'destroy'], out
    close = next(line for line in out.splitlines() if line.startswith('close'))
    ticks, received = (int(part.split('=')[1]) for part in close.split()[1:])
    assert ticks >= received >= 20, close
    assert out.index('stop') < out.index('close') < out.index('destroy'), out


@pytest.mark.parametrize('sig', [signal.SIGINT, signal.SIGTERM])
def test_a_stop_while_spinning_exits_0_after_the_teardown(tmp_path, domain_id, sig):
    proc = _start(tmp_path, domain_id, 'spin')
    try:
        # In the executor (the runner called start()), then a few periods of spinning.
        assert proc.wait_for_output(re.compile('^started', re.MULTILINE), 60), proc.output()
        time.sleep(0.2)
        proc.send_signal(sig)
    finally:
        code, out, err = _to_exit(proc)
    assert (code, err) == (0, ''), (out, err)
    assert 'close ticks=' in out and out.rstrip().endswith('destroy'), out


def test_a_bad_parameter_exits_2_with_one_line(tmp_path, domain_id):
    code, out, err = _to_exit(_start(tmp_path, domain_id, 'bad_parameter'))
    assert code == runner.EXIT_CONFIG, (out, err)
    assert err.splitlines() == [
        "launcher: configuration error: parameter 'rate': -5.0 is outside [1, 2000]"], err
    # The node built before the bad one is torn down all the same.
    assert 'destroy' in out and 'Traceback' not in out + err, out


def test_a_bad_ros_argument_exits_2(tmp_path, domain_id):
    code, out, err = _to_exit(_start(tmp_path, domain_id, 'bad_arguments', '--ros-args',
                                     '-p', 'no_value'))
    assert code == runner.EXIT_CONFIG, (out, err)
    # rcl logs its own lines first; ours is the last, without rcl's source positions.
    last = err.splitlines()[-1]
    assert last.startswith('launcher: configuration error: ') and '-p no_value' in last, err
    assert '/src/' not in last and 'Traceback' not in out + err, err


@pytest.mark.parametrize('debug', [False, True])
def test_a_runtime_failure_exits_1_with_one_line(tmp_path, domain_id, debug):
    env = {runner.DEBUG_ENV: '1'} if debug else {runner.DEBUG_ENV: ''}
    code, out, err = _to_exit(_start(tmp_path, domain_id, 'failure', env=env))
    assert code == runner.EXIT_FAILURE, (out, err)
    assert 'launcher: error: the bus went away' in err.splitlines(), err
    if debug:
        assert 'Traceback' in err, err
    else:
        assert err.splitlines() == ['launcher: error: the bus went away'], err


def test_a_program_without_ros_stops_on_a_signal_and_reports_a_bad_config(tmp_path,
                                                                          domain_id):
    code, out, err = _to_exit(_start(tmp_path, domain_id, 'program_bad'))
    assert (code, err.splitlines()) == (
        2, ['launcher: configuration error: rate_hz must be > 0, got -1']), (out, err)
    proc = _start(tmp_path, domain_id, 'program')
    try:
        assert proc.wait_for_output(re.compile('^running', re.MULTILINE), 60), proc.output()
        time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
    finally:
        code, out, err = _to_exit(proc)
    assert (code, err) == (0, ''), (out, err)
    assert int(out.split('program ticks=')[1].split()[0]) > 0, out


def test_a_command_gets_its_status_and_its_teardown(tmp_path, domain_id):
    code, out, err = _to_exit(_start(tmp_path, domain_id, 'command'))
    assert (code, err) == (3, ''), (out, err)
    assert out.split() == ['command', 'command', 'ok=True', 'context', 'ok=False'], out


def test_a_command_stops_on_a_signal_and_tears_down(tmp_path, domain_id):
    proc = _start(tmp_path, domain_id, 'command_stop')
    try:
        assert proc.wait_for_output(re.compile('^command echo', re.MULTILINE), 60), \
            proc.output()
        proc.send_signal(signal.SIGINT)
    finally:
        code, out, err = _to_exit(proc)
    assert (code, err) == (0, ''), (out, err)
    # The session's teardown: the node's stop and close hooks, destroy, then the context.
    assert out.index('stop') < out.index('close') < out.index('destroy') \
        < out.index('context ok=False'), out


def test_a_command_failure_and_a_bad_ros_argument_give_one_line(tmp_path, domain_id):
    code, out, err = _to_exit(_start(tmp_path, domain_id, 'command_failure'))
    assert (code, err.splitlines()) == (
        1, ['launcher: error: no answer from the drive']), (out, err)
    assert 'context ok=False' in out, out
    code, out, err = _to_exit(_start(tmp_path, domain_id, 'command', '--ros-args', '-p',
                                     'no_value'))
    assert code == runner.EXIT_CONFIG and 'ok=True' not in out, (out, err)
    assert err.splitlines()[-1].startswith('launcher: configuration error: '), err


def test_a_session_borrows_an_initialised_context():
    import rclpy
    context = rclpy.Context()
    runner.init_rclpy([], context)
    try:
        with runner.RosSession(context=context) as session:
            node = session.add_node(rclpy.create_node('borrowed', context=context))
            assert session.context is context
        assert context.ok()     # left running for its owner
        from rclpy._rclpy_pybind11 import InvalidHandle
        with pytest.raises(InvalidHandle):
            node.get_node_names()   # destroyed by the session
    finally:
        context.try_shutdown()
    own = rclpy.Context()
    with runner.RosSession([], context=own) as session:
        assert own.ok() and session.context is own
    assert not own.ok()         # a context the session initialised is shut down


CALLER_LOOKUP_PROBE = textwrap.dedent("""
    import inspect
    import sys

    import numpy  # noqa: F401 - a realistic number of loaded modules
    from node_runtime import runner

    if sys.argv[1] == 'warm':
        runner.warm_log_caller_lookup()
    mapped = []
    real = inspect.getabsfile
    inspect.getabsfile = lambda obj, _filename=None: (mapped.append(obj), real(obj))[1]
    inspect.getframeinfo(sys._getframe())   # what rclpy's logger does for its caller
    print(len(mapped))
""")


@pytest.mark.parametrize('warm', [True, False])
def test_the_loggers_caller_lookup_is_paid_before_the_loop(tmp_path, warm):
    # rclpy's logger calls inspect.getframeinfo on every log call; the first one maps every
    # loaded module to its file. spin() pays that before its loop starts, so the first log
    # line of a 500 Hz node (a rejected command) maps no module inside the loop.
    probe = tmp_path / 'probe.py'
    probe.write_text(CALLER_LOOKUP_PROBE)
    out = subprocess.run([sys.executable, str(probe), 'warm' if warm else 'cold'],
                         capture_output=True, text=True, timeout=60, check=True)
    mapped = int(out.stdout.strip())
    if warm:
        assert mapped == 0, out.stdout
    else:
        assert mapped > 50, out.stdout     # what the warm-up saves: one file lookup per module
