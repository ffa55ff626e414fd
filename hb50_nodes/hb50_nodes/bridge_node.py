# SPDX-License-Identifier: Apache-2.0
"""bridge_node: the simulated HB50 hardware behind the vendor's topics."""

import time
from types import SimpleNamespace
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from hb50_commons.msg import BridgeData, BridgeState, JointCommand
from node_runtime.polled import PolledSubscription
import numpy as np
from ros_wire.cdr import FixedLayout

from . import cdr, params, qos, topics
from .arrays import FloatArray
from .bridge_core import BridgeConfig, BridgeCore, Checked
from .loop_node import LoopNode
from .runtime import run, StatusReporter
from .validation import GainLimits, InvalidCommand


class LastCheck(NamedTuple):
    """The previous command's validation, reused while only its header changes."""

    body: Optional[bytes]   # the command's CDR after its header
    msg: Any                # the decoded JointCommand
    checked: Checked        # what validation made of it
    limits: GainLimits      # the limits it was checked against


class BridgeNode(LoopNode):

    def __init__(self, **kwargs: Any) -> None:
        super().__init__('bridge_node', **kwargs)
        cfg = params.declare_bridge(self)
        self.setup_loop(cfg.loop)
        self.arbiter_cfg = cfg.arbiter
        self.core = BridgeCore(cfg.bridge, cfg.sim, cfg.geo, cfg.limits, cfg.arbiter.make(),
                               time.monotonic())
        self.data_pub = self.create_publisher(BridgeData, topics.BRIDGE_DATA, qos.MAB_RT)
        self.state_pub = self.create_publisher(BridgeState, topics.BRIDGE_STATE,
                                               qos.MAB_RT)
        self.state_slow_pub = self.create_publisher(
            BridgeState, topics.BRIDGE_STATE_10HZ, qos.RELIABLE)
        self.reporter = StatusReporter(self, cfg.loop.heartbeat_rate)
        # Taken by the tick, every waiting sample in arrival order (qos.py), not by the
        # executor. Raw: the CDR bytes; cdr.py decodes them (README, "Performance": rclpy's
        # deserialization was a third of this input's cost).
        self.commands: PolledSubscription[bytes] = self.poll_subscription(
            JointCommand, topics.JOINT_COMMAND, qos.JOINT_COMMAND_READER, raw=True)
        self.joint_names = tuple(cfg.bridge.joint_names)
        self._last_check: Optional[LastCheck] = None
        self._decoder = cdr.JointCommandDecoder()
        # Compiled CDR layouts of the published messages (one struct.pack each per tick);
        # BridgeState's is rebuilt when its status strings change (status None: never built).
        self._data_layout = cdr.bridge_data_layout('imu', self.joint_names)
        self._state_layout: Tuple[Optional[Tuple[str, ...]], FixedLayout] = (
            None, cdr.bridge_state_layout(()))
        # `ros2 param set` of a run-time parameter (command limits, timeouts, arbitration
        # rate rule): checked, then applied; the others are read-only (refused).
        params.on_change(self, params.BRIDGE, self.apply_parameters)

    def apply_parameters(self, changes: Dict[str, Any]) -> None:
        """Take run-time parameters just set (already checked) into the running core."""
        with self.lock:
            core = self.core
            core.reconfigure(params.build(BridgeConfig, changes, core.cfg),
                             params.build(GainLimits, changes, core.limits))
            self.arbiter_cfg = params.build(type(self.arbiter_cfg), changes, self.arbiter_cfg)
            self.arbiter_cfg.configure(core.arbiter)
        self.get_logger().info('parameters set: ' + ', '.join(
            f'{name}={value}' for name, value in sorted(changes.items())))

    def on_command(self, raw: bytes) -> None:
        """Take one serialized JointCommand: decode, validate, then arbitrate under the lock."""
        msg: Any
        body: Optional[bytes]
        checked: Optional[Checked] = None
        if len(raw) > MAX_COMMAND_BYTES:
            # Refused on its size alone (the raw bytes), before anything is decoded.
            msg, checked = _UNDECODABLE, InvalidCommand(
                f'oversized command ({len(raw)} bytes, more than {MAX_COMMAND_BYTES})')
            body = None
        if checked is None:
            try:
                body = cdr.joint_command_body(raw)
            except cdr.CdrError as exc:
                msg, checked = _UNDECODABLE, InvalidCommand(f'undecodable command ({exc})')
        if checked is None:
            last = self._last_check
            limits = self.core.limits
            if last is not None and last.body == body and last.limits is limits:
                # The same source, names, gains and targets as the previous command (only
                # the header differs), under the same limits: the same validation result.
                msg, checked = last.msg, last.checked
            else:
                try:
                    msg = self._decoder.decode(raw)
                except cdr.CdrError as exc:
                    msg, checked = _UNDECODABLE, InvalidCommand(f'undecodable command ({exc})')
                else:
                    # Validation outside the lock: the loop thread never waits for it.
                    checked = self.core.check(msg, limits)
                    self._last_check = LastCheck(body, msg, checked, limits)
                    if not isinstance(checked, InvalidCommand):
                        self._decoder.learn(msg)    # a valid source's next ones: one unpack
        with self.lock:
            events = self.core.accept(msg, checked, time.monotonic())
        for level, text in events:
            self.reporter.report(level, text)

    def tick(self, now: float) -> None:
        # The commands that arrived since the last tick, before the step that applies them;
        # one at a time, so a flood of megabyte commands holds one of them in memory.
        for _ in range(qos.JOINT_COMMAND_DEPTH):
            raw = self.commands.take()
            if raw is None:
                break
            self.on_command(raw)
        with self.lock:
            # Stamped when the tick samples the hardware, before its computation, so the
            # stamp period does not carry the step's run-time variations.
            stamp = self.stamps.now_ns()
            events = self.core.step(now, self.period)
            data, state = self._encode(stamp)
        # Pre-serialized bytes (cdr.py): rclpy publishes them without converting a message.
        self.data_pub.publish(data)
        self.state_pub.publish(state)
        if self.slow_sample_due(now):
            self.state_slow_pub.publish(state)
        for level, text in events:
            self.reporter.report(level, text)

    def _encode(self, stamp_ns: int) -> Tuple[bytes, bytes]:
        """Return the BridgeData and BridgeState of the current tick as CDR bytes."""
        sim = self.core.sim
        sec, nanosec = divmod(stamp_ns, 1_000_000_000)
        quat, gyro, accel = sim.imu()
        temperature = sim.temperature
        # Rounded half to even (as np.rint), clamped to the uint8 range; ufuncs, not np.clip
        # (its Python wrapper costs more than the maths on 12 values).
        celsius = np.minimum(np.maximum(np.rint(temperature), 0), 255).astype(np.uint8)
        data = self._data_layout.pack(
            sec, nanosec, *quat, *gyro, *accel, _f32(sim.q), _f32(sim.dq), _f32(sim.tau),
            celsius.tobytes(), sim.status.astype('<u2', copy=False).tobytes())
        ambient = sim.cfg.ambient_temperature
        bus_v = float(sim.bus_v)
        # mean() is add.reduce / count; called directly it skips numpy's Python wrapper.
        floats = (float(sim.battery), bus_v, float(sim.bus_i), float(sim.bus_p),
                  float(sim.bus_energy_kwh), bus_v if self.core.drives_enabled else 0.0, 0.0,
                  float(ambient + 10.0 + 0.02 * sim.bus_p), float(ambient + 5.0),
                  float(np.add.reduce(temperature) / temperature.size))
        status = tuple(self.core.status_strings())
        if self._state_layout[0] != status:
            self._state_layout = (status, cdr.bridge_state_layout(status))
        state = self._state_layout[1].pack(cdr.f32_bytes(floats), self.core.drives_enabled,
                                           int(time.monotonic() - self.core.start))
        return data, state


def _f32(values: FloatArray) -> bytes:
    """Little-endian float32 bytes of a float64 array (cdr.f32_bytes without its checks)."""
    return values.astype('<f4').tobytes()


# A valid 12-joint command is under 1 KiB (source_node <= 255 characters, the configured
# names); 64 KiB leaves room for a long header frame_id. Anything larger (megabyte strings,
# 10k-entry arrays) is refused before decoding.
MAX_COMMAND_BYTES = 65536

# Stands in for the message of bytes that are not a JointCommand (only a raw publisher can
# send those): rejected and reported like any invalid command.
_UNDECODABLE = SimpleNamespace(source_node='')


def main(args: Optional[List[str]] = None) -> int:
    """Run bridge_node until SIGINT/SIGTERM."""
    return run([BridgeNode], args)


if __name__ == '__main__':
    main()
