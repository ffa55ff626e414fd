# SPDX-License-Identifier: Apache-2.0
"""
Bag_plot: PNG figures from a bag.

- `hb50_joints*.png`: HB50 joint position/velocity/torque vs time (every BridgeData topic).
- `pnd_lowstate*.png`: PND Adam LowState motor q/dq/tau_est vs time (every LowState topic).
- `topic_rates.png`: received rate of every topic over time.

Messages are decoded with mcap-ros2-support from the schemas stored in the bag, so the
plots need neither this workspace nor the vendor packages installed.
"""

import argparse
import os
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

from node_runtime import runner, stop


# matplotlib, numpy, mcap and mcap_ros2 are imported when a bag is plotted, after the
# arguments are parsed: matplotlib alone takes seconds to import on a loaded machine, and
# `--help` or a Ctrl-C during start-up should not wait for it.

HB50_TYPE = 'hb50_commons/msg/BridgeData'
LOWSTATE_TYPE = 'pnd_adam/msg/LowState'
RATE_BIN = 0.5  # s

# A topic of the bag: (type, [log time ns], [decoded message or None]).
TopicData = Tuple[str, List[int], List[Any]]


def _safe(topic: str) -> str:
    return topic.strip('/').replace('/', '_') or 'root'


def load(uri: str) -> Dict[str, TopicData]:
    """
    Read the bag: {topic: (type, [log_time ns], [decoded message or None])}.

    Only the HB50 and PND types are decoded, the rest only timed.
    """
    from mcap.reader import make_reader
    from mcap_ros2.decoder import DecoderFactory

    from .bag_reader import bag_files
    topics: Dict[str, TopicData] = {}
    factory = DecoderFactory()
    decoders: Dict[int, Any] = {}
    for path in bag_files(uri):
        with open(path, 'rb') as f:
            reader = make_reader(f)
            for schema, channel, message in reader.iter_messages(log_time_order=True):
                type_name = schema.name if schema else ''
                entry = topics.setdefault(channel.topic, (type_name, [], []))
                entry[1].append(message.log_time)
                if schema is not None and type_name in (HB50_TYPE, LOWSTATE_TYPE):
                    if schema.id not in decoders:
                        decoders[schema.id] = factory.decoder_for('cdr', schema)
                    entry[2].append(decoders[schema.id](message.data))
                else:
                    entry[2].append(None)
    return topics


class AxesData(Dict[str, Tuple[Any, Any]]):
    """
    What one axes of a figure shows, read back from matplotlib: {line label: (x, y)}.

    Also `title`, `xlabel`, `ylabel` (with the unit in brackets) and `legend` (the legend's
    entry texts, in order; empty without a legend).
    """

    def __init__(self, ax: Any) -> None:
        """Read the lines, the labels and the legend of `ax`."""
        import numpy as np
        super().__init__((ln.get_label(), (np.asarray(ln.get_xdata()),
                                           np.asarray(ln.get_ydata())))
                         for ln in ax.get_lines())
        self.title: str = ax.get_title()
        self.xlabel: str = ax.get_xlabel()
        self.ylabel: str = ax.get_ylabel()
        legend = ax.get_legend()
        self.legend: List[str] = [t.get_text() for t in legend.get_texts()] if legend else []


def _lines(fig: Any) -> Dict[str, AxesData]:
    """Read back what the figure shows: {axes title: AxesData}."""
    return {ax.get_title(): AxesData(ax) for ax in fig.axes}


def _save(fig: Any, path: str) -> Dict[str, AxesData]:
    data = _lines(fig)
    fig.savefig(path, dpi=100)
    _pyplot().close(fig)
    return data


def _pyplot() -> Any:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    return plt


def plot_hb50(topic: str, times: Sequence[int], msgs: Sequence[Any], t0: int,
              path: str) -> Dict[str, AxesData]:
    """Write the HB50 joint figure of one topic; return what it shows."""
    import numpy as np
    plt = _pyplot()
    t = (np.asarray(times, dtype=np.int64) - t0) / 1e9
    names = list(msgs[0].joint_name) or [f'j{i}' for i in range(len(msgs[0].joint_position))]
    fields = (('joint_position', 'position', 'rad'), ('joint_velocity', 'velocity', 'rad/s'),
              ('joint_effort', 'torque', 'N·m'))
    fig, axes = plt.subplots(3, 1, figsize=(12, 10), sharex=True)
    for ax, (field, label, unit) in zip(axes, fields):
        values = np.array([list(getattr(m, field)) for m in msgs], dtype=np.float64)
        for j, name in enumerate(names):
            ax.plot(t, values[:, j], label=name, linewidth=0.8)
        ax.set_title(f'HB50 joint {label} ({topic})')
        ax.set_ylabel(f'{label} [{unit}]')
        ax.grid(True, alpha=0.3)
        ax.legend(loc='upper right', ncol=6, fontsize=7)
    axes[-1].set_xlabel('time since bag start [s]')
    fig.tight_layout()
    return _save(fig, path)


