"""The report's plots as inline SVG (matplotlib, no network, deterministic output)."""

from __future__ import annotations

import io
import re
from functools import cache
from typing import cast

COLORS = {"correct": "#2e7d32", "partial": "#f9a825", "wrong": "#c62828"}


@cache
def _pyplot():
    """matplotlib's pyplot, set up once, when the first plot is drawn: importing it costs every Dagster
    process that loads the definitions 0.45 s, and most never draw."""
    import matplotlib

    matplotlib.use("svg")  # no display, no GUI toolkit
    import matplotlib.pyplot as plt

    # text.parse_math off: labels are user data (a set named "$\\foo$" is a name, not TeX to typeset)
    plt.rcParams.update({"svg.hashsalt": "ragpipe", "svg.fonttype": "none", "font.size": 9, "text.parse_math": False})
    return plt


def _svg(fig) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    _pyplot().close(fig)
    text = buffer.getvalue()
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.DOTALL)  # RDF boilerplate, no content
    return text[text.index("<svg") :]  # drop the XML prolog: the SVG sits inside HTML


def verdicts_plot(pairs) -> str:
    """Stacked bars: correct / partial / wrong share for each (corpus, configuration, answer set)."""
    if pairs is None or len(pairs) == 0:
        return ""
    labels = [f"{r.corpus} / {r.config}\n{r.answer_set}" for r in pairs.itertuples()]
    totals = (pairs["correct"] + pairs["partial"] + pairs["wrong"]).clip(lower=1)
    fig, ax = _pyplot().subplots(figsize=(7, 0.45 * len(pairs) + 1))
    left = [0.0] * len(pairs)
    for verdict in ("correct", "partial", "wrong"):
        share = list(100 * pairs[verdict] / totals)
        ax.barh(labels, share, left=left, color=COLORS[verdict], label=verdict)
        left = [a + b for a, b in zip(left, share)]
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of answers")
    ax.legend(ncol=3, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    return _svg(fig)


def latency_plot(latencies: list[float]) -> str:
    """Histogram of answer latency (ms), log-spaced so fast and slow engines both show."""
    if not latencies:
        return ""
    import numpy as np

    low, high = max(min(latencies), 0.01), max(max(latencies), 0.02)
    bins = np.geomspace(low, high * 1.01, 30) if high > low else 10
    fig, ax = _pyplot().subplots(figsize=(7, 2.4))
    ax.hist(latencies, bins=bins, color="#546e7a")
    if high > low:
        from matplotlib import ticker

        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(ticker.FormatStrFormatter("%g"))
        ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    ax.set_xlabel("latency (ms)")
    ax.set_ylabel("answers")
    return _svg(fig)


def confusion_plot(confusion: dict[str, dict[str, int]] | None) -> str:
    """People (rows) against the grader (columns) on labelled answers, with counts."""
    if not confusion:
        return ""
    classes = list(confusion)
    grid = [[confusion[h][g] for g in classes] for h in classes]
    fig, ax = _pyplot().subplots(figsize=(4.2, 3.4))
    ax.imshow(grid, cmap="Blues")
    ax.set_xticks(range(len(classes)), [c.replace(" Answer", "") for c in classes])
    ax.set_yticks(range(len(classes)), [c.replace(" Answer", "") for c in classes])
    ax.set_xlabel("grader")
    ax.set_ylabel("person")
    peak = max(max(row) for row in grid) or 1
    for i, row in enumerate(grid):
        for j, n in enumerate(row):
            ax.text(j, i, str(n), ha="center", va="center", color="white" if n > peak / 2 else "black")
    return _svg(fig)


def risk_coverage_plot(points: list[tuple[float, int]] | None) -> str:
    """People's disagreement among the most confident k% of labelled verdicts, for every k (trust/)."""
    if not points:
        return ""
    from ragpipe.trust.risk_coverage import risk_coverage

    ordered = sorted(points, key=lambda p: -p[0])
    n = len(ordered)
    off, risks = 0, cast(list[float], [])
    for _, agree in ordered:
        off += 1 - agree
        risks.append(100 * off / (len(risks) + 1))
    summary = risk_coverage([c for c, _ in points], [a for _, a in points])
    fig, ax = _pyplot().subplots(figsize=(5.2, 3.2))
    ax.plot([100 * (k + 1) / n for k in range(n)], risks, color="#333")
    ax.set_xlabel("coverage: the most confident verdicts, % of labelled answers")
    ax.set_ylabel("people disagree, %")
    ax.set_title(f"AURC {summary['aurc']:.4f}, ECE {summary['ece']:.4f} ({n} labelled answers)", fontsize=9)
    ax.set_xlim(0, 100)
    ax.set_ylim(bottom=0)
    return _svg(fig)
