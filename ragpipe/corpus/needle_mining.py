"""Mine needles (what a correct answer must carry) from gold answers, with provenance.

Candidates come from the gold answer: money and other figures (compared by
value: `$1,577.00` meets `1,577`), percentages, years only when the year is
the answer, quoted strings, capitalised names and acronyms, and distinctive
words. A candidate is **kept** only if the gold text contains it (golden
pages, else the golden document, plus upstream evidence passages) and the
question does not; otherwise it is **rejected** with the reason. One
exception: a figure of the gold answer that the gold text lacks is kept
with source `gold_answer_computed` (a ratio, a difference, a total is
computed from the filing, never printed in it), unless it is part of a date
or a period ("12 months"). Names and words absent from the gold text stay
rejected: a gold answer can name what its document does not say. Two more
candidates come from the gold answer itself: a short gold answer whole
("Customer deposits"), and the option a choice question's gold answer picks
("increase or decrease?" -> "increase", kept although the question names
it, with source `gold_answer`). Every candidate is a row, with where in the
gold text a kept one was found.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ragpipe.corpus.questions import Question
from ragpipe.text.dates import DAY_MONTH, MONTH_DAY, find_date, full_dates
from ragpipe.text.figures import Figure, find_figures, parse_figure
from ragpipe.text.labels import line_label, page_labels
from ragpipe.text.matching import find_figure_loosely, find_phrase, find_stem
from ragpipe.text.money import key_of
from ragpipe.text.names import MINED_NAME
from ragpipe.text.needle_kinds import COMPUTED, FIGURE_KINDS, STATED_KINDS, NeedleKind, figure_kind
from ragpipe.text.quotes import quoted_phrases
from ragpipe.text.stated import GOLD_SAYS
from ragpipe.text.tokenize import STOPWORDS, tokenize
from ragpipe.text.words import PHRASE_WORD
from ragpipe.warehouse.row import Record


@dataclass(slots=True)
class NeedleRecord(Record):
    """One candidate needle of a question's gold answer: kept with where it was found, or rejected with why."""

    corpus: str
    question_id: str
    needle: str
    kind: str  # a figure (money, number, percent, year), or name, term, option, answer
    value: str | None  # a figure's value, normalized
    status: str  # kept | rejected
    reason: str
    source: str | None = None  # gold_text, gold_answer, or COMPUTED (kept from the gold answer alone)
    doc_id: str | None = None
    page: int | None = None
    char_offset: int | None = None
    # the money key's needle: the label its document gives it on its line ("Amount due"), and the labels
    # the same page gives its other amounts, as JSON [[label, figure], ...] (text/labels.py)
    label: str | None = None
    page_labels: str | None = None


TOO_COMMON_SHARE = 0.5  # a word in more than half the corpus's documents names nothing in particular
MIN_COMMON_DOCS = 3  # ... and commonness needs documents to compare: below three, no word is too common

_CLAUSE = re.compile(r"[.,;:()\[\]\n!?\"\u201c\u201d]+")
_YES_NO = {"yes", "no"}
# words that join phrases rather than belong to them
_CONNECTORS = {
    "like",
    "such",
    "using",
    "via",
    "also",
    "well",
    "including",
    "especially",
    "per",
    "etc",
    "versus",
    "vs",
    "without",
    "within",
    "across",
    "among",
    "toward",
    "towards",
    "whether",
    "however",
    "therefore",
    "thus",
}


@dataclass(frozen=True)
class GoldText:
    doc_id: str
    page: int | None
    text: str
    source: str  # "page" (our extraction) or "evidence" (the upstream passage)


def gold_pages(question: Question, pages: pd.DataFrame) -> pd.DataFrame:
    """The golden pages where known, else all pages of the golden documents."""
    docs = pages[pages["doc_id"].isin(question.golden_docs)]
    if question.golden_pages:
        wanted = {(d, p) for d, ps in question.golden_pages.items() for p in ps}
        return docs[[(d, p) in wanted for d, p in zip(docs["doc_id"], docs["page"])]]
    return docs


