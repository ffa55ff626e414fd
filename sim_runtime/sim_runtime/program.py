# SPDX-License-Identifier: Apache-2.0
"""
The one main() body of the simulators: command line, start-up, the loop, teardown.

    def main(argv=None):
        args = program.parse_args('my_sim', 'My simulator.', argv)
        return program.main('my_sim', lambda: program.run_simulation(
            LOG, args, configure=lambda: load_config(args.config),
            build=lambda cfg, stop: MySimulation(cfg, stop),
            config_errors=(ValueError, yaml.YAMLError)))

The exit-code rule is node_runtime.runner's: 0 on SIGINT/SIGTERM or at the end of
--duration, 2 with one stderr line for a bad configuration, 1 for any other failure (a port
in use). A stop requested during start-up ends it before the simulation is built.
"""

import argparse
import logging
import sys
import threading
from typing import Callable, Optional, Protocol, Sequence, TypeVar

from node_runtime import runner, stop as stop_request

Config = TypeVar('Config')
AddArguments = Callable[[argparse.ArgumentParser], None]
LOG_FORMAT = '[%(name)s] %(levelname)s: %(message)s'


class Simulation(Protocol):
    """What run_simulation drives: a simulator built from its configuration."""

    def start(self) -> None:
        """Start what runs beside the loop (threads); the loop itself runs in run()."""

    def running(self) -> str:
        """Return the 'running: ...' line logged once the simulation has started."""

    def run(self, duration: Optional[float]) -> None:
        """Tick until the stop request, or for `duration` seconds (simulated) if given."""

    def finish(self) -> str:
        """Tear down (always called once) and return the 'stopped after ...' summary line."""


def parse_args(prog: str, description: str, argv: Optional[Sequence[str]] = None,
               add_arguments: Optional[AddArguments] = None,
               config_help: str = 'YAML file') -> argparse.Namespace:
    """
    Parse --config, --duration, --log-level and what add_arguments adds.

    argv None means sys.argv[1:]; "--ros-args ..." (launch_ros appends it to every
    executable it starts) and what follows are dropped: they mean nothing here.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if '--ros-args' in args:
        args = args[:args.index('--ros-args')]
    p = argparse.ArgumentParser(prog=prog, description=description)
    p.add_argument('--config', help=config_help)
    if add_arguments is not None:
        add_arguments(p)
    p.add_argument('--duration', type=float, help='stop after this many simulated seconds')
    p.add_argument('--log-level', default='INFO')
    return p.parse_args(args)


def main(prog: str, run: Callable[[], None]) -> int:
    """Run `run` under node_runtime.runner's exit-code rule; return the exit status."""
    return runner.run_program(run, prog=prog)


def run_simulation(log: logging.Logger, args: argparse.Namespace,
                   configure: Callable[[], Config],
                   build: Callable[[Config, threading.Event], Simulation],
                   config_errors: tuple[type[BaseException], ...]) -> None:
    """
    Configure, build, start, run and finish one simulation (the body of main()).

    configure() reads the configuration; build(config, stop) makes the simulation, which
    runs until the stop event is set. Exceptions of config_errors from either are a bad
    configuration (runner.ConfigError: one line, exit 2), except an OSError without a file
    name (a socket that cannot be bound): a failure, not the configuration. Logging goes to
    stderr at args.log_level; the 'running' line is flushed before the loop starts.
    """
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr, format=LOG_FORMAT)
    try:
        config = configure()
        if stop_request.requested():    # stopped during start-up: nothing was created yet
            return
        sim = build(config, stop_request.event())
    except config_errors as e:
        if isinstance(e, OSError) and e.filename is None:
            raise
        raise runner.ConfigError(e) from None
    try:
        sim.start()
        log.info('%s', sim.running())
        for h in logging.getLogger().handlers:
            h.flush()
        sim.run(args.duration)
    finally:
        log.info('%s', sim.finish())
