# SPDX-License-Identifier: Apache-2.0
"""
The battery of the simulated robot.

Open-circuit voltage falls linearly with the state of charge, a series resistance drops it
under load; current = power / voltage; the power is the electronics' idle draw plus the
positive mechanical power and the copper loss (k*tau^2) of every joint; wh_accumulated
integrates the power.
"""

import math
from typing import NamedTuple, Sequence

from .model_config import ModelConfig


class BatteryStep(NamedTuple):
    """The battery after one step."""

    voltage: float          # V
    current: float          # A
    power: float            # W
    wh_accumulated: float   # Wh drawn since the start


def soc(cfg: ModelConfig, wh_accumulated: float) -> float:
    """Return the state of charge (0..1) after drawing wh_accumulated."""
    return max(0.0, cfg.battery_initial_soc - wh_accumulated / cfg.battery_capacity_wh)


def status(state_of_charge: float) -> str:
    """Return BatteryData.status: 'CRITICAL' at <= 5 %, 'LOW' at <= 20 %, else 'OK'."""
    if state_of_charge <= 0.05:
        return 'CRITICAL'
    if state_of_charge <= 0.2:
        return 'LOW'
    return 'OK'


def step(cfg: ModelConfig, wh_accumulated: float, dq: Sequence[float], tau: Sequence[float],
         dt: float) -> BatteryStep:
    """Return the battery after dt at joint velocities dq and torques tau."""
    # Positive mechanical power and sum of tau^2, in plain floats (19 values: numpy's
    # per-call cost would exceed the arithmetic). Summed in joint order, where np.sum
    # keeps eight partial sums: a sum can differ from numpy's in its last bit (623 of
    # 3000 ticks of a MuJoCo trace), which the v_oc * v_oc term below absorbs there.
    mech = tau2 = 0.0
    for t, v in zip(tau, dq):
        p = t * v
        if p > 0.0:
            mech += p
        tau2 += t * t
    copper = cfg.copper_loss * tau2
    power = cfg.battery_idle_power + mech + copper
    v_oc = cfg.battery_v_empty + (cfg.battery_v_full - cfg.battery_v_empty) * soc(
        cfg, wh_accumulated)
    r = cfg.battery_resistance
    # Solve P = V*I with V = v_oc - r*I (the physical, smaller root).
    disc = max(v_oc * v_oc - 4.0 * r * power, 0.0)
    current = (v_oc - math.sqrt(disc)) / (2.0 * r)
    voltage = v_oc - r * current
    power = voltage * current
    return BatteryStep(voltage, current, power, wh_accumulated + power * dt / 3600.0)
