"""The Open RAG Benchmark adapter on a benchmark in its exact upstream layout, written by the test: a
seeded draw of golden papers, distractors and negatives; qrels at paper and section level; needles kept
only where the golden section holds them; and the whole pipeline on it from `ragpipe run --data-dir`."""

from __future__ import annotations

import json

import duckdb
import pandas as pd
import pytest

from ragpipe.corpus.adapters import pdf_folder, read_corpus_questions
from ragpipe.corpus.adapters.openragbench import draw
from ragpipe.corpus.manifest import Sample, list_corpora
from ragpipe.corpus.needle_mining import mine_needles
from tests.commands import env_for, ragpipe
from tests.conftest import ROOT
from tests.openragbench_layout import write_layout


@pytest.fixture(scope="module")
def layout(tmp_path_factory):
    return write_layout(tmp_path_factory.mktemp("open-rag-bench"))


def _manifest(monkeypatch, layout, **sample):
    monkeypatch.setenv("RAGPIPE_OPENRAGBENCH_DIR", str(layout))
    manifest = list_corpora(ROOT / "corpora")["openragbench"]
    return manifest.model_copy(update={"sample": Sample(**sample)}) if sample else manifest


def _json(layout, name):
    return json.loads((layout / f"{name}.json").read_text())


def test_the_draw_is_seeded_and_keeps_golden_distractor_and_negative_apart(layout):
    qrels = _json(layout, "qrels")
    papers = sorted(p.stem for p in (layout / "pdfs").glob("*.pdf"))
    sample = Sample(golden=5, distractors=4, negatives=6, per_paper=2, seed=3)
    one = draw(qrels, papers, sample)
    assert one == draw(qrels, papers, sample)  # one seed, one corpus
    assert one != draw(qrels, papers, sample.model_copy(update={"seed": 4}))
    assert (len(one.golden), len(one.distractors), len(one.answerable), len(one.negatives)) == (5, 4, 10, 6)
    assert not set(one.golden) & set(one.distractors) and set(one.golden + one.distractors) <= set(papers)
    assert {qrels[q]["doc_id"] for q in one.answerable} == set(one.golden)
    left_out = {qrels[q]["doc_id"] for q in one.negatives}
    assert not left_out & set(one.golden + one.distractors)  # a negative's paper is nowhere in the corpus
    asked = {qrels[q]["doc_id"] for q in one.answerable + one.negatives}
    assert not asked & set(one.distractors)  # no question is about a distractor


def test_the_corpus_folder_links_the_drawn_pdfs_and_the_questions_carry_both_qrels(layout, tmp_path, monkeypatch):
    manifest = _manifest(monkeypatch, layout, golden=4, distractors=3, negatives=5, per_paper=3, seed=1)
    folder = pdf_folder(manifest, tmp_path)
    linked = sorted(p.stem for p in folder.glob("*.pdf"))
    assert len(linked) == 7 and all(
        (folder / f"{d}.pdf").resolve().parent == (layout / "pdfs").resolve() for d in linked
    )
    loaded = read_corpus_questions(manifest, set(linked))
    assert loaded.problems == []
    answerable = [q for q in loaded.questions if q.kind == "answerable"]
    negatives = [q for q in loaded.questions if q.kind == "negative"]
    assert (len(answerable), len(negatives)) == (12, 5)
    qrels, papers = _json(layout, "qrels"), {}
    for q in answerable:
        doc, section = qrels[q.id]["doc_id"], qrels[q.id]["section_id"]
        papers.setdefault(doc, json.loads((layout / "corpus" / f"{doc}.json").read_text()))
        assert q.golden_docs == [doc] and doc in linked
        assert [e.text for e in q.evidence] == [papers[doc]["sections"][section]["text"]]  # the section qrel
        assert q.question_type in ("abstractive", "extractive")
    assert all(q.golden_docs == [] and qrels[q.id]["doc_id"] not in linked for q in negatives)
    smaller = manifest.model_copy(update={"sample": Sample(golden=2, distractors=0, negatives=0, per_paper=1)})
    assert len(list(pdf_folder(smaller, tmp_path).glob("*.pdf"))) == 2  # another draw: the other links go


