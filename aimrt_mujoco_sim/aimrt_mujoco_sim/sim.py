# SPDX-License-Identifier: Apache-2.0
"""
AimRT-side MuJoCo simulator: the Adam U model behind AimRT's http channel.

Like AimRT's Aimrt_Mujoco_Sim module it publishes JointState, ImuState and TouchState and
subscribes to JointCommand, here over the http channel backend's wire protocol
(POST /channel/{topic}/{type}, application/protobuf or application/json), so
aimrt_bridge + a ROS 2 controller drive a simulated robot without any AimRT install.

One thread runs the loop and the JointCommand server: the server's event loop is not given a
thread of its own; each tick first makes one pass of it without waiting, which reads every
POST waiting on its connections, answers it and applies the valid commands in arrival order
(issue 40: no wake-up and no thread hand-off per message; a command is applied at the same
tick as before, its answer comes at that tick). Between ticks the loop sleeps.

Run:  ros2 run aimrt_mujoco_sim aimrt_mujoco_sim [--config FILE] [--log-level INFO]
"""

import argparse
from dataclasses import dataclass, field, fields
import logging
import math
import queue
import sys
import threading
import time

from node_runtime import runner, stop as stop_request
from node_runtime.loop import DeadlineLoop
import numpy as np
import yaml

LOG = logging.getLogger('aimrt_mujoco_sim')


@dataclass
class SimConfig:
    """Every setting with its default (config/aimrt_mujoco_sim.yaml documents them)."""

    rate_hz: float = 500.0              # physics: one MuJoCo step of 1/rate_hz per tick
    publish_rate_hz: float = 100.0      # state POSTs per second (each topic)
    base: str = 'floating'              # 'floating': stand on 4 pads; 'fixed': welded
    # JointCommand subscriber (AimRT http channel server). aimrt_bridge POSTs commands to
    # its command_addresses, 127.0.0.1:50081 by default.
    listen_host: str = '127.0.0.1'
    listen_port: int = 50081
    command_topic: str = 'joint_command'
    # State publisher: every ip:port gets every state message (aimrt_bridge: 50080).
    state_addresses: list = field(default_factory=lambda: ['127.0.0.1:50080'])
    joint_state_topic: str = 'joint_state'
    imu_topic: str = 'imu_state'
    touch_topic: str = 'touch_state'
    # AimRT >= 0.10 names: pb:aimrt.protocols.sensor.JointStateArray, ...TouchSensorStateArray
    joint_state_type: str = 'pb:aimrt.protocols.sensor.JointState'
    imu_type: str = 'pb:aimrt.protocols.sensor.ImuState'
    touch_type: str = 'pb:aimrt.protocols.sensor.TouchState'
    serialization: str = 'pb'           # 'pb' or 'json'
    http_timeout_sec: float = 0.5       # connect/read timeout of each state POST
    # No valid JointCommand for this long (s of simulated time; also before the first):
    # every joint in safe damping (stiffness 0, damping damping_kd, effort 0).
    command_timeout: float = 0.5
    damping_kd: float = 1.0
    frame_id: str = 'pelvis'


def load_config(path=None):
    """Return the SimConfig of the defaults and an optional YAML file; ValueError if invalid."""
    data = {}
    if path:
        with open(path, encoding='utf-8') as f:
            data = yaml.safe_load(f) or {}
        if not isinstance(data, dict):
            raise ValueError(f'{path}: expected a mapping')
    known = {f.name for f in fields(SimConfig)}
    unknown = set(data) - known
    if unknown:
        raise ValueError(f'unknown keys: {sorted(unknown)}')
    cfg = SimConfig(**data)
    if not cfg.rate_hz > 0 or not 0 < cfg.publish_rate_hz <= cfg.rate_hz:
        raise ValueError('need rate_hz > 0 and 0 < publish_rate_hz <= rate_hz')
    if cfg.serialization not in ('pb', 'json'):
        raise ValueError("serialization must be 'pb' or 'json'")
    if cfg.base not in ('fixed', 'floating'):
        raise ValueError("base must be 'fixed' or 'floating'")
    if not cfg.command_timeout > 0 or not cfg.damping_kd >= 0 or not cfg.http_timeout_sec > 0:
        raise ValueError('need command_timeout > 0, damping_kd >= 0, http_timeout_sec > 0')
    if not isinstance(cfg.state_addresses, list):
        raise ValueError('state_addresses must be a list of ip:port')
    return cfg


