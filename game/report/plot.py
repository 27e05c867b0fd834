"""Bar charts of a report: one panel per metric, one bar per group and run, 95% intervals as
error bars. Needs matplotlib (the optional `plot` extra); importing this module imports it."""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from game.report.metrics import ALL, METRICS, UNITS, Row  # noqa: E402


def plot_rows(rows: list[Row], out: Path) -> None:
    shown = [r for r in rows if r.group != ALL] or rows
    groups = list(dict.fromkeys(r.group for r in shown))
    labels = list(dict.fromkeys(r.label for r in shown))
    by_key = {(r.label, r.group): r for r in shown}
    width = 0.8 / len(labels)
    fig, axes = plt.subplots(1, len(METRICS), figsize=(3.2 * len(METRICS), 4.0), squeeze=False)
    for ax, metric in zip(axes[0], METRICS, strict=True):
        for i, label in enumerate(labels):
            xs, ys, errs = [], [], [[], []]
            for g, group in enumerate(groups):
                row = by_key.get((label, group))
                if row is None or math.isnan(row.metrics[metric].value):
                    continue
                e = row.metrics[metric]
                xs.append(g + (i - (len(labels) - 1) / 2) * width)
                ys.append(e.value)
                errs[0].append(0 if math.isnan(e.low) else e.value - e.low)
                errs[1].append(0 if math.isnan(e.high) else e.high - e.value)
            ax.bar(xs, ys, width, yerr=errs, capsize=3, label=label)
        ax.set_title(f"{metric} ({UNITS[metric]})")
        ax.set_xticks(
            range(len(groups)),
            groups,
            rotation=40 if len(groups) > 3 else 0,
            ha="right" if len(groups) > 3 else "center",
        )
        ax.set_xlabel(shown[0].by)
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, names, loc="upper center", ncol=min(len(names), 6), fontsize="small")
    fig.tight_layout(rect=(0, 0, 1, 0.9))
    fig.savefig(out, dpi=110)
    plt.close(fig)