def gold_texts(question: Question, pages: pd.DataFrame) -> list[GoldText]:
    """Where a needle must be found: the golden pages (or documents) plus upstream evidence passages;
    the passages alone when none has a page (a benchmark's golden section, narrower than its paper and
    than the pages it lies on: a word elsewhere in the paper is no key to it)."""
    if question.evidence and all(e.page is None for e in question.evidence):
        return [GoldText(e.doc_id, None, e.text, "evidence") for e in question.evidence]
    units = [
        GoldText(d, int(p), t, "page")
        for d, p, t in zip(*(gold_pages(question, pages)[c] for c in ("doc_id", "page", "text")))
    ]
    units += [GoldText(e.doc_id, e.page, e.text, "evidence") for e in question.evidence]
    return units


class Commonness:
    """How many of the corpus's documents use a word or a phrase."""

    def __init__(self, pages: pd.DataFrame):
        self.words: Counter = Counter()
        self.texts: list[str] = []
        for _, group in pages.groupby("doc_id", sort=True):
            text = " ".join(" ".join(group["text"]).lower().split())
            self.texts.append(f" {text} ")
            self.words.update(set(re.findall(r"[a-z0-9]+", text)))
        self.n_docs = len(self.texts)

    def too_common(self, phrase: str) -> bool:
        """Used by more than TOO_COMMON_SHARE of the documents (a phrase counts as a whole)."""
        words = re.findall(r"[a-z0-9]+", phrase.lower())
        if not words or all(w in STOPWORDS for w in words):
            return True
        # more than the share, and in at least MIN_COMMON_DOCS documents: in a corpus of one or two
        # documents (a small folder, a labelled set of one question) every word is in "most" of them
        limit = max(TOO_COMMON_SHARE * self.n_docs, MIN_COMMON_DOCS - 1)
        if len(words) == 1:
            return self.words.get(words[0], 0) > limit
        if min(self.words.get(w, 0) for w in words) <= limit:
            return False
        needle = " " + " ".join(phrase.lower().split()) + " "
        return sum(needle in t for t in self.texts) > limit


def _locate(candidate: Candidate, text: str) -> int | None:
    if candidate.kind == NeedleKind.DATE:
        span = find_date(candidate.needle, text)
    else:
        span = (find_stem if candidate.kind == NeedleKind.TERM else find_phrase)(candidate.needle, text)
    return span[0] if span else None


def _figure_in(fig: Figure, figures: list[Figure]) -> int | None:
    span = find_figure_loosely(fig, figures)
    return span[0] if span else None


@dataclass
class Candidate:
    needle: str
    kind: NeedleKind
    value: str
    reject: str | None = None  # a reason known before looking at the gold text
    context: str | None = None  # a figure that is part of a date or a period: never a computed answer
    option: bool = False  # the option of a choice question ("increase or decrease?") the gold answer picks


_DATE_OR_PERIOD = re.compile(
    rf"\b{MONTH_DAY}\b|\b{DAY_MONTH}\b|\b\d+\s*(?:-\s*)?(?:months?|years?|weeks?|days?|quarters?)\b",
    re.IGNORECASE,
)


_WHEN_QUESTION = re.compile(r"\b(?:when|what year|which year)\b", re.IGNORECASE)
_COUNT_QUESTION = re.compile(r"\bhow many\b", re.IGNORECASE)


def _in_date_or_period(fig: Figure, text: str) -> bool:
    return any(m.start() <= fig.start < m.end() for m in _DATE_OR_PERIOD.finditer(text))


# a sentence of the gold answer about the answer itself ("The answer here assumes FY2023 refers to the 12
# months ended on January 28, 2023", "This answer considers only ...", "Note: ...") tells the reader how it
# was worked out; what a correct answer must carry is in the other sentences
_NOTE = re.compile(r"(?:^|(?<=[.!?])\s+)(?:(?:the|this) answer\b|note:)[^.!?]*(?:[.!?]|$)", re.IGNORECASE)


def without_notes(gold: str) -> str:
    """The gold answer without its sentences about the answer itself."""
    return _NOTE.sub("", gold).strip() or gold


