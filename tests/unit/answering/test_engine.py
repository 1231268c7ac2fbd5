"""The extractive engine: answers with citations from retrieved text, declines without support."""

import pytest

from ragpipe.answering.engines import RetrievalContext, make_engine
from ragpipe.answering.engines.extractive import DECLINE
from ragpipe.corpus.questions import Question
from ragpipe.retrieval.chunking import chunk_pages
from ragpipe.retrieval.index import ChunkIndex


@pytest.fixture(scope="module")
def context(demo_ingested):
    chunks = chunk_pages(demo_ingested.pages, "demo", "t", 200, 40)
    return RetrievalContext(ChunkIndex.build(chunks), chunks.set_index("chunk_id"), 5)


def ask(context, text, **settings):
    return make_engine("extractive", settings).answer(Question(id="x", text=text, kind="answerable"), context)


def test_answers_with_the_supporting_sentence_and_a_citation(context):
    a = ask(context, "What amount is due on the Northgate Home Security bill?")
    assert a.answer == "Amount due: $26.99 [1]"
    assert a.citations == ["home-security-bill"] and a.cited_chunks[0].startswith("home-security-bill#")


def test_declines_when_the_corpus_does_not_cover_the_question(context):
    a = ask(context, "What is the annual premium of the Rileys' pet insurance plan?")
    assert a.answer == DECLINE and a.citations == []


def test_support_threshold_is_a_setting(context):
    text = "Which company issued Casey Riley's earnings statement?"
    assert ask(context, text, min_support=0.6).answer == DECLINE
    assert ask(context, text, min_support=0.2).answer != DECLINE


def test_unknown_engine_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown engine 'gpt'"):
        make_engine("gpt")


def test_engine_errors_become_rows_not_crashes(context, demo_questions):
    from ragpipe.answering.run import answer_questions

    class Broken:
        name = "broken"
        settings = {}

        def answer(self, question, ctx):
            raise TimeoutError("engine took too long")

    frame = answer_questions(Broken(), demo_questions[:3], context, "demo", "t", "broken", {})
    assert len(frame) == 3 and frame["error"].str.contains("engine took too long").all()
