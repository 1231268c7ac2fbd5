"""Text per page of one PDF: pypdfium2 first (fast), pypdf as the fallback.

pypdfium2 extracts 75-290 pages/s on the FinanceBench filings here against
4-30 for pypdf, so it does the work; pypdf only gets the files (or pages)
pdfium rejects. Failures come back as a sentence a person understands.
"""

from __future__ import annotations

import io
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragpipe.inputs.text import valid_text

logging.getLogger("pypdf").setLevel(logging.CRITICAL)  # we report failures ourselves, in words


EXTRACTOR_VERSION = "2"  # bump when what a PDF yields changes: ingest then reads every file again


class ExtractionError(Exception):
    """The PDF could not be read at all; the message says why, in words."""


@dataclass
class ExtractedPdf:
    pages: list[str]
    extractor: str
    warnings: list[str] = field(default_factory=list)


def _clean(text: str) -> str:
    """Page text as stored: one newline style, no NULs, and valid Unicode (a broken PDF's text layer can
    hold lone surrogates, which no UTF-8 writer takes; text that stored before is unchanged)."""
    return valid_text(text).replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "").replace("\ufffe", "").strip()


def _explain(exc: Exception) -> str:
    msg = str(exc)
    low = msg.lower()
    if "password" in low or "encrypt" in low:
        return "encrypted: the PDF needs a password to open"
    if "format" in low or "header" in low or "eof" in low or "xref" in low or "trailer" in low:
        return f"not a readable PDF (damaged or truncated file): {msg}"
    return f"unreadable PDF: {msg}"


def max_pages() -> int:
    """The most pages one document may have (RAGPIPE_MAX_PAGES, default 10,000): at 75 pages/s, the
    slowest rate measured here, that bounds one file's extraction to about two minutes."""
    return int(os.environ.get("RAGPIPE_MAX_PAGES", "10000"))


def _check_size(pages: int) -> None:
    if pages > max_pages():
        raise ExtractionError(f"{pages:,} pages: more than the {max_pages():,} a document may have (RAGPIPE_MAX_PAGES)")


def _with_pdfium(data: bytes) -> ExtractedPdf:
    import pypdfium2 as pdfium  # here, not at the top: every command loads the definitions, few parse a PDF (70 ms)

    doc = pdfium.PdfDocument(data)
    try:
        _check_size(len(doc))  # counted from the page tree, before any page is read
        pages: list[Any] = []
        warnings: list[str] = []
        for i in range(len(doc)):
            try:
                page = doc[i]
                textpage = page.get_textpage()
                pages.append(_clean(textpage.get_text_range()))
                textpage.close()
                page.close()
            except Exception as exc:  # one bad page must not lose the document
                pages.append(_pypdf_page(data, i, warnings, exc))
        return ExtractedPdf(pages=pages, extractor="pypdfium2", warnings=warnings + _empty_pages(doc, data, pages))
    finally:
        doc.close()


def _page_list(numbers: list[int]) -> str:
    """[1, 2, 3, 7] -> "1-3, 7": a person reads ranges, not a thousand numbers."""
    parts, start = [], None
    for n, nxt in zip(numbers, numbers[1:] + [None]):
        start = n if start is None else start
        if nxt != n + 1:
            parts.append(str(start) if start == n else f"{start}-{n}")
            start = None
    return ", ".join(parts)


def _undecodable(page) -> bool:
    """The page has content bytes that do not decode (a damaged stream), as opposed to no content at all."""
    contents = page.get("/Contents")
    if contents is None:
        return False
    contents = contents.get_object()
    streams = [c.get_object() for c in contents] if isinstance(contents, list) else [contents]
    for stream in streams:
        raw = getattr(stream, "_data", b"") or b""
        try:
            decoded = stream.get_data()
        except Exception:
            return True
        if raw.strip() and not decoded:
            return True
    return False


def _empty_pages(doc, data: bytes, pages: list[str]) -> list[str]:
    """Why pages came out empty: pictures without a text layer (needs OCR), or a damaged content stream.
    A document with no text on any page and nothing to show for it is no document (ExtractionError)."""
    empty = [i for i, text in enumerate(pages) if not text.strip()]
    if not empty:
        return []
    import pypdfium2.raw as pdfium_c

    images, damaged, reader = [], [], None
    for i in empty:
        page = doc[i]
        kinds = {obj.type for obj in page.get_objects()}
        page.close()
        if pdfium_c.FPDF_PAGEOBJ_IMAGE in kinds:
            images.append(i + 1)
        elif not kinds:
            reader = reader or _pypdf(data)
            if _undecodable(reader.pages[i]):
                damaged.append(i + 1)
    if len(empty) == len(pages) and not images:
        detail = f"; page(s) {_page_list(damaged)} have damaged content streams" if damaged else ""
        raise ExtractionError(f"no text on any of its {len(pages):,} page(s): a blank document{detail}")
    notes = []
    if images:
        notes.append(
            f"no text layer on page(s) {_page_list(images)}: image-only (scanned?), needs OCR to be searchable"
        )
    if damaged:
        notes.append(f"page(s) {_page_list(damaged)}: content stream damaged, no text could be extracted")
    return notes


def _pypdf_page(data: bytes, index: int, warnings: list[str], first: Exception) -> str:
    try:
        return _clean(_pypdf(data).pages[index].extract_text() or "")
    except Exception as exc:
        warnings.append(f"page {index + 1}: text extraction failed ({first}; pypdf: {exc})")
        return ""


def _pypdf(data: bytes):
    """pypdf's reader of `data`, imported here: most PDFs never need the fallback, and every Dagster
    process that loads the definitions would pay for the import."""
    from pypdf import PdfReader

    return PdfReader(io.BytesIO(data))


def _with_pypdf(data: bytes) -> ExtractedPdf:
    reader = _pypdf(data)
    if reader.is_encrypted:
        raise ExtractionError("encrypted: the PDF needs a password to open")
    _check_size(len(reader.pages))
    pages, warnings = [], []
    for i, page in enumerate(reader.pages):
        try:
            pages.append(_clean(page.extract_text() or ""))
        except Exception as exc:
            warnings.append(f"page {i + 1}: text extraction failed ({exc})")
            pages.append("")
    return ExtractedPdf(pages=pages, extractor="pypdf", warnings=warnings)


def extract_pdf(path: Path, data: bytes | None = None) -> ExtractedPdf:
    """Pages of `path` as text; raises ExtractionError with a readable reason."""
    data = path.read_bytes() if data is None else data
    if not data:
        raise ExtractionError("empty file (0 bytes)")
    if not data.lstrip()[:5].startswith(b"%PDF"):
        raise ExtractionError("not a PDF: the file does not start with a %PDF header")
    try:
        return _with_pdfium(data)
    except ExtractionError:
        raise  # pdfium read it and found it wanting (e.g. blank): pypdf would only agree, slower
    except Exception as pdfium_exc:
        try:
            return _with_pypdf(data)
        except ExtractionError:
            raise
        except Exception:
            raise ExtractionError(_explain(pdfium_exc)) from pdfium_exc


def extract_file(path: Path) -> tuple[int, ExtractedPdf | str]:
    """(size, pages) of one PDF, or (size, the reason it failed): what an ingest worker sends back.

    It lives here, away from pandas, so a spawned worker starts in a fraction of a second."""
    data = path.read_bytes()
    try:
        return len(data), extract_pdf(path, data)
    except ExtractionError as exc:
        return len(data), str(exc)
