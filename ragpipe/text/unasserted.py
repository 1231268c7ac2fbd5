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

A figure is taken back, figure by figure, where an answer binds figures to what it states them as
(text/measures.py, text/money_statement.py): denied in its own clause ("They do not owe $44,322; they owe
$50,123", "not $X but $Y"), or withdrawn by a correction between it and the next figure ("$44,322,
actually no, they owe $51,377", "$48.75, sorry, $61.20"). These are read only where figures are bound,
not blanked for every check as the spans above are.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from ragpipe.text.figures import Figure
from ragpipe.text.lists import LIST_COMMA
from ragpipe.text.sentences import iter_sentences

# "either" opens a hedge when "or" follows inside the same clause (read one sentence at a time: a stop
# inside a figure, "$1.5 million", is no boundary; an initial's, "H.R. Haldeman", is one, as everywhere);
# "either way", "either of them", "on either side" are not a disjunction's opening
_HEDGE = re.compile(
    r"\beither\s+(?!(?:way|of|side|case|one|kind|type)\b)(?P<first>[^;:!?\n]{1,120}?)\s*,?\s+\bor\s+"
    r"(?P<last>(?:(?<=\d),(?=\d)|[^;:!?\n,()]){1,80})",  # a thousands separator is no clause's end
    re.I,
)
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
        for sep in [*LIST_COMMA.finditer(first), None]:
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


# a denial in the figure's own clause, before it: "do not owe $44,322", "not $X but $Y", "never paid $X"
_FIGURE_DENIAL = re.compile(r"\b(?:not|never|no\s+longer|isn't|wasn't|aren't|weren't|don't|doesn't|didn't|n't)\b", re.I)
_NOT_A_FIGURE_DENIAL = re.compile(r"\b(?:not|n't)\s+(?:only|just|less|more|over|under|below|above|including)\b", re.I)
# a correction after a figure, before the next one: the first figure is withdrawn
_FIGURE_CORRECTION = re.compile(
    r"^[\s,;:.\u2014\u2013-]*(?:(?:no|nope|wait|oops|sorry|correction|rather|or rather|i mean|i meant|make that"
    r"|scratch that|actually|that is wrong|that's wrong|my mistake|err?)\b[\s,;:.!\u2014\u2013-]*)+",
    re.IGNORECASE,
)
_MAX_CORRECTION = 80  # characters between a figure and the one that corrects it


def _figure_clause_start(offset: int, ends: list[int]) -> int:
    i = bisect_right(ends, offset) - 1
    return ends[i] if i >= 0 else 0


def figure_denied(text: str, f: Figure, ends: list[int]) -> bool:
    """A denial stands in the figure's own clause before it ("They do not owe $44,322", "not $X but $Y")."""
    head = text[_figure_clause_start(f.start, ends) : f.start]
    # "not" ends no clause, but "but" does: "not $X but $Y" denies X only
    return _FIGURE_DENIAL.search(head) is not None and _NOT_A_FIGURE_DENIAL.search(head) is None


def figure_withdrawn(text: str, f: Figure, following: Figure | None) -> bool:
    """A correction follows the figure, and another money figure follows the correction: "$44,322,
    actually no, they owe $51,377", "$48.75, sorry, $61.20"."""
    if following is None or following.start - f.end > _MAX_CORRECTION:
        return False
    return _FIGURE_CORRECTION.match(text[f.end : following.start]) is not None


def retracted_figures(text: str, figures: list[Figure], ends: list[int]) -> set[int]:
    """The starts of the figures of `text` it denies or withdraws (`figures` in order, `ends`: its clause ends)."""
    return {
        f.start
        for i, f in enumerate(figures)
        if figure_denied(text, f, ends) or figure_withdrawn(text, f, figures[i + 1] if i + 1 < len(figures) else None)
    }
