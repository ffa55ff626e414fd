# SPDX-License-Identifier: Apache-2.0
"""
The simulator: the Adam U MuJoCo model stepped by a DeadlineLoop, with its http endpoints.

One thread runs the loop and the JointCommand server: the server's event loop is not given a
thread of its own; each tick first makes one pass of it without waiting, which reads every
POST waiting on its connections, answers it and applies the valid commands in arrival order
(issue 40: no wake-up and no thread hand-off per message; a command is applied at the same
tick as before, its answer comes at that tick). Between ticks the loop sleeps.
"""

import logging
import threading
import time
from typing import Any, Optional, Sequence

from node_runtime.loop import DeadlineLoop

from .config import SimConfig
from .sender import Post, StatePoster
from .targets import CommandError, JointTargets, LawKey

LOG = logging.getLogger('aimrt_mujoco_sim')


class AimrtMujocoSim:
    """Physics loop + http channel endpoints."""

    def __init__(self, cfg: SimConfig, stop_event: threading.Event) -> None:
        """Load the model and bind the command server (OSError if its port is taken)."""
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
        self.physics: Any = MujocoPhysics(self.period, cfg.base, touch_sensors=True)
        self.names: list[str] = self.physics.joint_names
        self.feet: Sequence[str] = FOOT_GEOMS
        self.targets = JointTargets(JOINT_LIMITS, cfg.command_timeout, cfg.damping_kd)
        self.publish_every = max(1, round(cfg.rate_hz / cfg.publish_rate_hz))
        self.sim_time = 0.0
        self.ticks = 0
        self.overruns = 0
        self.rejected = 0
        self.timed_out = True
        self._law_key: Optional[LawKey] = None   # key of the law in the physics (law_since)
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
    def on_post(self, topic: str, msg_type: str, content_type: str,
                body: bytes) -> tuple[int, str]:
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

    def serve_waiting(self) -> None:
        """Answer every POST waiting at the command server: one pass of its loop, no wait."""
        loop = self._server_loop
        if not self._sweeping:     # idle and stuck connections are closed as in its thread
            self._sweeping = True
            self.server._timer = loop.call_later(self.server._sweep_period,
                                                 self.server._sweep)
        loop.call_soon(loop.stop)
        loop.run_forever()

    def _reject(self, status: int, error: Exception) -> tuple[int, str]:
        self.rejected += 1
        LOG.warning('rejected JointCommand (not applied): %s [%d rejected so far]', error,
                    self.rejected)
        return status, str(error)

    # ------------------------------------------------------------ state out
    def _state_messages(self) -> tuple[Any, Any, Any]:
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

    def state_batch(self, stamp_ns: int) -> list[Post]:
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
        batch: list[Post] = []
        for (topic, msg_type), msg in zip(self._state_topics, self._messages):
            msg.header.time_stamp = stamp_ns
            body, ctype = self.codec.encode_body(msg, self.cfg.serialization)
            batch.append((topic, msg_type, body, ctype))
        return batch

    # ------------------------------------------------------------ loop
    def tick(self) -> None:
        """Serve the waiting commands, step the physics once, offer the states when due."""
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

    def run(self, duration: Optional[float] = None) -> None:
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

    def start(self) -> None:
        """Start the state sender thread."""
        self.poster.start()

    def close(self) -> None:
        """Stop the command server and the state sender."""
        self.server.stop()
        self.poster.stop()

    # ------------------------------------------------------------ sim_runtime.program
    def running(self) -> str:
        """Return the start-up line of the log."""
        cfg = self.cfg
        return (f'running: Adam U ({cfg.base} base), {cfg.rate_hz:g} Hz physics, states every '
                f'{self.publish_every:d} ticks to {cfg.state_addresses}, JointCommand on '
                f'{cfg.listen_host}:{self.server.port} topic {cfg.command_topic!r}')

    def finish(self) -> str:
        """close(), then return the summary line of the log."""
        self.close()
        return (f'stopped after {self.ticks:d} ticks: {self.targets.accepted:d} commands '
                f'applied, {self.rejected:d} rejected, {self.poster.sent:d} state POSTs sent, '
                f'{self.poster.failed:d} failed, {self.poster.dropped:d} batches dropped, '
                f'{self.overruns:d} overruns')
