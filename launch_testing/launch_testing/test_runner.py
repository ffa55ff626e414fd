# SPDX-License-Identifier: Apache-2.0
"""LaunchTestRunner: run a launch test file's launch and its tests."""

import importlib.util
import inspect
import os
import sys
import threading
import time
import types
from typing import Any, Callable, Dict, List, Optional, Tuple
import unittest

import launch
from launch.actions import RegisterEventHandler
from launch.event_handlers import OnProcessExit, OnProcessIO, OnProcessStart
from launch.events.process import ProcessStarted
from launch.launch_description_entity import LaunchDescriptionEntity

from .actions import ReadyToTest
from .io_handler import ActiveIoHandler
from .proc_info_handler import ActiveProcInfoHandler
from .ready_to_test_action_timeout import DEFAULT_TIMEOUT


class LaunchTestError(Exception):
    """A launch test file that cannot run (no generate_test_description, no ReadyToTest)."""


def load_test_module(path: str) -> types.ModuleType:
    """Import a launch test file as a module (a name of its own)."""
    name = 'launch_test_' + os.path.splitext(os.path.basename(path))[0].replace('.', '_')
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise LaunchTestError(f"cannot load '{path}'")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    if not hasattr(module, 'generate_test_description'):
        raise LaunchTestError(f"'{path}' has no generate_test_description()")
    return module


class TestRun:
    """One run of a launch test file (one parametrization)."""

    __test__ = False    # not a test class for pytest

    def __init__(self, module: types.ModuleType, params: Dict[str, Any],
                 launch_args: List[str]) -> None:
        """Create the run."""
        self.module = module
        self.params = params
        self.launch_args = launch_args
        function = module.generate_test_description
        self.name = module.__name__ + (
            '[' + ', '.join(f'{k}={v}' for k, v in params.items()) + ']' if params else '')
        self.ready_timeout = getattr(function, '__ready_to_test_action_timeout__',
                                     DEFAULT_TIMEOUT)
        self.keep_alive = 'keep_alive' in getattr(function, '__markers__', set())

    def test_cases(self, post_shutdown: bool) -> List[type]:
        """Return the module's TestCase classes of one phase."""
        return [c for c in vars(self.module).values()
                if isinstance(c, type) and issubclass(c, unittest.TestCase)
                and c.__module__ == self.module.__name__
                and bool(getattr(c, '__post_shutdown_test__', False)) == post_shutdown]


def make_runs(module: types.ModuleType, launch_args: List[str]) -> List[TestRun]:
    """Return the runs of a test module: one, or one per parametrization."""
    params = getattr(module.generate_test_description, '__parametrize__', None) or [{}]
    return [TestRun(module, p, launch_args) for p in params]


def _bind(cls: type, available: Dict[str, Any]) -> type:
    """Return a subclass of ``cls`` whose methods get their arguments from ``available``."""
    overrides: Dict[str, Callable[..., Any]] = {}
    for name in dir(cls):
        if not (name.startswith('test') or name in ('setUp', 'tearDown')):
            continue
        method = getattr(cls, name)
        if not callable(method):
            continue
        parameters = list(inspect.signature(method).parameters)[1:]
        if not parameters:
            continue
        missing = [p for p in parameters if p not in available]
        if missing:
            def fails(self: unittest.TestCase, _missing: List[str] = missing,
                      _name: str = name) -> None:
                raise TypeError(f'{_name}() asks for {", ".join(_missing)}, which the launch '
                                f'test does not provide (available: {", ".join(available)})')
            overrides[name] = fails
            continue

        def bound(self: unittest.TestCase, _method: Callable[..., Any] = method,
                  _parameters: List[str] = parameters) -> Any:
            return _method(self, **{p: available[p] for p in _parameters})
        bound.__name__ = name
        bound.__doc__ = method.__doc__
        overrides[name] = bound
    return type(cls.__name__, (cls,), overrides) if overrides else cls


def _suite(classes: List[type], available: Dict[str, Any]) -> unittest.TestSuite:
    loader = unittest.TestLoader()
    suite = unittest.TestSuite()
    for cls in classes:
        suite.addTests(loader.loadTestsFromTestCase(_bind(cls, available)))
    return suite


