# SPDX-License-Identifier: Apache-2.0
"""
foxglove_server's own parameters (declared through node_runtime.parameters) and what follows.

PARAMETERS is the node's parameter table; the regex lists become compiled patterns
(`patterns`), and `offered_capabilities` turns `capabilities`, `read_only` and use_sim_time
into the capabilities advertised. (The parameters *capability*, through which a client
reads and sets every node's parameters, is parameters.py.)
"""

import re
from typing import Any, Iterable, List, Mapping, Pattern

from node_runtime import parameters

from . import protocol

# foxglove_bridge's: meshes, textures and robot descriptions of installed packages.
DEFAULT_ASSET_ALLOWLIST = (
    r'^package://(?:[-\w%]+/)*[-\w%.]+\.(?:dae|fbx|glb|gltf|jpeg|jpg|mtl|obj|png|stl|tif|'
    r'tiff|urdf|webp|xacro)$',)
EVERYTHING = ('.*',)
P = parameters.Parameter
PARAMETERS = (
    P('port', 8765, 'WebSocket port (0: any free port)', value_range=(0, 65535)),
    P('address', '127.0.0.1', 'address to bind (0.0.0.0: every interface; exposes the '
      'robot to the network)'),
    P('host', '', 'deprecated alias of address (wins when set)'),
    P('topic_whitelist', EVERYTHING, 'regexes of the topics streamed'),
    P('client_topic_whitelist', EVERYTHING, 'regexes of the topics a client may publish on'),
    P('service_whitelist', EVERYTHING, 'regexes of the services offered (full names)'),
    P('service_call_whitelist', EVERYTHING,
      'regexes of the offered services a client may call (full names)'),
    P('param_whitelist', EVERYTHING, 'regexes of the parameters offered, /node_name.param'),
    P('param_write_whitelist', EVERYTHING,
      'regexes of the offered parameters a client may set, /node_name.param'),
    P('read_only', False, 'offer no capability through which a client changes the robot '
      '(clientPublish, parameters, services)'),
    P('include_hidden', False, 'also stream topics and services with a _ name component'),
    P('max_qos_depth', 25, 'largest subscription/publisher history depth',
      value_range=(1, 10000)),
    P('capabilities', protocol.CAPABILITIES,
      'capabilities offered (time only with use_sim_time)', choices=protocol.CAPABILITIES),
    P('asset_uri_allowlist', DEFAULT_ASSET_ALLOWLIST,
      'regexes of the package:// and file:// URIs served as assets'),
    P('max_client_message_bytes', 1 << 20, 'largest client message published [bytes]',
      value_range=(1, 1 << 28)),
    P('call_timeout_s', 2.0, 'longest wait for a node to answer a parameter or service '
      'call made for a client [s]', value_range=(0.05, 60.0)),
)

Patterns = List[Pattern[str]]


def patterns(values: Mapping[str, Any], name: str) -> Patterns:
    """Compile the regexes of parameter `name`; a bad one is a ValueError naming it."""
    try:
        return [re.compile(p) for p in values[name]]
    except re.error as exc:
        raise ValueError(f'{name}: bad regex: {exc}') from None


def allowed(regexes: Patterns, name: str) -> bool:
    """Return whether one of `regexes` matches all of `name`."""
    return any(r.fullmatch(name) for r in regexes)


def hidden(name: str) -> bool:
    """Return whether a name component starts with _ (hidden topics, services, nodes)."""
    return any(p.startswith('_') for p in name.split('/'))


def offered_capabilities(wanted: Iterable[str], read_only: bool,
                         use_sim_time: bool) -> List[str]:
    """
    Return the capabilities advertised, in the protocol's order.

    read_only leaves out every writing capability; parametersSubscribe needs parameters;
    time only with sim time, as foxglove_bridge: an app that sees `time` stamps every
    message with the server's clock, so advertising it without sending one freezes the
    app's clock at zero.
    """
    caps = set(wanted)
    if read_only:
        caps -= set(protocol.WRITING_CAPABILITIES)
    if protocol.PARAMETERS not in caps:
        caps.discard(protocol.PARAMETERS_SUBSCRIBE)
    if not use_sim_time:
        caps.discard(protocol.TIME)
    return [c for c in protocol.CAPABILITIES if c in caps]