class CommandError(ValueError):
    """A JointCommand that must not reach the actuators (HTTP 422)."""


class JointTargets:
    """Per-joint PD targets set by JointCommand (by joint name), with the command timeout."""

    def __init__(self, limits, command_timeout, damping_kd):
        from pnd_adam_description.joints import KD_MAX, KP_MAX
        self.limits = {lim.name: (i, lim) for i, lim in enumerate(limits)}
        self.kp_max, self.kd_max = KP_MAX, KD_MAX
        n = len(limits)
        self.q = np.zeros(n)
        self.dq = np.zeros(n)
        self.tau = np.zeros(n)
        self.timeout = command_timeout
        self.damping = np.full(n, float(damping_kd))
        # A joint no command has named yet stays in safe damping.
        self.kp = np.zeros(n)
        self.kd = self.damping.copy()
        self.last_time = None
        self.lock = threading.Lock()
        self.accepted = 0

    def check(self, msg):
        """[(index, values)] of a JointCommand; CommandError unless every entry is valid."""
        if not msg.joints:
            raise CommandError('JointCommand has no joints')
        out, seen = [], set()
        for j in msg.joints:
            if j.name not in self.limits:
                raise CommandError(f'unknown joint {j.name!r}')
            if j.name in seen:
                raise CommandError(f'joint {j.name!r} twice')
            seen.add(j.name)
            i, lim = self.limits[j.name]
            values = (j.position, j.velocity, j.effort, j.stiffness, j.damping)
            if not all(math.isfinite(v) for v in values):
                raise CommandError(f'{j.name}: non-finite value')
            tol = 1e-9
            if not lim.q_min - tol <= j.position <= lim.q_max + tol:
                raise CommandError(f'{j.name}: position {j.position:g} outside '
                                   f'[{lim.q_min:g}, {lim.q_max:g}]')
            if abs(j.velocity) > lim.dq_max + tol or abs(j.effort) > lim.tau_max + tol:
                raise CommandError(f'{j.name}: velocity or effort beyond '
                                   f'{lim.dq_max:g} rad/s / {lim.tau_max:g} N*m')
            if not (0 <= j.stiffness <= self.kp_max and 0 <= j.damping <= self.kd_max):
                raise CommandError(f'{j.name}: stiffness/damping outside [0, {self.kp_max:g}]'
                                   f' / [0, {self.kd_max:g}]')
            out.append((i, values))
        return out

    def apply(self, entries, now):
        with self.lock:
            for i, (q, dq, tau, kp, kd) in entries:
                self.q[i], self.dq[i], self.tau[i], self.kp[i], self.kd[i] = q, dq, tau, kp, kd
            self.last_time = now
            self.accepted += 1

    def law(self, now):
        """(kp, kd, q, dq, tau, timed_out) for the next physics step at sim time now."""
        return self.law_since(now, None)[1:]

    def law_since(self, now, key):
        """
        (key, kp, kd, q, dq, tau, timed_out) at sim time now, or None if key is still current.

        key names the law (the count of applied commands and whether they timed out): a
        caller that holds the law of `key` is told only when it changed, and nothing is
        copied on the ticks between commands.
        """
        with self.lock:
            timed_out = self.last_time is None or now - self.last_time > self.timeout + 1e-9
            current = (self.accepted, timed_out)
            if current == key:
                return None
            if timed_out:
                zero = np.zeros_like(self.q)
                return current, zero, self.damping, zero, zero, zero, True
            return (current, self.kp.copy(), self.kd.copy(), self.q.copy(), self.dq.copy(),
                    self.tau.copy(), False)


