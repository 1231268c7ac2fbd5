"""What an answer says without asserting it: a hedge between candidates, a statement it corrects, a
name or figure it denies.

"It was either Ohio or Iowa" names Ohio without saying it is the answer: a disjunction asserts none of
its alternatives. "Paris. Correction: Lyon" names Paris and takes it back: the answer asserts the
last. Like the sources' voice (voice.py), both are blanked out of the text the checks read, so a
needle, a figure or a yes/no found there is mentioned, not asserted; offsets stay the answer's.

A hedge is marked by "either ... or ..." inside one clause: a bare "or" between names mostly names one
thing twice ("Jupiter or Zeus", "Orca or Killer Whale"), and people accept it. A hedge between
alternatives that are each a right answer (asked to "name either of" two men, the answer names both)
is right whichever it is: the needle count credits it (`Hedge.alternatives`), nothing else does.

A correction is a sentence that opens with "Correction:" (the sentence before it is taken back) or a
clause ", I mean ..." / ", sorry, I meant ..." (the clause before it, back to its sentence's start).

A denial is the contrast "A, not B": "French fries come from Belgium, not France or Switzerland" names
Switzerland to deny it. Only a name or a figure is read as denied (the word after "not" opens with a
capital, a digit or a currency sign): ", not get him wet" is an instruction, not a contrast.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragpipe.text.sentences import iter_sentences

# "either" opens a hedge when "or" follows inside the same clause (read one sentence at a time: a stop
# inside a figure, "$1.5 million", is no boundary; an initial's, "H.R. Haldeman", is one, as everywhere);
# "either way", "either of them", "on either side" are not a disjunction's opening
_HEDGE = re.compile(
    r"\beither\s+(?!(?:way|of|side|case|one|kind|type)\b)(?P<first>[^;:!?\n]{1,120}?)\s*,?\s+\bor\s+"
    r"(?P<last>(?:(?<=\d),(?=\d)|[^;:!?\n,()]){1,80})",  # a thousands separator is no clause's end
    re.I,
)
_LIST_SEP = re.compile(r"\s*(?:(?<!\d),|,(?!\d))\s*")  # a list's comma, not a thousands separator
_CORRECTION = re.compile(r"correction\s*[:\u2014-]\s*", re.I)
# ", not France or Switzerland" / "-- not 1934": the denied name or figure, to its clause's end
_DENIED = re.compile(
    r"(?:,|\u2014|--)\s*not\s+(?P<denied>(?:the\s+)?[A-Z$\u20ac\u00a3\d]"
    r"(?:(?!\s(?:and|but|which|who|because)\s)(?:(?<=\d)[.,](?=\d)|[^.;:!?\n(),])){0,80})"  # "$6.5 million" whole
)
_MEANT = re.compile(r"[,\u2014-]\s*(?:sorry\s*,\s*)?i\s+(?:mean|meant)\b[,:]?\s*", re.I)


@dataclass(frozen=True)
class Hedge:
    """One "either ... or ..." clause: its span, and each alternative's span."""

    start: int
    end: int
    alternatives: tuple[tuple[int, int], ...]


def hedges(text: str) -> list[Hedge]:
    """The "either A, B or C" clauses of `text`, each alternative a span of `text`."""
    out = []
    for m in (m for start, end in iter_sentences(text) for m in _HEDGE.finditer(text, start, end)):
        alternatives = []
        first_start, first = m.start("first"), m.group("first")
        pos = 0
        for sep in [*_LIST_SEP.finditer(first), None]:
            end = len(first) if sep is None else sep.start()
            if first[pos:end].strip():
                alternatives.append((first_start + pos, first_start + end))
            if sep is not None:
                pos = sep.end()
        last_end = m.start("last") + len(m.group("last").rstrip().rstrip("."))
        alternatives.append((m.start("last"), last_end))
        if len(alternatives) >= 2:
            out.append(Hedge(m.start(), last_end, tuple(alternatives)))
    return out


def corrected(text: str) -> list[tuple[int, int]]:
    """Spans of `text` taken back by a correction after them."""
    out = []
    previous: tuple[int, int] | None = None
    for start, end in iter_sentences(text):
        lead = len(text[start:end]) - len(text[start:end].lstrip())
        if previous is not None and _CORRECTION.match(text, start + lead):
            out.append(previous)
        for m in _MEANT.finditer(text, start, end):
            out.append((start, m.start()))
        previous = (start, end)
    return out


def denied(text: str) -> list[tuple[int, int]]:
    """Spans of the names and figures `text` denies in a contrast ("Belgium, not France")."""
    return [(m.start("denied"), m.start("denied") + len(m.group("denied").rstrip())) for m in _DENIED.finditer(text)]


def unasserted(text: str) -> tuple[list[Hedge], list[tuple[int, int]]]:
    """The hedges of `text`, and every span it does not assert (its hedges, the statements it corrects,
    the names and figures it denies)."""
    lowered = text.lower()  # all are rare: most answers are looked at no further than this
    found = hedges(text) if "either" in lowered else []
    taken_back = corrected(text) if "correction" in lowered or " mean" in lowered else []
    denials = denied(text) if "not " in lowered else []  # ", not B" and an em dash's "not B" alike
    return found, [(h.start, h.end) for h in found] + taken_back + denials
