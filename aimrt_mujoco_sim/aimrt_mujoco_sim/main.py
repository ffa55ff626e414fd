# SPDX-License-Identifier: Apache-2.0
"""
Command line of the AimRT-side MuJoCo simulator (sim_runtime.program's main() body).

Run:  ros2 run aimrt_mujoco_sim aimrt_mujoco_sim [--config FILE] [--log-level INFO]
"""

import argparse
import logging
import sys
import threading
from typing import Optional, Sequence

from sim_runtime import program
import yaml

from .config import load_config, SimConfig
from .simulator import AimrtMujocoSim

LOG = logging.getLogger('aimrt_mujoco_sim')
DESCRIPTION = "AimRT-side MuJoCo simulator: the Adam U model behind AimRT's http channel."


def _parse_args(argv: Sequence[str]) -> argparse.Namespace:
    return program.parse_args('aimrt_mujoco_sim', DESCRIPTION, argv, config_help=(
        'YAML file (share/aimrt_mujoco_sim/config/aimrt_mujoco_sim.yaml documents every key)'))


def main(argv: Optional[Sequence[str]] = None) -> int:
    """
    Run until SIGINT/SIGTERM (or --duration); return the exit status.

    node_runtime.runner's rule: 0 on a stop or at the end of --duration, 2 with one stderr
    line for a bad configuration, 1 for any other failure (a port in use).
    """
    args = _parse_args(sys.argv[1:] if argv is None else argv)
    return program.main('aimrt_mujoco_sim', lambda: _run(args))


def _build(cfg: SimConfig, stop: threading.Event) -> AimrtMujocoSim:
    return AimrtMujocoSim(cfg, stop)


def _run(args: argparse.Namespace) -> None:
    program.run_simulation(LOG, args, lambda: load_config(args.config), _build,
                           config_errors=(ValueError, TypeError, yaml.YAMLError, OSError))


if __name__ == '__main__':
    sys.exit(main())