class StatePoster:
    """
    One thread POSTing the newest state batch to every address.

    Older batches are dropped when POSTs are slower than the publish rate (bounded queue,
    bounded timeouts).
    """

    def __init__(self, addresses, timeout):
        from aimrt_protocols_py.http_channel import ChannelPublisher
        self.targets = [ChannelPublisher(a, timeout) for a in addresses]
        self.queue = queue.Queue(maxsize=1)
        self.sent = self.failed = self.dropped = 0
        self._warned = set()
        self._thread = threading.Thread(target=self._run, name='state_poster', daemon=True)
        self._stop = threading.Event()

    def start(self):
        self._thread.start()

    def offer(self, batch):
        try:
            self.queue.put_nowait(batch)
        except queue.Full:
            self.dropped += 1
            try:
                self.queue.get_nowait()
            except queue.Empty:
                pass
            self.queue.put_nowait(batch)

    def _run(self):
        import http.client
        while not self._stop.is_set():
            try:
                batch = self.queue.get(timeout=0.1)
            except queue.Empty:
                continue
            for target in self.targets:
                for topic, msg_type, body, ctype in batch:
                    try:
                        status = target.post(topic, msg_type, body, ctype)
                        ok = status == 200
                        reason = f'HTTP {status}'
                    except (OSError, http.client.HTTPException) as e:
                        ok, reason = False, str(e)
                    if ok:
                        self.sent += 1
                        continue
                    self.failed += 1
                    key = (target.address, topic)
                    if key not in self._warned:  # once per address and topic
                        self._warned.add(key)
                        LOG.warning('POST %s to %s failed: %s (further failures counted)',
                                    topic, target.address, reason)

    def stop(self):
        self._stop.set()
        self._thread.join(timeout=5.0)
        for target in self.targets:
            target.close()


