"""The batch path: judgments still missing as a batch request file, and judgments recorded elsewhere.

`batch_requests` writes OpenAI's batch input format, one request per line, `custom_id` the judgment's
key (`<judge_id>:<input_key>`). `read_judgments` reads a file of either kind, line by line:

- a batch **output** line (`custom_id`, `response.body` a chat completion): its judge is the
  configuration that exported it (the key's judge_id must be that configuration's);
- a **recorded verdict** line: `{"question_id", "answer" (the exact answer text), "verdict": correct |
  incorrect | declined ("refusal" accepted), "judge": <name>, "reason"}`, judged elsewhere, with no
  prompt or parameters: its identity is the judge name, recorded.

A bad line is a problem naming file, line and field; the other lines load.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ragpipe.corpus.questions import Question, validation_problems
from ragpipe.inputs.jsonl import read_jsonl
from ragpipe.inputs.problems import Problem
from ragpipe.judge.ask import NoReply, judgment_of, request_body
from ragpipe.judge.config import JudgeConfig, JudgeIdentity, recorded_identity
from ragpipe.judge.judgment import JudgmentRecord, input_key
from ragpipe.judge.reply import DECLINED, VERDICTS

DECIDES_NO_VERDICT = "reads and writes judgment files; apply.py decides what a judgment makes of a grade"
BATCH_URL = "/v1/chat/completions"


def batch_requests(
    config: JudgeConfig, identity: JudgeIdentity, pending: list[tuple[Question, str, str]]
) -> list[dict]:
    """One batch input line per (question, answer, input key) still missing a judgment."""
    return [
        {
            "custom_id": f"{identity.id}:{key}",
            "method": "POST",
            "url": BATCH_URL,
            "body": request_body(config, question, answer),
        }
        for question, answer, key in pending
    ]


class RecordedVerdict(BaseModel):
    """One verdict judged elsewhere, for one answer."""

    model_config = ConfigDict(extra="ignore")
    question_id: str = Field(min_length=1)
    answer: str
    verdict: str
    judge: str = Field(min_length=1)
    reason: str | None = None

    @field_validator("verdict")
    @classmethod
    def _known(cls, value: str) -> str:
        value = DECLINED if value.strip().lower() == "refusal" else value.strip().lower()
        if value not in VERDICTS:
            raise ValueError(f"expected one of {', '.join(VERDICTS)} (or refusal), not {value!r}")
        return value


def read_judgments(
    path: Path, questions: dict[str, Question], exporter: tuple[JudgeConfig, JudgeIdentity] | None = None
) -> tuple[list[JudgmentRecord], list[Problem]]:
    """The judgments in `path` (batch output or recorded verdicts), with a problem for each bad line.
    `questions` by id are what recorded verdicts are keyed against; `exporter` is the judge that wrote
    the batch requests (needed for batch output lines)."""
    problems: list[Problem] = []
    out: list[JudgmentRecord] = []
    for line, raw in read_jsonl(path, problems):
        if "custom_id" in raw:
            judgment = _batch_output(raw, exporter, str(path), line, problems)
        else:
            judgment = _recorded(raw, questions, str(path), line, problems)
        if judgment is not None:
            out.append(judgment)
    return out, problems


def _batch_output(raw: dict, exporter, file: str, line: int, problems: list[Problem]) -> JudgmentRecord | None:
    custom_id = str(raw.get("custom_id"))
    if exporter is None:
        problems.append(
            Problem(file, line, "custom_id", "a batch output line: name the judge that exported it (--judge)")
        )
        return None
    config, identity = exporter
    judge_id, _, key = custom_id.partition(":")
    if judge_id != identity.id or not key:
        problems.append(
            Problem(
                file, line, "custom_id", f"{custom_id!r} was not exported by judge {identity.name!r} ({identity.id})"
            )
        )
        return None
    response = raw.get("response") or {}
    body = response.get("body") if isinstance(response, dict) else None
    if not isinstance(body, dict) or response.get("status_code", 200) != 200:
        problems.append(Problem(file, line, "response", f"no successful reply: {str(raw.get('error'))[:200]}"))
        return None
    try:
        return judgment_of(identity, "", key, body, None, "batch", config)
    except NoReply as exc:
        problems.append(Problem(file, line, "response", f"{exc}: not imported, asked again by the next export"))
        return None


def _recorded(raw: dict, questions: dict[str, Question], file: str, line: int, problems) -> JudgmentRecord | None:
    try:
        row = RecordedVerdict.model_validate(raw)
    except ValidationError as err:
        problems.extend(validation_problems(err, file, line))
        return None
    question = questions.get(row.question_id)
    if question is None:
        problems.append(Problem(file, line, "question_id", f"unknown question {row.question_id!r}"))
        return None
    identity = recorded_identity(row.judge)
    return JudgmentRecord(
        judge_id=identity.id,
        input_key=input_key(question, row.answer),
        judge=row.judge,
        identity=identity.model_dump_json(),
        question_id=row.question_id,
        verdict=row.verdict,
        reason=row.reason,
        raw=None,
        prompt_tokens=None,
        completion_tokens=None,
        latency_ms=None,
        source="recorded",
    )
