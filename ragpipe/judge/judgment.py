"""One judgment: what a judge said about one answer, keyed by what it saw and who it was.

The `judgments` table holds one row per (judge_id, input_key): the raw reply, the verdict (correct,
incorrect, declined, or unparsed), the one-sentence reason, tokens and latency. The input key hashes
what the judge sees of an answer (the question's kind, its text, the gold answer, the answer text), so
a rules change that alters none of that finds every judgment stored and asks nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from ragpipe.corpus.questions import Question
from ragpipe.inputs.fingerprint import judge_input_key
from ragpipe.warehouse.row import Record


@dataclass(slots=True)
class JudgmentRecord(Record):
    judge_id: str  # JudgeIdentity.id
    input_key: str  # input_key(...)
    judge: str  # the configuration's name, or the recorded verdicts' judge name
    identity: str  # the JudgeIdentity as JSON: model, prompts' hash, parameters
    question_id: str
    verdict: str  # correct | incorrect | declined | unparsed
    reason: str | None
    raw: str | None  # the reply as the endpoint sent it (redacted), or the recorded line
    prompt_tokens: int | None
    completion_tokens: int | None
    latency_ms: float | None
    source: str  # api | batch | recorded
    cost: float | None = None  # at the configuration's prices when asked; None for recorded verdicts


def gold_for_judge(question: Question) -> str:
    """The gold as the judge reads it: the gold answer, and any other accepted forms."""
    others = [f for f in question.must_contain_any if f != question.gold_answer][:10]
    return question.gold_answer + (f" (also accepted: {'; '.join(others)})" if others else "")


def input_key(question: Question, answer: str) -> str:
    """The hash of what the judge sees of `answer` to `question`."""
    return judge_input_key(question.kind, question.text, gold_for_judge(question), answer)