class AimrtMujocoSim:
    """Physics loop + http channel endpoints."""

    def __init__(self, cfg, stop_event):
        from aimrt_protocols_py.http_channel import ChannelServer
        from aimrt_protocols_py import codec
        from aimrt_protocols_py.messages import (ImuState, JointCommand, JointState,
                                                 TouchState, message_class)
        from pnd_adam_description.joints import JOINT_LIMITS
        from pnd_adam_description.mujoco_model import FOOT_GEOMS, MujocoPhysics

        self.cfg = cfg
        self.stop_event = stop_event
        self.codec = codec
        self.classes = (JointState, ImuState, TouchState)
        for name, cls in ((cfg.joint_state_type, JointState), (cfg.imu_type, ImuState),
                          (cfg.touch_type, TouchState)):
            if message_class(name) is not cls:
                raise ValueError(f'{name} is not a {cls.DESCRIPTOR.name} type')
        self.command_cls = JointCommand
        self.message_class = message_class
        self.period = 1.0 / cfg.rate_hz
        self.physics = MujocoPhysics(self.period, cfg.base, touch_sensors=True)
        self.names = self.physics.joint_names
        self.feet = FOOT_GEOMS
        self.targets = JointTargets(JOINT_LIMITS, cfg.command_timeout, cfg.damping_kd)
        self.publish_every = max(1, round(cfg.rate_hz / cfg.publish_rate_hz))
        self.sim_time = 0.0
        self.ticks = 0
        self.overruns = 0
        self.rejected = 0
        self.timed_out = True
        self._law_key = None       # key of the law in the physics (JointTargets.law_since)
        self._messages = self._state_messages()
        self._state_topics = ((cfg.joint_state_topic, cfg.joint_state_type),
                              (cfg.imu_topic, cfg.imu_type), (cfg.touch_topic, cfg.touch_type))
        self.poster = StatePoster(cfg.state_addresses, cfg.http_timeout_sec)
        self.server = ChannelServer(cfg.listen_host, cfg.listen_port, self.on_post)
        # The server's event loop, run a pass per tick in this thread (serve_waiting) rather
        # than forever in a thread of its own (ChannelServer.start). ChannelServer has no
        # public way to do that: its loop and connection sweep are taken as its thread does.
        self._server_loop = self.server._loop
        self._sweeping = False

    # ------------------------------------------------------------ commands in
    def on_post(self, topic, msg_type, content_type, body):
        """Handle one POSTed channel message; return (HTTP status, reason)."""
        from aimrt_protocols_py.errors import AimrtProtocolError, UnsupportedContentTypeError
        if topic != self.cfg.command_topic:
            return 404, f'no subscriber for topic {topic!r}'
        try:
            if self.message_class(msg_type) is not self.command_cls:
                return 400, f'topic {topic!r} carries JointCommand, not {msg_type}'
            msg = self.codec.decode_body(self.command_cls, body, content_type,
                                         ignore_unknown_json_fields=True)
            entries = self.targets.check(msg)
        except CommandError as e:
            return self._reject(422, e)
        except UnsupportedContentTypeError as e:
            return self._reject(415, e)
        except AimrtProtocolError as e:
            return self._reject(400, e)
        except Exception as e:  # a bug must still answer the peer, never reach a joint
            LOG.error('JointCommand handling failed: %r', e)
            return 500, 'internal error'
        self.targets.apply(entries, self.sim_time)
        return 200, 'OK'

    def serve_waiting(self):
        """Answer every POST waiting at the command server: one pass of its loop, no wait."""
        loop = self._server_loop
        if not self._sweeping:     # idle and stuck connections are closed as in its thread
            self._sweeping = True
            self.server._timer = loop.call_later(self.server._sweep_period,
                                                 self.server._sweep)
        loop.call_soon(loop.stop)
        loop.run_forever()

    def _reject(self, status, error):
        self.rejected += 1
        LOG.warning('rejected JointCommand (not applied): %s [%d rejected so far]', error,
                    self.rejected)
        return status, str(error)

    # ------------------------------------------------------------ state out
    def _state_messages(self):
        """JointState, ImuState and TouchState with names and frames set, values to fill."""
        JointState, ImuState, TouchState = self.classes
        js, imu, touch = JointState(), ImuState(), TouchState()
        for name in self.names:
            js.joints.add(name=name)
        for name in self.feet:
            touch.names.append(name)
            touch.states.add(pressure=[0])  # N, one cell per pad
        for msg in (js, imu, touch):
            msg.header.frame_id = self.cfg.frame_id
        return js, imu, touch

    def state_batch(self, stamp_ns):
        """[(topic, type, body, content type)] of the three state messages of this step."""
        # Kept messages refilled in place: a new one per batch is two thirds of its cost.
        js, imu, touch = self._messages
        p = self.physics
        for joint, q, dq, tau in zip(js.joints, p.q.tolist(), p.dq.tolist(), p.tau.tolist()):
            joint.position, joint.velocity, joint.effort = q, dq, tau
        quat, gyro, acc, _ = p.imu()
        imu.orientation.w, imu.orientation.x, imu.orientation.y, imu.orientation.z = quat
        imu.angular_velocity.x, imu.angular_velocity.y, imu.angular_velocity.z = gyro
        imu.linear_acceleration.x, imu.linear_acceleration.y, \
            imu.linear_acceleration.z = acc
        for state, force in zip(touch.states, p.foot_forces()):
            state.pressure[0] = int(round(force))
        batch = []
        for (topic, msg_type), msg in zip(self._state_topics, self._messages):
            msg.header.time_stamp = stamp_ns
            body, ctype = self.codec.encode_body(msg, self.cfg.serialization)
            batch.append((topic, msg_type, body, ctype))
        return batch

    # ------------------------------------------------------------ loop
    def tick(self):
        self.serve_waiting()
        law = self.targets.law_since(self.sim_time, self._law_key)
        if law is not None:  # a new command or a change into or out of safe damping
            self._law_key, kp, kd, q, dq, tau, timed_out = law
            self.physics.set_law(kp, kd, q, dq, tau)
            if timed_out != self.timed_out:
                self.timed_out = timed_out
                if timed_out:
                    LOG.warning('no valid JointCommand for %g s: safe damping (stiffness 0, '
                                'damping %g)', self.cfg.command_timeout, self.cfg.damping_kd)
                else:
                    LOG.info('JointCommand in force')
        # Always the nominal period: a late tick never integrates the wall-clock gap.
        self.physics.advance()
        self.sim_time += self.period
        self.ticks += 1
        if self.ticks % self.publish_every == 0:
            self.poster.offer(self.state_batch(time.time_ns()))

    def run(self, duration=None):
        """
        Tick every period until stop_event, or for `duration` simulated seconds.

        node_runtime's DeadlineLoop in this thread: it sleeps on stop_event to absolute
        deadlines (no busy-wait) and after a stall of more than a tick skips the missed
        ticks (counted in overruns, one per stall) instead of bursting to catch up.
        """
        ticks = None if duration is None else max(1, round(duration / self.period))
        loop = DeadlineLoop(self.period, lambda deadline: self.tick(), raise_errors=True)
        try:
            loop.run_until_set(self.stop_event, ticks)
        finally:
            self.overruns += loop.stalls

    def start(self):
        self.poster.start()

    def close(self):
        self.server.stop()
        self.poster.stop()


