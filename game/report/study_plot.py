"""The study's figure: each participant's planning time on each level against the plan's OCT
(left) and OCT over the lower bound (right). Needs matplotlib (the optional `plot` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MARKERS = {"easy": "o", "medium": "s", "hard": "^"}


def plot_study(runs: list[dict[str, Any]], out: Path) -> None:
    """runs: game.report.study.run_rows. Served levels filled; failed or abandoned ones hollow in
    a band above the served ones (left; their OCT is no number) and left out of OCT/LB (right)."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(9.0, 3.8))
    people = list(dict.fromkeys(r["participant"] for r in runs))
    colours = {p: f"C{i % 10}" for i, p in enumerate(people)}
    served_oct = [r["OCT"] for r in runs if r["status"] == "served"]
    longest = max(((r["planning_s"] or 0.0) / 60 for r in runs), default=0.0) or 1.0
    ceiling = max(served_oct, default=1.0) * 1.15  # unserved levels sit in a band above the rest
    for r in runs:
        minutes = (r["planning_s"] or 0.0) / 60
        c, m = colours[r["participant"]], MARKERS.get(str(r["difficulty"]), "D")
        if r["status"] == "served":
            left.scatter(minutes, r["OCT"], color=c, marker=m, s=36)
            if r["OCT/LB"] is not None:
                right.scatter(minutes, r["OCT/LB"], color=c, marker=m, s=36)
        else:
            left.scatter(minutes, ceiling, facecolors="none", edgecolors=c, marker=m, s=36)
    unserved = sum(r["status"] != "served" for r in runs)
    left.set_title("OCT of each level (served)")
    if unserved:
        left.axhline(ceiling * 0.97, color="0.6", linewidth=0.8, linestyle=":")
        left.annotate(
            f"not served ({unserved}): failed or abandoned",
            (0.01, ceiling),
            xycoords=("axes fraction", "data"),
            xytext=(0, 7),
            textcoords="offset points",
            fontsize="small",
            color="0.35",
        )
        left.set_ylim(0, ceiling * 1.1)
    else:
        left.set_ylim(bottom=0)
    left.set_ylabel("OCT (time units)")
    right.set_title("OCT / lower bound (served)")
    right.set_ylabel("OCT / lower bound")
    right.axhline(1.0, color="0.6", linewidth=0.8, linestyle="--")
    for ax in (left, right):
        ax.set_xlabel("planning time (min, active + idle)")
        ax.set_xlim(0, longest * 1.08)  # room for the markers at the right edge
        ax.grid(alpha=0.3)
    handles = [plt.Line2D([], [], color=colours[p], marker="o", linestyle="", label=p) for p in people]
    shapes = sorted(
        {str(r["difficulty"]) for r in runs}, key=lambda d: list(MARKERS).index(d) if d in MARKERS else 9
    )
    handles += [
        plt.Line2D([], [], color="0.3", marker=MARKERS.get(d, "D"), linestyle="", label=d) for d in shapes
    ]
    fig.legend(
        handles=handles, loc="lower center", ncol=min(len(handles), 8), fontsize="small", frameon=False
    )
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    fig.savefig(out, dpi=150)
    plt.close(fig)
