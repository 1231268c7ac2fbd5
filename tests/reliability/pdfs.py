"""Real bad PDFs, written by code: each is a kind of file users really drop into a corpus folder."""

from __future__ import annotations

import io
import re
import zlib
from pathlib import Path

from fpdf import FPDF
from PIL import Image, ImageDraw


def text_pdf(path: Path, pages: list[str], password: str | None = None) -> Path:
    pdf = FPDF()
    if password:
        pdf.set_encryption(owner_password="owner", user_password=password)
    pdf.set_font("Helvetica", size=12)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 8, text)
    pdf.output(str(path))
    return path


def image_only_pdf(path: Path) -> Path:
    """A 'scan': a picture of a bill with no text layer."""
    img = Image.new("RGB", (600, 240), "white")
    ImageDraw.Draw(img).text((20, 100), "Total due: $1,234.00", fill="black")
    buffer = io.BytesIO()
    img.save(buffer, format="PNG")
    pdf = FPDF()
    pdf.add_page()
    pdf.image(buffer, x=10, y=10, w=180)
    pdf.output(str(path))
    return path


def blank_pdf(path: Path, pages: int = 3000) -> Path:
    pdf = FPDF()
    for _ in range(pages):
        pdf.add_page()
    pdf.output(str(path))
    return path


def damaged_page_pdf(path: Path) -> Path:
    """Three pages; the second page's compressed content stream is garbage, so its text cannot be extracted."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for text in ("Page one: rent is $2,150.", "Page two: deposit is $4,300.", "Page three: late fee is $75."):
        pdf.add_page()
        pdf.cell(0, 10, text)
    data = bytearray(pdf.output())
    second = list(re.finditer(rb"stream\n(.*?)\nendstream", bytes(data), re.S))[1]
    data[second.start(1) : second.end(1)] = b"\x78\x9c" + b"\xff" * (second.end(1) - second.start(1) - 2)
    path.write_bytes(bytes(data))
    return path


def bomb_pdf(path: Path, inflated_mb: int) -> Path:
    """A decompression bomb: one page whose content stream is `inflated_mb` MB of spaces, deflated
    about a thousandfold (512 MB fits in half a megabyte). Written by hand: no PDF library makes one."""
    deflate = zlib.compressobj(9)
    block = b" " * (1 << 20)
    stream = deflate.compress(b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET\n")
    stream += b"".join(deflate.compress(block) for _ in range(inflated_mb)) + deflate.flush()
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        page,
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        HELVETICA,
    ]
    path.write_bytes(_pdf(objects))
    return path


HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def plain_text_pdf(path: Path, pages: list[str]) -> Path:
    """A text PDF written by hand, one line of a page per line of its text (Helvetica, ASCII): a
    thousand pages in a fraction of a second, where fpdf's layout takes seconds."""
    count = len(pages)
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]  # the page tree is filled in below
    kids = []
    for text in pages:
        lines = b"".join(
            b"(%s) Tj T*\n" % line.encode("ascii").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
            for line in text.splitlines()
        )
        stream = b"BT /F1 10 Tf 12 TL 40 760 Td\n" + lines + b"ET"
        page, content = len(objects) + 1, len(objects) + 2
        kids.append(b"%d 0 R" % page)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
            b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (content, 3 + 2 * count)
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), count)
    objects.append(HELVETICA)
    path.write_bytes(_pdf(objects))
    return path


def _pdf(objects: list[bytes]) -> bytes:
    """The file: numbered objects (the first is the catalog), their cross-reference table, the trailer."""
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1) + b"".join(
        b"%010d 00000 n \n" % o for o in offsets
    )
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def bad_pdf_zoo(folder: Path) -> Path:
    """One good lease and seven kinds of trouble."""
    folder.mkdir(parents=True, exist_ok=True)
    good = text_pdf(folder / "lease.pdf", ["Monthly rent is $2,150.", "Late fee is $75."])
    (folder / "zero.pdf").write_bytes(b"")
    (folder / "truncated.pdf").write_bytes(good.read_bytes()[:400])
    (folder / "notes.pdf").write_text("meeting notes, saved with the wrong extension")
    text_pdf(folder / "locked.pdf", ["salary: $120,000"], password="hunter2")
    image_only_pdf(folder / "scan.pdf")
    blank_pdf(folder / "blank.pdf", pages=3000)
    damaged_page_pdf(folder / "damaged.pdf")
    return folder


def corpora_with(root: Path, name: str, pdfs: Path, questions: str) -> Path:
    """A corpora folder: the project's configurations plus one `folder` corpus."""
    import shutil

    from tests.conftest import ROOT

    corpora = root / "corpora"
    corpora.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "corpora" / "configs.yaml", corpora / "configs.yaml")
    (corpora / name).mkdir(exist_ok=True)
    (corpora / name / "questions.yaml").write_text(questions)
    (corpora / f"{name}.yaml").write_text(
        f"name: {name}\nadapter: folder\ndata_dir: {pdfs}\nquestions: {name}/questions.yaml\n"
    )
    return corpora