def candidates(question: Question, commonness: Commonness) -> list[Candidate]:
    """Every needle candidate of the gold answer (its notes about itself left out), some already rejected."""
    answer = without_notes(question.gold_answer.strip())
    out: list[Candidate] = []
    seen: set[tuple[str, str]] = set()

    def add(c: Candidate) -> None:
        key = (c.kind if c.kind not in FIGURE_KINDS else "figure", c.value.lower())
        if key not in seen:
            seen.add(key)
            out.append(c)

    whole = answer.rstrip(".")
    # a year is the answer, not its context, in a short gold answer ("in 1969", "November 1989") or
    # where the question asks when
    short = len(whole.split()) <= 5
    for fig in find_figures(answer):
        kind = figure_kind(fig)
        c = Candidate(
            fig.text, kind, str(fig.value), context="date or period" if _in_date_or_period(fig, answer) else None
        )
        if kind == NeedleKind.YEAR and fig.text != whole and not (short or _WHEN_QUESTION.search(question.text)):
            c.reject = "year is context, not the answer"
        elif kind == NeedleKind.NUMBER and abs(fig.value) < 10 and fig.decimals == 0 and fig.text != whole:
            if not _COUNT_QUESTION.search(question.text):  # "how many ...?": a small count is the answer asked for
                c.reject = "too common"
        add(c)

    for iso, start, end in full_dates(answer):  # a day is one needle: "July 4, 1776", not "July" and 1776
        add(Candidate(answer[start:end], NeedleKind.DATE, iso))
    common = commonness.too_common
    for option in chosen_options(question.text, answer):
        add(Candidate(option, NeedleKind.OPTION, option.lower(), option=True))
    if (
        len(PHRASE_WORD.findall(whole)) <= 5
        and not find_figures(whole)
        and whole.lower() not in _YES_NO
        and not common(whole)
    ):
        add(
            Candidate(whole, NeedleKind.ANSWER, whole.lower())
        )  # a short gold answer names the item whole ("Customer deposits")
    for phrase in quoted_phrases(answer):
        add(Candidate(phrase, NeedleKind.QUOTE, phrase.lower()))
    for m in MINED_NAME.finditer(answer):
        words = m.group(0).strip(" .'-").split()
        while words and words[0].lower() in STOPWORDS:  # "The LLaMA" is LLaMA
            words = words[1:]
        name = " ".join(words)
        if (
            len(name) < 2
            or name.lower() in STOPWORDS
            or name.lower() in _YES_NO
            or find_figures(name)
            and not re.search(r"[A-Za-z]{2}", name)
        ):
            continue
        add(Candidate(name, NeedleKind.NAME, name.lower(), "too common" if common(name) else None))
    # runs of content words between names, figures, stop words and punctuation:
    # a run of 2-3 words is a short phrase ("factorized embeddings"), one word a term
    for clause in _CLAUSE.split(answer):
        runs: list[list[str]] = [[]]
        last_end = 0
        for m in PHRASE_WORD.finditer(clause):
            word = m.group(0)
            content = (
                word.lower() not in STOPWORDS
                and word.lower() not in _CONNECTORS
                and word[0].islower()
                and len(word) >= 3
            )
            if clause[last_end : m.start()].strip() or not content:
                runs.append([])  # a figure, a name, a stop word or a connector ends the run
            if content:
                runs[-1].append(word)
            last_end = m.end()
        for run in runs:
            # noun phrases end in their head word, so cut three-word pieces from the end
            for end in range(len(run), 0, -3):
                piece = run[max(0, end - 3) : end]
                if len(piece) == 1 and len(piece[0]) < 5:
                    continue
                phrase = " ".join(piece)
                add(Candidate(phrase, NeedleKind.TERM, phrase.lower(), "too common" if common(phrase) else None))
    if GOLD_SAYS[NeedleKind.ABSENCE].search(answer):
        add(Candidate(whole, NeedleKind.ABSENCE, "absence"))
    if GOLD_SAYS[NeedleKind.INAPPLICABLE].search(answer):
        add(Candidate(whole, NeedleKind.INAPPLICABLE, "inapplicable"))
    if GOLD_SAYS[NeedleKind.UNCHANGED].search(answer):
        add(Candidate(whole, NeedleKind.UNCHANGED, "unchanged"))
    return out


_OR = re.compile(r"\b([a-z]{4,})\s+or\s+([a-z]{4,})\b", re.IGNORECASE)
_AMONG = re.compile(r"\bamong\s+([^?]{3,120}?)(?:,\s*(?:which|what|who)\b|\?|$)", re.IGNORECASE)


def offered_options(question: str) -> list[str]:
    """The options a choice question offers ("increase or decrease?", "among operations, investing and
    financing, which ..."), as written, in order."""
    options = [w for m in _OR.finditer(question) for w in m.groups()]
    for m in _AMONG.finditer(question):
        options += [o.strip() for o in re.split(r",|\band\b|\bor\b", m.group(1)) if o.strip()]
    return options