def _parse_args(argv):
    if '--ros-args' in argv:  # launch_ros appends ROS arguments; they mean nothing here
        argv = argv[:argv.index('--ros-args')]
    p = argparse.ArgumentParser(prog='aimrt_mujoco_sim', description=__doc__.split('\n')[1])
    p.add_argument('--config', help='YAML file (share/aimrt_mujoco_sim/config/'
                   'aimrt_mujoco_sim.yaml documents every key)')
    p.add_argument('--duration', type=float, help='stop after this many simulated seconds')
    p.add_argument('--log-level', default='INFO')
    return p.parse_args(argv)


def main(argv=None):
    """
    Run until SIGINT/SIGTERM (or --duration); return the exit status.

    node_runtime.runner's rule: 0 on a stop or at the end of --duration, 2 with one stderr
    line for a bad configuration, 1 for any other failure (a port in use).
    """
    args = _parse_args(sys.argv[1:] if argv is None else argv)
    return runner.run_program(lambda: _run(args), prog='aimrt_mujoco_sim')


def _run(args):
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr,
                        format='[%(name)s] %(levelname)s: %(message)s')
    try:
        cfg = load_config(args.config)
        if stop_request.requested():
            return
        sim = AimrtMujocoSim(cfg, stop_request.event())
    except (ValueError, TypeError, yaml.YAMLError) as e:
        raise runner.ConfigError(e) from None
    except OSError as e:
        if e.filename is None:
            raise       # a socket that cannot be bound: a failure, not the configuration
        raise runner.ConfigError(e) from None
    try:
        sim.start()
        LOG.info('running: Adam U (%s base), %g Hz physics, states every %d ticks to %s, '
                 'JointCommand on %s:%s topic %r', cfg.base, cfg.rate_hz, sim.publish_every,
                 cfg.state_addresses, cfg.listen_host, sim.server.port, cfg.command_topic)
        for h in logging.getLogger().handlers:
            h.flush()
        sim.run(args.duration)
    finally:
        sim.close()
        LOG.info('stopped after %d ticks: %d commands applied, %d rejected, %d state POSTs '
                 'sent, %d failed, %d batches dropped, %d overruns', sim.ticks,
                 sim.targets.accepted, sim.rejected, sim.poster.sent, sim.poster.failed,
                 sim.poster.dropped, sim.overruns)


if __name__ == '__main__':
    sys.exit(main())
