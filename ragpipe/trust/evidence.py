"""What a verdict rests on, as named numbers: the confidence model's inputs.

Read from the grade (what it says, its deciding check and rule, whether the rules call it exact, the
spans it matched), the question (its kind, its gold answer's words) and the answer (its length, its
figures, where a decline stands). Nothing here is fitted: each feature is evidence a reader would weigh,
and the model (trust/confidence.py) learns how much from people's labels.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from ragpipe.text.tokenize import tokenize, tokens_among

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_AMBIGUOUS = "ambiguous."  # grading/outcomes.py: an ambiguous question's answerable rules carry it


@dataclass(frozen=True, slots=True)
class Verdict:
    """The parts of a grade the evidence reads (a grade row's columns of the same names)."""

    kind: str  # the question's kind as graded
    verdict: str  # correct | partial | wrong | ungradable
    declined: bool
    rule: str
    exact: bool  # the rules' own firmness: exact evidence (grading/checks/view.py: Finding.firm)
    matched: tuple[dict, ...]


def says(kind: str, verdict: str, declined: bool) -> str:
    """What the verdict tells a person, on the scale people judge it by: for a question that may be
    declined (negative, ambiguous) whether the answer declined; else whether it is correct."""
    if declined:
        return "declined"
    if kind != "answerable":
        return "answered"
    return "correct" if verdict == "correct" else "not_correct"


def agrees(kind: str, said: str, person_correct: bool, person_declined: bool) -> bool:
    """Whether a person classes the answer as the verdict does (`said`: what it says, `says()`)."""
    if kind != "answerable":
        return (said == "declined") == person_declined
    return (said == "correct") == person_correct


@lru_cache(maxsize=8192)  # a question's gold forms, once for all its answers
def _gold_words(golds: tuple[str, ...]) -> tuple[tuple[frozenset[str], ...], frozenset[str]]:
    forms = tuple(w for w in (frozenset(tokenize(g)) for g in golds) if w)
    return forms, frozenset().union(*forms)


def gold_cover(answer: str, golds: tuple[str, ...]) -> float | None:
    """The largest share of one gold form's words the answer carries (None: no gold form has words)."""
    forms, every = _gold_words(golds)
    if not forms:
        return None
    have = tokens_among(answer, every)
    return max(len(w & have) / len(w) for w in forms) if have else 0.0


def evidence_of(v: Verdict, golds: tuple[str, ...], answer: str) -> dict[str, float]:
    """The named features of one verdict on `answer`; `golds`: the gold answer and its accepted forms.
    Numeric features are named with what the verdict says, so the same evidence can speak for one
    verdict and against another (a gold word in an answer graded wrong)."""
    rule = v.rule.removeprefix(_AMBIGUOUS)
    said = says(v.kind, v.verdict, v.declined)
    exactness = "exact" if v.exact else "loose"
    found: dict[str, float] = {
        f"kind={v.kind}": 1.0,
        f"says={said}": 1.0,
        f"check={rule.split('.')[0]}": 1.0,
        f"rule={rule}:{exactness}": 1.0,
        f"{exactness}|says={said}": 1.0,
    }
    cover = gold_cover(answer, golds)
    if cover is None:
        found["no_gold"] = 1.0
    else:
        found[f"gold_cover|says={said}"] = cover
    found[f"length|says={said}"] = min(math.log1p(len(answer.split())) / math.log(1000), 1.5)
    found[f"figures|says={said}"] = min(len(_NUMBER.findall(answer)), 10) / 10
    spans = [s for s in v.matched if isinstance(s, dict)]
    if any(s.get("reading") for s in spans):
        found["lenient"] = 1.0
    declines = [s for s in spans if s.get("kind") == "decline"]
    if declines and answer:
        first, last = min(s["start"] for s in declines), max(s["end"] for s in declines)
        found[f"decline_at|says={said}"] = first / len(answer)
        found[f"after_decline|says={said}"] = max(0, len(answer) - last) / len(answer)
    return found