def chosen_options(question: str, gold: str) -> list[str]:
    """The one option of a choice question (`offered_options`) that the gold answer names, by stem; none
    when it names several or none."""
    picked = {o for o in offered_options(question) if tokenize(o) and find_stem(o, gold)}
    return sorted(picked) if len(picked) == 1 else []


def _is_key(fig: Figure, key: Figure) -> bool:
    return fig.is_money and key.matches(fig)


def _key_place(text: str, offset: int) -> dict:
    """Where the money key stands in its document: the label of its line, and the page's other labels."""
    label = line_label(text, offset)
    others = [[lab, fig] for lab, fig in page_labels(text) if lab != label]
    return {"label": label, "page_labels": json.dumps(others) if label is not None else None}


def mine_question(corpus: str, question: Question, pages: pd.DataFrame, commonness: Commonness) -> list[NeedleRecord]:
    rows: list[NeedleRecord] = []
    key_text = key_of(question.money_key, question.gold_answer, question.kind, question.text)
    key = parse_figure(key_text) if key_text is not None else None
    units = gold_texts(question, pages)
    unit_figures = [find_figures(u.text) for u in units]
    question_figures = find_figures(question.text)
    question_tokens = set(tokenize(question.text))
    for c in candidates(question, commonness):
        base: dict[str, Any] = {
            "corpus": corpus,
            "question_id": question.id,
            "needle": c.needle,
            "kind": str(c.kind),
            "value": c.value,
        }
        if c.reject:
            rows.append(NeedleRecord(**base, status="rejected", reason=c.reject))
            continue
        if c.kind in FIGURE_KINDS:
            fig = find_figures(c.needle)[0]
            in_question = _figure_in(fig, question_figures) is not None
        else:
            tokens = tokenize(c.needle)
            in_question = _locate(c, question.text) is not None or bool(tokens) and set(tokens) <= question_tokens
        if c.option:  # the question names every option; the gold answer says which one
            rows.append(
                NeedleRecord(**base, status="kept", reason="the option the gold answer picks", source="gold_answer")
            )
            continue
        if c.kind in STATED_KINDS:  # what the gold answer says of the measure itself, whatever the question's words
            rows.append(NeedleRecord(**base, status="kept", reason=STATED_KINDS[c.kind], source="gold_answer"))
            continue
        if in_question:
            rows.append(NeedleRecord(**base, status="rejected", reason="present in question"))
            continue
        if c.kind == NeedleKind.ABSENCE:  # the gold answer says there is none: an answer that finds none agrees
            rows.append(
                NeedleRecord(**base, status="kept", reason="the gold answer says there is none", source="gold_answer")
            )
            continue
        where, found_in = None, ""
        for unit, figures in zip(units, unit_figures):
            offset = _figure_in(fig, figures) if c.kind in FIGURE_KINDS else _locate(c, unit.text)
            if offset is not None:
                where, found_in = (unit.source, unit.doc_id, unit.page, offset), unit.text
                break
        if where is None and c.kind in FIGURE_KINDS and c.needle in question.text:  # "v13.5": glued, yet asked
            rows.append(NeedleRecord(**base, status="rejected", reason="present in question"))
        elif where is None and c.kind in FIGURE_KINDS and c.context is None:
            # a ratio, a difference, a total: computed from the filing, so never printed in it; the
            # gold answer itself names the figure a correct answer must carry
            rows.append(
                NeedleRecord(
                    **base, status="kept", reason="computed: in the gold answer, not in the gold text", source=COMPUTED
                )
            )
        elif where is None:
            rows.append(NeedleRecord(**base, status="rejected", reason="absent from gold text"))
        else:
            source, doc_id, page, offset = where
            rows.append(
                NeedleRecord(
                    **base,
                    status="kept",
                    reason="found in gold text",
                    source=source,
                    doc_id=doc_id,
                    page=page,
                    char_offset=offset,
                    **(_key_place(found_in, offset) if key is not None and _is_key(fig, key) else {}),
                )
            )
    return rows


def mine_needles(corpus: str, questions: list[Question], pages: pd.DataFrame) -> pd.DataFrame:
    commonness = Commonness(pages)
    rows = [row for q in questions for row in mine_question(corpus, q, pages, commonness)]
    frame = NeedleRecord.frame(rows)
    return frame.astype({"page": "Int64", "char_offset": "Int64"})
