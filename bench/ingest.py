"""Ingest benchmark: the project's extractor against pypdf on the same FinanceBench filings.

Measured side by side in one run, on the same pages:
- pages/s of `ragpipe.corpus.extract.extract_pdf` (pypdfium2) and of plain pypdf, one process each;
- the share of pages where the two disagree on whether the page is empty;
- pages/s of `ingest_folder` with two worker processes against one;
- peak RSS of ingesting every FinanceBench PDF (the full run) or the sample (--quick),
  in a fresh process: the writer's peak plus each worker's peak, an upper bound.

    python bench/ingest.py [--quick] [--json]
"""

from __future__ import annotations

import json
import logging
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from pypdf import PdfReader

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import financebench_folder, main, timed  # noqa: E402

from ragpipe.corpus.extract import extract_pdf  # noqa: E402
from ragpipe.corpus.ingest import ingest_folder  # noqa: E402

logging.getLogger("pypdf").setLevel(logging.ERROR)

_RSS_PROBE = """
import json, resource, sys
from pathlib import Path
from ragpipe.corpus.ingest import ingest_folder
result = ingest_folder("bench", Path(sys.argv[1]), workers=int(sys.argv[2]))
print(json.dumps({
    "pages": int(result.documents["pages"].sum()),
    "self_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    "child_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
}))
"""


def sample(folder: Path, quick: bool) -> list[Path]:
    """A fixed sample: the 10 smallest filings (--quick), or 15 spread over the name-sorted list."""
    files = sorted(folder.glob("*.pdf"))
    if quick:
        return sorted(sorted(files, key=lambda p: (p.stat().st_size, p.name))[:10])
    step = max(1, len(files) // 15)
    return files[::step][:15]


def pypdf_pages(path: Path) -> list[str]:
    return [(page.extract_text() or "").strip() for page in PdfReader(path).pages]


def peak_rss_mb(folder: Path, workers: int) -> tuple[int, float]:
    out = subprocess.run(
        [sys.executable, "-c", _RSS_PROBE, str(folder), str(workers)], check=True, capture_output=True, text=True
    )
    probe = json.loads(out.stdout.strip().splitlines()[-1])
    return probe["pages"], (probe["self_kb"] + workers * probe["child_kb"]) / 1024


def run(quick: bool) -> dict:
    folder = financebench_folder()
    files = sample(folder, quick)
    with timed() as ours_t:
        ours = [extract_pdf(p, p.read_bytes()).pages for p in files]
    with timed() as ref_t:
        ref = [pypdf_pages(p) for p in files]
    pages = sum(len(p) for p in ours)
    compared = [(a, b) for x, y in zip(ours, ref) for a, b in zip(x, y)]
    disagree = sum(1 for a, b in compared if (not a.strip()) != (not b.strip()))
    with tempfile.TemporaryDirectory() as tmp:
        for p in files:
            shutil.copy(p, Path(tmp) / p.name)  # a temporary copy of the sample, removed at exit
        with timed() as one_t:
            ingest_folder("bench", Path(tmp), workers=1)
        with timed() as two_t:
            ingest_folder("bench", Path(tmp), workers=2)
        rss_pages, rss = peak_rss_mb(Path(tmp) if quick else folder, 2)
    return {
        "speedup_vs_pypdf": round(ref_t.seconds / ours_t.seconds, 2),
        "pages": pages,
        "files": len(files),
        "pages_per_s": round(pages / ours_t.seconds, 1),
        "pypdf_pages_per_s": round(pages / ref_t.seconds, 1),
        "empty_page_disagreement": round(disagree / max(1, len(compared)), 4),
        "ingest_two_workers_speedup": round(one_t.seconds / two_t.seconds, 2),
        "peak_rss_mb": round(rss, 1),
        "peak_rss_pages": rss_pages,
    }


if __name__ == "__main__":
    main(
        run,
        "ingest: pypdfium2 vs pypdf (same pages)",
        __doc__.splitlines()[0],
        "the 10 smallest filings; under a minute",
    )
