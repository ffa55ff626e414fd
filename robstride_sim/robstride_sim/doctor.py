# SPDX-License-Identifier: Apache-2.0
"""
`ros2 doctor` check and report of the RobStride link (entry points in setup.py).

This module runs the diagnosis and turns it into the check's findings and the report's
sections; the parts it runs are modules of their own. Two sources of work, each optional;
with neither the check is silent and the report says "not running":

- every running ``robstride_hardware_interface`` node (doctor_node_state): its parameters,
  its ``~/robstride_state`` (comm_state, faulted or disabled motors, the state rate);
- a CAN channel given as ``ROBSTRIDE_CAN=<interface>:<channel>[:<bitrate>]`` (python-can
  names, e.g. ``socketcan:can0:1000000``) with ``ROBSTRIDE_MOTOR_IDS=1,2``
  (doctor_can_config), or the channel of a running node when it is a SocketCAN one: the
  kernel's view of the interface (doctor_can_kernel) and on the bus which motor IDs answer a
  device-ID request and the age of their feedback (doctor_motor_probe).

Each finding is one line with the fix.
"""

import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, TYPE_CHECKING

from ros2doctor.api.link import DoctorLink
from ros2doctor.api.link import Finding
from ros2doctor.api.link import LinkCheck
from ros2doctor.api.link import LinkDiagnosis
from ros2doctor.api.link import LinkReport
from ros2doctor.api.link import node_parameters
from ros2doctor.api.link import nodes_named

from .doctor_can_config import CanConfig, config_from_env, ENV_CAN, ENV_IDS
from .doctor_can_kernel import (ip_link_details, kernel_findings, link_findings, LinkEntry,
                                SYS_NET, SYS_TTY)
from .doctor_motor_probe import probe_motors
from .doctor_node_state import node_findings, NODE_NAME, PARAMS, StateMeasurement

if TYPE_CHECKING:     # python-can is imported by probe_motors only
    import can

# The entry points, and the names the doctor's tests read here (re-exported).
__all__ = ['CanConfig', 'can_findings', 'diagnose', 'ENV_CAN', 'ENV_IDS', 'kernel_findings',
           'link_findings', 'PREFIX', 'RobstrideCheck', 'RobstrideReport']

PREFIX = 'RobStride'


def can_findings(config: CanConfig, open_bus: Optional[Callable[[], 'can.BusABC']] = None, *,
                 sys_net: str = SYS_NET, sys_tty: str = SYS_TTY,
                 details: Callable[[str], Optional[LinkEntry]] = ip_link_details
                 ) -> Tuple[List[Finding], Dict[str, str]]:
    """Return (findings, report items) of a CAN link: kernel state, then the motors."""
    out, items = kernel_findings(config, sys_net, sys_tty, details)
    if any(level == 'error' for level, _ in out):
        return out, items
    more, shown = probe_motors(config, open_bus)
    items.update(shown)
    return out + more, items


def diagnose(open_bus: Optional[Callable[[], 'can.BusABC']] = None,
             environ: Mapping[str, str] = os.environ) -> LinkDiagnosis:
    """Diagnose the running nodes and the configured CAN channel (see the module docstring)."""
    result = LinkDiagnosis()
    config, problem = config_from_env(environ)
    if problem:
        result.running = True
        result.findings.append(('error', problem))
    with _graph() as node:
        fqns = nodes_named(node, NODE_NAME)
        for fqn in fqns:
            result.running = True
            params = node_parameters(node, fqn, PARAMS)
            found, items = node_findings(fqn, params, StateMeasurement(
                node, fqn + '/robstride_state'))
            result.findings += found
            result.sections.append((fqn, items))
            if config is None and params and params.get('can_interface') == 'socketcan':
                more, shown = kernel_findings(CanConfig(
                    'socketcan', str(params.get('can_channel')), int(params.get('can_bitrate')
                                                                     or 0), origin=fqn))
                result.findings += more
                result.sections.append((f"socketcan {params.get('can_channel')}", shown))
    if config is not None:
        result.running = True
        found, items = can_findings(config, open_bus)
        result.findings += found
        result.sections.append((str(config), items))
    return result


def _graph() -> Any:
    from ros2doctor.api import graph_node
    return graph_node()


# The check runs the diagnosis fresh; its report, beside it, shares that run.
ROBSTRIDE = DoctorLink('robstride', diagnose, prefix=PREFIX, title='ROBSTRIDE', idle=(
    f'not running (no {NODE_NAME} node; set {ENV_CAN}=socketcan:can0 to check a bus)'))


# ros2doctor ships no type hints: to mypy these bases are Any (misc), which take no class
# keyword (call-arg); a wrong keyword fails at import (object.__init_subclass__).
class RobstrideCheck(LinkCheck, link=ROBSTRIDE):  # type: ignore[misc,call-arg,unused-ignore]
    """Check the RobStride link: CAN interface, motors answering, the node's state."""


class RobstrideReport(LinkReport, link=ROBSTRIDE):  # type: ignore[misc,call-arg,unused-ignore]
    """Report the RobStride link: per node and per CAN channel what was found."""
