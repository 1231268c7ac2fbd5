"""A small Open RAG Benchmark in exactly its upstream layout (queries.json, answers.json, qrels.json,
corpus/<doc_id>.json, pdfs/<doc_id>.pdf), written by the tests: invented papers, real PDFs."""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path

from fpdf import FPDF

NAMES = ["Zorblax", "Quillon", "Marvek", "Tessaly", "Brindle", "Copperjay", "Ostrava", "Velloc", "Gantry", "Sorrel"]
DATASETS = ["Heliotrope", "Pinewick", "Larkspur", "Cobaltine", "Meridale", "Thornbury", "Ashgrove", "Wrenfield"]


def paper_id(i: int) -> str:
    return f"2401.{10000 + i:05d}v1"


def _sections(i: int, rng: random.Random) -> list[dict]:
    """Three sections per paper, each stating facts a question asks about."""
    model = f"{NAMES[i % len(NAMES)]}-{i}"
    out = []
    for s in range(3):
        epochs, layers = rng.randint(11, 99), rng.randint(3, 48)
        data = f"{DATASETS[(i + s) % len(DATASETS)]} {rng.choice(['Archive', 'Collection', 'Corpus'])}"
        text = (
            f"#### {['Introduction', 'Method', 'Experiments'][s]}\n"
            f"In this part of the paper the {model} network is described in stage {s + 1}. "
            f"Stage {s + 1} of {model} was trained for {epochs} epochs on the {data}, "
            f"and its encoder stacks {layers} layers of attention."
        )
        qa = [
            {"query": f"For how many epochs was stage {s + 1} of {model} trained?", "answer": f"{epochs} epochs"},
            {"query": f"Which data set was used to train stage {s + 1} of {model}?", "answer": f"The {data}."},
        ]
        out.append({"text": text, "tables": {}, "images": {}, "qa_pairs": qa})
    return out


def _pdf(path: Path, title: str, sections: list[dict]) -> None:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    for section in sections:
        pdf.add_page()
        pdf.multi_cell(0, 7, f"{title}\n\n{section['text'].replace('#### ', '')}")
    pdf.output(str(path))


def write_layout(folder: Path, papers: int = 36, without_pdf: int = 2, seed: int = 7) -> Path:
    """`papers` invented papers, the last `without_pdf` of them without a PDF; returns `folder`."""
    rng = random.Random(seed)
    ids = random.Random(seed)
    (folder / "corpus").mkdir(parents=True, exist_ok=True)
    (folder / "pdfs").mkdir(exist_ok=True)
    queries, answers, qrels = {}, {}, {}
    for i in range(papers):
        doc, sections = paper_id(i), _sections(i, rng)
        for s, section in enumerate(sections):
            for qa in section.pop("qa_pairs"):
                qid = str(uuid.UUID(int=ids.getrandbits(128), version=4))
                kind = "abstractive" if s == 0 else "extractive"
                queries[qid] = {"query": qa["query"], "type": kind, "source": "text"}
                answers[qid] = qa["answer"]
                qrels[qid] = {"doc_id": doc, "section_id": s}
        paper = {
            "title": f"On {NAMES[i % len(NAMES)]}-{i}",
            "sections": [{**x, "section_id": n} for n, x in enumerate(sections)],
        }
        (folder / "corpus" / f"{doc}.json").write_text(json.dumps(paper))
        if i < papers - without_pdf:
            _pdf(folder / "pdfs" / f"{doc}.pdf", paper["title"], sections)
    for name, data in (("queries", queries), ("answers", answers), ("qrels", qrels)):
        (folder / f"{name}.json").write_text(json.dumps(data))
    return folder
