"""Stacked bars of where each run's step time goes (PNG via matplotlib's Agg backend).

Left panel: the whole step, one stacked bar per run (top-level phases + the unaccounted
remainder; timers nested inside a phase are not drawn again). Right panel: the same bars
without ``gen``, so the smaller phases are readable when generation dominates.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol

from tools.timing.phases import ordered_phases

REMAINDER = "unaccounted"


class _Mean(Protocol):
    @property
    def mean(self) -> float: ...


class RunBars(Protocol):
    """What a plot needs of a run (``tools.timing.report.RunSummary`` has it)."""

    @property
    def name(self) -> str: ...
    @property
    def phases(self) -> Mapping[str, _Mean]: ...
    @property
    def remainder(self) -> _Mean: ...


def _colors(phases: list[str]) -> dict[str, tuple[float, float, float, float]]:
    from matplotlib import colormaps

    cmap = colormaps["tab20"]
    colors = {p: cmap(i % 20) for i, p in enumerate(phases)}
    colors[REMAINDER] = (0.6, 0.6, 0.6, 1.0)
    return colors


def plot_runs(summaries: Sequence[RunBars], path: Path) -> None:
    """Draw the stacked bars and write them to ``path`` (temp file, then rename)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    phases = ordered_phases({p for s in summaries for p in s.phases})
    colors = _colors(phases)
    names = [s.name for s in summaries]
    fig, axes = plt.subplots(1, 2, figsize=(max(9.0, 3.2 + 2.4 * len(names)), 5.2), constrained_layout=True)
    for ax, skip in ((axes[0], set()), (axes[1], {"gen"})):
        bottoms = [0.0] * len(summaries)
        for p in [*phases, REMAINDER]:
            if p in skip:
                continue
            if p == REMAINDER:
                vals = [max(s.remainder.mean, 0.0) for s in summaries]
            else:
                vals = [s.phases[p].mean if p in s.phases else 0.0 for s in summaries]
            if not any(vals):
                continue
            ax.bar(names, vals, bottom=bottoms, color=colors[p], label=p, edgecolor="white", linewidth=0.5)
            bottoms = [b + v for b, v in zip(bottoms, vals, strict=True)]
        for i, total in enumerate(bottoms):
            ax.annotate(
                f"{total:.1f} s",
                (i, total),
                ha="center",
                va="bottom",
                fontsize=9,
                xytext=(0, 2),
                textcoords="offset points",
            )
        ax.set_ylabel("seconds per step (mean)")
        if max(len(n) for n in names) * len(names) > 36:  # long names: tilt them so they do not collide
            ax.tick_params(axis="x", labelrotation=20)
        ax.margins(y=0.12)
    axes[0].set_title("timing_s/step by phase")
    axes[1].set_title("without gen (zoom on the other phases)")
    handles, labels = [], []
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    axes[1].legend(
        handles[::-1], labels[::-1], loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9, frameon=False
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".png", dir=path.parent)
    os.close(fd)
    try:
        fig.savefig(tmp, format="png", dpi=120)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        plt.close(fig)