def plot_lowstate(topic: str, times: Sequence[int], msgs: Sequence[Any], t0: int,
                  path: str) -> Dict[str, AxesData]:
    """Write the PND LowState motor figure of one topic; return what it shows."""
    import numpy as np
    plt = _pyplot()
    t = (np.asarray(times, dtype=np.int64) - t0) / 1e9
    n = len(msgs[0].motor_state)
    fields = (('q', 'position q', 'rad'), ('dq', 'velocity dq', 'rad/s'),
              ('tau_est', 'torque tau_est', 'N·m'))
    fig, axes = plt.subplots(3, 1, figsize=(12, 10), sharex=True)
    for ax, (field, label, unit) in zip(axes, fields):
        values = np.array([[getattr(ms, field) for ms in m.motor_state] for m in msgs],
                          dtype=np.float64)
        for j in range(n):
            ax.plot(t, values[:, j], label=f'motor {j}', linewidth=0.8)
        ax.set_title(f'PND lowstate {label} ({topic})')
        ax.set_ylabel(f'{label} [{unit}]')
        ax.grid(True, alpha=0.3)
        ax.legend(loc='upper right', ncol=8, fontsize=6)
    axes[-1].set_xlabel('time since bag start [s]')
    fig.tight_layout()
    return _save(fig, path)


def rate_series(times: Sequence[int], t0: int, t_end: int,
                bin_s: float = RATE_BIN) -> Tuple[Any, Any]:
    """Return (bin centres s, messages/s per bin) of one topic."""
    import numpy as np
    edges = np.arange(0.0, max(t_end - t0, 1) / 1e9 + bin_s, bin_s)
    counts, _ = np.histogram((np.asarray(times, dtype=np.int64) - t0) / 1e9, bins=edges)
    return (edges[:-1] + edges[1:]) / 2, counts / bin_s


def plot_rates(topics: Dict[str, TopicData], t0: int, t_end: int,
               path: str) -> Dict[str, AxesData]:
    """Write the per-topic rate figure; return what it shows."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(12, 6))
    for topic in sorted(topics):
        x, y = rate_series(topics[topic][1], t0, t_end)
        ax.plot(x, y, label=topic, linewidth=1.0, drawstyle='steps-mid')
    ax.set_title(f'Per-topic message rate ({RATE_BIN:g} s bins)')
    ax.set_xlabel('time since bag start [s]')
    ax.set_ylabel('rate [messages/s]')
    ax.grid(True, alpha=0.3)
    ax.legend(loc='center left', bbox_to_anchor=(1.0, 0.5), fontsize=8)
    fig.tight_layout()
    return _save(fig, path)


def plot_bag(uri: str, outdir: str) -> Dict[str, Dict[str, AxesData]]:
    """Write the figures; return {png path: {axes title: AxesData ({label: (x, y)})}}."""
    from .bag_metadata import read_metadata
    read_metadata(uri)
    topics = load(uri)
    os.makedirs(outdir, exist_ok=True)
    every = [t for _, times, _ in topics.values() for t in times]
    if not every:
        raise ValueError(f'{uri} has no messages')
    t0, t_end = min(every), max(every)
    out: Dict[str, Dict[str, AxesData]] = {}
    for topic, (type_name, times, msgs) in sorted(topics.items()):
        if stop.requested():
            return out
        if type_name == HB50_TYPE and msgs:
            path = os.path.join(outdir, f'hb50_joints_{_safe(topic)}.png')
            out[path] = plot_hb50(topic, times, msgs, t0, path)
        elif type_name == LOWSTATE_TYPE and msgs:
            path = os.path.join(outdir, f'pnd_lowstate_{_safe(topic)}.png')
            out[path] = plot_lowstate(topic, times, msgs, t0, path)
    path = os.path.join(outdir, 'topic_rates.png')
    out[path] = plot_rates(topics, t0, t_end, path)
    return out


def main(argv: Optional[List[str]] = None) -> int:
    """Run bag_plot; return the exit status."""
    parser = argparse.ArgumentParser(prog='bag_plot',
                                     description=(__doc__ or '').strip().split('\n')[0])
    parser.add_argument('bag', help='bag directory')
    parser.add_argument('-o', '--output', default=None,
                        help='folder for the PNG files (default <bag>/plots)')
    args = parser.parse_args(argv)

    def plot() -> Optional[int]:
        try:
            written = plot_bag(args.bag, args.output or os.path.join(args.bag, 'plots'))
        except (ValueError, OSError) as exc:    # no bag, an empty one: a failure (1)
            return runner.report(parser.prog, runner.EXIT_FAILURE, exc)
        for path in written:
            print(path)
        return None
    return runner.run_program(plot, prog=parser.prog)


if __name__ == '__main__':
    sys.exit(main())
