"""Render the authored demo corpus to real PDFs, byte-identical every run.

The documents are data (`corpora/demo/documents.yaml`); this module only
draws them. Metadata that would vary (creation date) is pinned, and a file is
rewritten only when its bytes would change, so re-running is free.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict

# not hashed into the grader version (grading/version.py)
DECIDES_NO_VERDICT = "writes the demo PDFs, which are data"

_PINNED_DATE = datetime(2025, 1, 1, tzinfo=UTC)


class DemoDocument(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    title: str
    pages: list[str] = []
    distractor: bool = False
    broken: bool = False


def load_documents(source: Path) -> list[DemoDocument]:
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    return [DemoDocument.model_validate(d) for d in data["documents"]]


def render_pdf(doc: DemoDocument) -> bytes:
    """A text-layer PDF of `doc`, one PDF page per authored page."""
    if doc.broken:
        # A header and nothing else: what a truncated scan upload looks like.
        return b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R"
    from fpdf import FPDF  # here, not at import: fpdf's fonts cost every Dagster process 0.3 s

    pdf = FPDF(format="Letter")
    pdf.set_creation_date(_PINNED_DATE)
    pdf.set_title(doc.title)
    pdf.set_author("ragpipe demo corpus")
    pdf.set_auto_page_break(auto=True, margin=18)
    for page in doc.pages:
        pdf.add_page()
        for line in page.strip().splitlines():
            if line.startswith("# "):
                pdf.set_font("Helvetica", "B", 15)
                pdf.multi_cell(0, 9, line[2:], new_x="LMARGIN", new_y="NEXT")
                pdf.ln(3)
            else:
                pdf.set_font("Helvetica", "", 11)
                pdf.multi_cell(0, 6.5, line, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def write_demo_corpus(source: Path, out_dir: Path) -> list[Path]:
    """Write every document of `source` as `<id>.pdf` in `out_dir`; return the paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    wanted = set()
    for doc in load_documents(source):
        path = out_dir / f"{doc.id}.pdf"
        wanted.add(path.name)
        data = render_pdf(doc)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
        paths.append(path)
    for stale in out_dir.glob("*.pdf"):  # a document removed from the source leaves the corpus
        if stale.name not in wanted:
            stale.unlink()
    return paths
