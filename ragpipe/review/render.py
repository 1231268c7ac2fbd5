"""Render a Review as one self-contained HTML file: inline CSS, inline SVG plots, inline script."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape

from ragpipe.review.annotate import annotate
from ragpipe.review.data import Review
from ragpipe.review.plot_cache import PlotCache, draw_now
from ragpipe.review.plots import confusion_plot, latency_plot, risk_coverage_plot, verdicts_plot

_ENV = Environment(loader=FileSystemLoader(Path(__file__).parent), autoescape=select_autoescape(["j2", "html"]))


def answer_html(row: dict) -> Markup:
    """The answer with the marks its grade stored; a stale verdict's answer is shown plain."""
    if row["stale"]:
        return escape(row["answer"])
    parts = []
    for run in annotate(row["answer"], row["matched"]):
        if not run.marks:
            parts.append(str(escape(run.text)))
        else:
            # an f-string of escaped parts, as Markup.format would build it, without its Formatter (a third
            # of the review's markup time)
            parts.append(
                f'<span class="{escape(" ".join(run.marks))}" title="{escape("; ".join(run.notes))}">'
                f"{escape(run.text)}</span>"
            )
    return Markup("".join(parts))


def needles_html(needles: dict[str, list[dict]]) -> dict[str, Markup]:
    """Each question's needles block (needles.html.j2), rendered once: every answer to it shows the same."""
    block = cast(Any, _ENV.get_template("needles.html.j2").module).needles
    return {question_id: Markup(block(ns)) for question_id, ns in needles.items()}


def render_report(review: Review, plot_cache: PlotCache | None = None) -> str:
    """The report's HTML; with `plot_cache`, a plot whose input is unchanged is read, not drawn (plot_cache.py)."""
    draw = plot_cache.svg if plot_cache is not None else draw_now
    rows = [SimpleNamespace(**row) for row in review.rows]  # read as attributes: no failed getattr per field
    by_id = {row.answer_id: row for row in rows}
    return _ENV.get_template("report.html.j2").render(
        r=review,
        rows=rows,
        flips=[SimpleNamespace(**f) for f in review.flips],
        answers_html={row["answer_id"]: answer_html(row) for row in review.rows},
        needles_html=needles_html(review.needles),
        audit=[by_id[a] for a in review.audit_sample],
        verdicts=sorted({row["verdict"] for row in review.rows}),
        failures=sorted({row["failure"] for row in review.rows if row["failure"]}),
        sets=sorted({row["answer_set"] for row in review.rows}),
        plots={
            "verdicts": draw(verdicts_plot, review.pairs),
            "latency": draw(latency_plot, review.latencies),
            "confusion": draw(confusion_plot, review.confusion),
            "risk_coverage": draw(risk_coverage_plot, _labelled_confidences(review.rows)),
            "by_set": _plots_by_set(review.rows, draw),
        },
        meta={"corpus": review.corpus, "config": review.config, "grader_version": review.grader_version},
    )


def _labelled_confidences(rows: list[dict]) -> list[tuple[float, int]] | None:
    """(confidence, people agree) of each labelled answer with a confidence: the risk-coverage plot's input."""
    from ragpipe.answering.labels import HUMAN_CLASSES
    from ragpipe.grader_agreement.agreement import grader_class
    from ragpipe.grader_agreement.trust_sets import agrees

    points = [
        (r["confidence"], int(agrees(r["kind"], r["label"], grader_class(r["verdict"], r["declined"]))))
        for r in rows
        if r["label"] in HUMAN_CLASSES and r.get("confidence") is not None
    ]
    return points or None


def _plots_by_set(rows: list[dict], draw=draw_now) -> dict[str, dict[str, str]]:
    """Latency and agreement plots of each answer set, for the page to show the set selected (none when
    the report holds one set: the plots above are its own)."""
    from ragpipe.answering.labels import HUMAN_CLASSES
    from ragpipe.grader_agreement.agreement import confusion_matrix, grader_class

    sets = sorted({row["answer_set"] for row in rows})
    if len(sets) < 2:
        return {}
    out = {}
    for name in sets:
        mine = [row for row in rows if row["answer_set"] == name]
        labelled = [row for row in mine if row["label"] in HUMAN_CLASSES]
        confusion = (
            confusion_matrix(
                [r["label"] for r in labelled], [grader_class(r["verdict"], r["declined"]) for r in labelled]
            )
            if labelled
            else None
        )
        latencies = [row["latency_ms"] for row in mine if row["latency_ms"] is not None]
        out[name] = {"latency": draw(latency_plot, latencies), "confusion": draw(confusion_plot, confusion)}
    return out


def write_report(review: Review, out: Path, plot_cache: Path | None = None) -> Path:
    """The report at `out`; with `plot_cache`, plots are kept in that folder between renders (only the
    last render's)."""
    cache = PlotCache(plot_cache) if plot_cache is not None else None
    path = write_html(render_report(review, cache), out)
    if cache is not None:
        cache.prune()
    return path


def render_compare(view) -> str:
    """The compare view: each side's answer marked as the review report marks it."""
    marked = {side + row["answer_id"]: answer_html(row) for a, b, _ in view.pairs for side, row in (("A", a), ("B", b))}
    return _ENV.get_template("compare.html.j2").render(v=view, answers_html=marked)


def write_html(html: str, out: Path) -> Path:
    """Write atomically (temp file, then rename): a reader never sees half a page."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(out.suffix + ".tmp")
    tmp.write_text(html, encoding="utf-8")
    tmp.replace(out)
    return out
