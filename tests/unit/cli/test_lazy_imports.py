"""Loading the Dagster definitions imports no library only a few steps use.

Every step process of a multiprocess run, every Celery worker, the code server of `dagster dev` and
each `ragpipe run` or `regrade` loads the definitions; scipy.stats, matplotlib, fpdf, bm25s (with
numba) and pypdf together cost each of them about 2 s there (docs/performance.md), so they are
imported where they are used.
"""

import subprocess
import sys

from tests.conftest import ROOT

HEAVY = ("scipy.stats", "matplotlib", "fpdf", "bm25s", "numba", "pypdf")


def test_loading_the_definitions_leaves_the_heavy_libraries_unloaded():
    probe = "import sys, assets.definitions; print(' '.join(m for m in {heavy!r} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", probe.format(heavy=HEAVY)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == []


def test_the_lazy_libraries_still_load_where_they_are_used():
    from ragpipe.corpus.demo_pdfs import DemoDocument, render_pdf
    from ragpipe.review.plots import latency_plot
    from ragpipe.scoring.wilson import wilson

    assert wilson(8, 10)[0] < 0.8 < wilson(8, 10)[1]
    assert latency_plot([5.0, 50.0, 500.0]).startswith("<svg")
    assert render_pdf(DemoDocument(id="d", title="t", pages=["Amount due: $26.99"])).startswith(b"%PDF")
