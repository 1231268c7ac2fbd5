"""FinanceBench (Patronus AI): SEC filings, 150 questions, evidence pages.

Kinds follow from what the corpus holds: a question whose filing is present
is `answerable` (golden document = `doc_name`); one whose filing is missing
but whose company has other filings here is `ambiguous` (the answer may or
may not be derivable); one with no filing of its company at all is
`negative`. Upstream `evidence_page_num` is ZERO-indexed; the warehouse is
1-indexed, so pages are shifted by one here, once.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from ragpipe.corpus.manifest import CorpusManifest
from ragpipe.corpus.questions import Evidence, LoadedQuestions, Question, polarity_of, validation_problems
from ragpipe.inputs.jsonl import read_jsonl
from ragpipe.inputs.problems import Problem
from ragpipe.text.figures import find_figures

QUESTIONS_FILE = "financebench_open_source.jsonl"
DOCUMENTS_FILE = "financebench_document_information.jsonl"
REQUIRED = (QUESTIONS_FILE, DOCUMENTS_FILE, "pdfs/")  # checked before a run starts (adapters.missing_data)


def pdf_folder(manifest: CorpusManifest, data: Path) -> Path:
    return data / "pdfs"


def answer_key(answer: str) -> tuple[str | None, list[str]]:
    """When the gold answer is nothing but one figure ("$1577.00", "24.26", "1.9%"),
    that figure is the key: a money key, or a must-contain figure. Computed
    answers (ratios) are never printed in the filing, so only the upstream
    answer itself can serve as their needle."""
    figures = find_figures(answer.strip())
    if len(figures) == 1 and figures[0].text == answer.strip().rstrip("."):
        fig = figures[0]
        return (fig.text, []) if fig.is_money else (None, [fig.text])
    return None, []


def _company_of(doc_name: str, info: dict[str, dict]) -> str:
    return info.get(doc_name, {}).get("company") or doc_name.split("_")[0]


def read_questions(manifest: CorpusManifest, folder: Path, documents: set[str]) -> LoadedQuestions:
    problems: list[Problem] = []
    info = {row["doc_name"]: row for _, row in read_jsonl(folder / DOCUMENTS_FILE, problems) if "doc_name" in row}
    companies = {_company_of(d, info) for d in documents}
    path = folder / QUESTIONS_FILE
    questions: list[Question] = []
    seen: set[str] = set()
    for lineno, row in read_jsonl(path, problems):
        missing = [f for f in ("financebench_id", "question", "answer", "doc_name") if not isinstance(row.get(f), str)]
        if missing:
            problems.extend(Problem(str(path), lineno, f, "missing or not a string") for f in missing)
            continue
        doc = row["doc_name"]
        company = row.get("company") or _company_of(doc, info)
        if doc in documents:
            kind = "answerable"
        elif company in companies or _company_of(doc, info) in companies:
            kind = "ambiguous"
        else:
            kind = "negative"
        evidence, pages = [], set()
        for ev in row.get("evidence") or []:
            page = ev.get("evidence_page_num")
            page = page + 1 if isinstance(page, int) else None  # upstream is zero-indexed
            ev_doc = ev.get("evidence_doc_name") or doc
            for text in (ev.get("evidence_text"), ev.get("evidence_text_full_page")):
                if isinstance(text, str) and text.strip():
                    evidence.append(Evidence(doc_id=ev_doc, page=page, text=text))
            if ev_doc == doc and page is not None:
                pages.add(page)
        key, must = answer_key(row["answer"])
        try:
            q = Question(
                id=row["financebench_id"],
                text=row["question"],
                kind=kind,
                question_type=row.get("question_type"),
                gold_answer=row["answer"],
                golden_docs=[doc] if kind == "answerable" else [],
                golden_pages={doc: sorted(pages)} if kind == "answerable" and pages else {},
                money_key=key,
                must_contain=must,
                evidence=evidence,
                polarity=polarity_of(row["question"], row["answer"]),
            )
        except ValidationError as err:
            problems.extend(validation_problems(err, str(path), lineno))
            continue
        if q.id in seen:
            problems.append(Problem(str(path), lineno, "financebench_id", f"duplicate question id {q.id!r}"))
            continue
        seen.add(q.id)
        questions.append(q)
    return LoadedQuestions(questions, sorted(problems, key=lambda p: (p.file, p.line)))