def test_needles_are_kept_only_where_the_golden_section_holds_them(layout, tmp_path, monkeypatch):
    """A name the paper states in another section is no key to this section's question."""
    manifest = _manifest(monkeypatch, layout, golden=1, distractors=0, negatives=0, per_paper=6, seed=0)
    docs = {p.stem for p in pdf_folder(manifest, tmp_path).glob("*.pdf")}
    questions = {q.id: q for q in read_corpus_questions(manifest, docs).questions}
    (doc,) = docs
    paper = json.loads((layout / "corpus" / f"{doc}.json").read_text())
    qrels = _json(layout, "qrels")
    asks_data = next(q for q in questions.values() if qrels[q.id]["section_id"] == 0 and "data set" in q.text)
    elsewhere = paper["sections"][1]["text"].split(" on the ")[1].split(",")[0]  # stage 2's data set
    assert elsewhere not in paper["sections"][0]["text"]
    moved = asks_data.model_copy(update={"gold_answer": f"The {elsewhere}."})
    pages = pd.DataFrame(
        [[doc, i + 1, s["text"]] for i, s in enumerate(paper["sections"])], columns=["doc_id", "page", "text"]
    )
    right = mine_needles("openragbench", [asks_data], pages)
    wrong = mine_needles("openragbench", [moved], pages)
    named = right[(right["kind"] == "name") & (right["status"] == "kept")]
    assert len(named) and all(n in paper["sections"][0]["text"] for n in named["needle"])
    assert set(wrong.loc[wrong["kind"] == "name", "status"]) == {"rejected"}
    model = asks_data.text.rsplit(" of ", 1)[1].rstrip("?")  # named by the question: asked, so no key
    naming = mine_needles("openragbench", [asks_data.model_copy(update={"gold_answer": f"{model} used it."})], pages)
    in_question = naming[[model.lower() in n.lower() for n in naming["needle"]]]
    assert len(in_question) and set(in_question["status"]) == {"rejected"}


def test_a_passage_is_located_on_the_pages_that_hold_it():
    from ragpipe.corpus.passages import passage_pages

    words = [f"w{i}" for i in range(60)]
    passage = " ".join(words[10:50])
    pages = pd.DataFrame(
        {
            "page": [1, 2, 3, 4],
            "text": [
                " ".join(words[:30]),  # the passage's first 20 words, with other text
                " ".join(words[30:]).upper() + ".",  # the rest, in other case and punctuation
                "An unrelated page that shares " + " ".join(words[12:16]) + " and little else.",
                "",
            ],
        }
    )
    assert passage_pages(passage, pages) == [1, 2]
    assert passage_pages("", pages) == [] and passage_pages("w3 w4", pages) == [1]


@pytest.mark.end_to_end
def test_ragpipe_run_on_the_layout_grades_every_drawn_question(layout, tmp_path):
    env = env_for(tmp_path)
    done = ragpipe(env, "run", "--corpus", "openragbench", "--config", "default", "--data-dir", str(layout))
    assert done.returncode == 0, done.stdout + done.stderr
    with duckdb.connect(str(tmp_path / "wh" / "ragpipe.duckdb"), read_only=True) as conn:
        kinds = dict(conn.execute("SELECT kind, count(*) FROM questions GROUP BY 1").fetchall())
        documents = conn.execute("SELECT count(*) FROM documents").fetchall()[0][0]
        graded = conn.execute("SELECT count(*) FROM grades").fetchall()[0][0]
        retrieval = conn.execute("SELECT count(*), count(doc_recall_at_k) FROM retrieval").fetchall()[0]
        golden_pages = dict(
            conn.execute("SELECT question_id, golden_pages FROM questions WHERE kind = 'answerable'").fetchall()
        )
        page_hits = conn.execute("SELECT count(page_hit_at_k) FROM retrieval").fetchall()[0][0]
        outside = conn.execute(
            "SELECT count(*) FROM needles n JOIN questions q USING (corpus, question_id) "
            "WHERE n.status = 'kept' AND n.source = 'gold_text' AND strpos(q.text, n.needle) > 0"
        ).fetchall()[0][0]
    sample = list_corpora(ROOT / "corpora")["openragbench"].sample
    assert kinds == {"answerable": sample.golden * sample.per_paper, "negative": sample.negatives}
    assert documents == sample.golden + sample.distractors
    assert graded == sum(kinds.values()) and retrieval[0] == retrieval[1] == kinds["answerable"]
    assert outside == 0  # no kept needle is in its question
    qrels = _json(layout, "qrels")  # each invented section is one page of its PDF: the section qrel is that page
    assert {q: json.loads(p) for q, p in golden_pages.items()} == {
        q: {qrels[q]["doc_id"]: [qrels[q]["section_id"] + 1]} for q in golden_pages
    }
    assert page_hits == kinds["answerable"]  # so retrieval is scored at section level too
    missing = ragpipe(
        env_for(tmp_path, RAGPIPE_OPENRAGBENCH_DIR=str(tmp_path / "nowhere")), "run", "--corpus", "openragbench"
    )
    assert missing.returncode == 1 and "huggingface.co/datasets/vectara/open_ragbench" in missing.stderr
