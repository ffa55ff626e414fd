# SPDX-License-Identifier: Apache-2.0
"""
Pieces the benchmark scripts share, so that each stands once.

- the command line: select_cases() (the --cases list, checked) and set_up_domain() (the
  ROS_DOMAIN_ID: a free one, or the one given, localhost-only);
- the dated header line: utc_minute() and machine();
- spinning an rclpy executor: spin_until(), spin_then_close() and spin_in_thread();
- the bare paced loop most floors are measured against: deadline_loop();
- the environment and `ros2` of the ros2cli_py benchmarks: ros2cli_py_env();
- robstride_sim_node's parameters file for n RS03 joints: params_file().

CPU and load sampling lives in _cpu_sampling.py. rclpy and workspace_testing are imported in
the functions that use them, so that importing this module reads no ROS environment.
"""

import argparse
import datetime
import os
import platform
import threading
import time
from typing import Any, Callable, Collection, Dict, List, Optional, Tuple


# --- command line ----------------------------------------------------------------------------

def select_cases(parser: argparse.ArgumentParser, text: str,
                 known: Collection[str]) -> List[str]:
    """Return the cases of the comma-separated `text`; parser.error() on an unknown one."""
    cases = [c for c in text.split(',') if c]
    unknown = set(cases) - set(known)
    if unknown:
        parser.error(f'unknown cases: {", ".join(sorted(unknown))}')
    return cases


def set_up_domain(domain: Optional[int]) -> int:
    """
    Set this process's ROS domain and return it.

    With None: a free domain from workspace_testing (wt.isolate()); else `domain`, with the
    localhost-only environment of workspace_testing put in os.environ.
    """
    import workspace_testing as wt
    if domain is None:
        free: int = wt.isolate()
        return free
    os.environ.update(wt.localhost_env(domain, {}))
    return domain


# --- the header line -------------------------------------------------------------------------

def utc_minute() -> str:
    """Return the time now as 'YYYY-MM-DD HH:MM UTC'."""
    return datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')


def machine() -> str:
    """Return the host, CPUs and platform."""
    model = ''
    try:
        with open('/proc/cpuinfo', encoding='utf-8') as f:
            model = next((line.split(':', 1)[1].strip() for line in f
                          if line.startswith('model name')), '')
    except OSError:
        pass
    return f'{platform.node()}, {os.cpu_count()} CPUs {model}, {platform.platform()}'


# --- spinning an executor --------------------------------------------------------------------

def until(seconds: float) -> Callable[[], bool]:
    """Return a stop test that is true once `seconds` have passed from now (monotonic)."""
    end = time.monotonic() + seconds
    return lambda: time.monotonic() >= end


def spin_until(executor: Any, stop: Callable[[], bool], timeout_sec: float) -> None:
    """
    Spin `executor` one callback at a time until stop() is true.

    Every spin_once waits at most `timeout_sec` (an EventsExecutor must always get a timeout),
    which is also how long stop() may be true before it is seen.
    """
    while not stop():
        executor.spin_once(timeout_sec=timeout_sec)


def spin_then_close(executor: Any, node: Any, stop: Callable[[], bool],
                    timeout_sec: float) -> None:
    """spin_until(), then (even on an error) shut the executor, the node and rclpy down."""
    import rclpy
    try:
        spin_until(executor, stop, timeout_sec)
    finally:
        executor.shutdown(timeout_sec=1.0)
        node.destroy_node()
        rclpy.try_shutdown()


def spin_in_thread(executor: Any,
                   timeout_sec: float) -> Tuple[threading.Event, threading.Thread]:
    """
    Spin `executor` in a started daemon thread until the returned Event is set.

    Return (stop, thread): set stop, then join thread (at most `timeout_sec` later).
    """
    stop = threading.Event()
    thread = threading.Thread(target=spin_until, args=(executor, stop.is_set, timeout_sec),
                              daemon=True)
    thread.start()
    return stop, thread


# --- the paced-loop floor ---------------------------------------------------------------------

def deadline_loop(period: float, seconds: float) -> Tuple[int, float]:
    """
    Sleep to the next deadline every `period` s for `seconds` s, doing nothing else.

    Return (ticks, t0): the ticks counted (the one that saw the time up included) and the
    time.monotonic() it started at.
    """
    t0 = time.monotonic()
    deadline, ticks = t0, 0
    while True:
        ticks += 1
        deadline += period
        now = time.monotonic()
        if now - t0 >= seconds:
            return ticks, t0
        if deadline > now:
            time.sleep(deadline - now)


# --- ros2cli_py ------------------------------------------------------------------------------

def ros2cli_py_env(domain: Optional[int]) -> Tuple[int, Dict[str, str], str]:
    """
    Return (domain, env, ros2): this environment on `domain` and ros2cli_py's `ros2`.

    The domain is a free one from workspace_testing (allocate_domain(), held) when None;
    discovery stays on localhost and ros2cli_py does not delegate to the stock ros2cli.
    """
    from ament_index_python.packages import get_package_prefix
    import workspace_testing as wt
    if domain is None:
        domain = int(wt.allocate_domain())
    env = dict(os.environ, ROS_DOMAIN_ID=str(domain), ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST',
               ROS2CLI_PY_NO_DELEGATE='1')
    ros2 = os.path.join(get_package_prefix('ros2cli_py'), 'bin', 'ros2')
    return domain, env, ros2


# --- robstride_sim_node ----------------------------------------------------------------------

def params_file(n: int, folder: str) -> str:
    """Write robstride_sim_node's parameters for n RS03 joints to `folder`; return the path."""
    path = os.path.join(folder, f'rs_{n}.yaml')
    names = ', '.join(f'joint_{i + 1}' for i in range(n))
    with open(path, 'w', encoding='utf-8') as f:
        f.write('/**/robstride_hardware_interface:\n  ros__parameters:\n'
                f'    joint_names: [{names}]\n'
                f'    can_ids: {list(range(1, n + 1))}\n'
                f'    models: [{", ".join(["RS03"] * n)}]\n'
                f'    directions: {[1] * n}\n'
                f'    kp: {[50.0] * n}\n'
                f'    kd: {[2.0] * n}\n')
    return path
