# SPDX-License-Identifier: Apache-2.0
"""A simulation without physics for test_program: run by sim_runtime.program in a child."""

import logging
import os
import sys

from sim_runtime import program

LOG = logging.getLogger('fake_sim')


class FakeSimulation:
    """Ticks (counts) until the stop event; fails to build if FAKE_SIM_FAIL says so."""

    def __init__(self, config, stop):
        if os.environ.get('FAKE_SIM_FAIL') == 'bind':
            raise OSError(98, 'Address already in use')
        self.stop, self.ticks, self.started = stop, 0, False

    def start(self):
        self.started = True

    def running(self):
        return f'running: fake, config {self.config_name()}'

    def config_name(self):
        return 'none'

    def run(self, duration):
        ticks = None if duration is None else round(duration / 0.01)
        while not self.stop.wait(0.01):
            self.ticks += 1
            if ticks is not None and self.ticks >= ticks:
                return

    def finish(self):
        return f'stopped after {self.ticks} ticks (started {self.started})'


def configure(path):
    if path == 'bad':
        raise ValueError('bad: not a configuration')
    return {}


def main(argv=None):
    args = program.parse_args('fake_sim', 'A fake simulation.', argv)
    return program.main('fake_sim', lambda: program.run_simulation(
        LOG, args, lambda: configure(args.config), FakeSimulation,
        config_errors=(ValueError, OSError)))


if __name__ == '__main__':
    sys.exit(main())