class LaunchTestRunner:
    """Runs the TestRuns: the launch in this (main) thread, the active tests beside it."""

    def __init__(self, test_runs: List[TestRun], launch_file_arguments: Optional[List[str]] = None,
                 debug: bool = False) -> None:
        """Create the runner."""
        self.test_runs = test_runs
        self.launch_file_arguments = launch_file_arguments or []
        self.debug = debug

    def run(self) -> Dict[TestRun, Tuple[unittest.TestResult, unittest.TestResult]]:
        """Run every TestRun; return its (active, post-shutdown) results."""
        return {run: self.run_one(run) for run in self.test_runs}

    def run_one(self, run: TestRun) -> Tuple[unittest.TestResult, unittest.TestResult]:
        """Run one TestRun."""
        function = run.module.generate_test_description
        signature = inspect.signature(function).parameters
        ready = threading.Event()
        arguments_of_description = {k: v for k, v in run.params.items() if k in signature}
        legacy_ready_fn = 'ready_fn' in signature
        if legacy_ready_fn:
            # the launch_testing API before ReadyToTest: the description calls ready_fn()
            arguments_of_description['ready_fn'] = ready.set
        returned = function(**arguments_of_description)
        extra: Dict[str, Any] = {}
        if isinstance(returned, tuple):
            description, extra = returned[0], dict(returned[1]) if len(returned) > 1 else {}
        else:
            description = returned
        if not isinstance(description, launch.LaunchDescription):
            raise LaunchTestError('generate_test_description() must return a '
                                  'LaunchDescription (and optionally a dict)')
        ready_actions = [e for e in _walk(description) if isinstance(e, ReadyToTest)]
        if not ready_actions and not legacy_ready_fn:
            raise LaunchTestError('the launch description has no '
                                  'launch_testing.actions.ReadyToTest() action')
        proc_output, proc_info = ActiveIoHandler(), ActiveProcInfoHandler()
        service = launch.LaunchService(argv=self.launch_file_arguments, debug=self.debug)
        arguments = [(a.split(':=', 1)[0], a.split(':=', 1)[1]) for a in
                     self.launch_file_arguments if ':=' in a]
        available = dict(extra, **run.params, proc_output=proc_output, proc_info=proc_info,
                         launch_service=service, test_args=dict(arguments))
        active_result = unittest.TestResult()
        launch_ended = threading.Event()

        def on_ready() -> None:
            ready.set()

        for action in ready_actions:
            action._add_callback(on_ready)

        def active_tests() -> None:
            try:
                deadline = time.monotonic() + run.ready_timeout
                while not ready.wait(0.05):
                    if launch_ended.is_set() or time.monotonic() > deadline:
                        active_result.errors.append((_Placeholder('ready_to_test'), (
                            f'ReadyToTest was not executed within {run.ready_timeout} s')))
                        return
                _suite(run.test_cases(post_shutdown=False), available).run(active_result)
            finally:
                _let_exiting_processes_exit(proc_info)
                service.shutdown()

        service.include_launch_description(launch.LaunchDescription([
            RegisterEventHandler(OnProcessIO(on_stdout=proc_output.track,
                                             on_stderr=proc_output.track)),
            RegisterEventHandler(OnProcessStart(
                on_start=lambda event, context: proc_info.track(event))),
            RegisterEventHandler(OnProcessExit(
                on_exit=lambda event, context: proc_info.track(event))),
            launch.actions.IncludeLaunchDescription(
                launch.LaunchDescriptionSource(description), launch_arguments=arguments),
        ]))
        thread = threading.Thread(target=active_tests, name='launch_test', daemon=True)
        thread.start()
        launch_rc = service.run(shutdown_when_idle=not run.keep_alive)
        launch_ended.set()
        thread.join()
        post_result = unittest.TestResult()
        _suite(run.test_cases(post_shutdown=True), available).run(post_result)
        if launch_rc != 0:
            post_result.errors.append((_Placeholder('launch'), (
                f'the launch ended with exit code {launch_rc}')))
        return active_result, post_result


def _let_exiting_processes_exit(proc_info: ActiveProcInfoHandler, grace: float = 0.3) -> None:
    """
    Give processes that are ending by themselves a moment before the shutdown's SIGINT.

    A test that saw the last line of a process (``echo hello``) would otherwise often beat
    the process's own exit, and the SIGINT would turn its exit code 0 into -2.
    """
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        if not any(isinstance(e, ProcessStarted) for e in proc_info):
            return
        time.sleep(0.02)


class _Placeholder(unittest.TestCase):
    """Stands for a failure outside of the test methods (ready timeout, launch error)."""

    def __init__(self, what: str) -> None:
        super().__init__()
        self._what = what

    def runTest(self) -> None:  # noqa: N802 - unittest's name
        """Do nothing."""

    def id(self) -> str:  # noqa: A003 - unittest's name
        """Return the name of what failed."""
        return f'launch_testing.{self._what}'

    def __str__(self) -> str:
        """Return the name of what failed."""
        return self.id()


def _walk(entity: LaunchDescriptionEntity) -> List[LaunchDescriptionEntity]:
    found = [entity]
    for sub in entity.describe_sub_entities():
        found.extend(_walk(sub))
    for _, subs in entity.describe_conditional_sub_entities():
        for sub in subs:
            found.extend(_walk(sub))
    return found
