"""What a figure is stated as: the measure an answer binds each figure to, and the measure a question asks.

A filing's answer names several figures; only one is the value of the measure asked. "Segment profit
totalled $812 million; after $95 million of corporate costs, operating income was $717 million" states
$717 million as operating income, whatever else it mentions. An answer binds a figure to a measure in
three ways, read in its own voice and within one clause:

- the measure, then a verb of being or totalling, then the figure ("operating income was $717 million",
  "segment profit of $907 million", "net sales came to $4.1 billion");
- the figure, then "of" or "in" and the measure ("$717 million of operating income");
- a verb that is itself the measure, then the figure ("paid $0.9 billion", "declared $1.2 billion of
  dividends").

A question asks for a measure: its first sentence's words, less names, periods, units and the words of
asking ("What was Ostrander Tools' operating income in FY2022 (in USD millions)?" asks "operating
income"; "How much did Keswick Mills pay in dividends?" asks "pay dividend"). Words are compared by
their Snowball stems (and the irregular past of a few verbs: "paid" is "pay").

The matching is conservative on purpose, since a binding decides a verdict:

- a binding *states the asked measure* when it holds every word the question asks, and no qualifier
  that contradicts one the question gives;
- a binding *states another measure* only by a qualifier of the same family as one the question gives,
  and different ("segment" profit for "operating" income, "declared" for "paid", "net" for "gross"):
  a measure merely worded otherwise ("net sales" for "revenue") is never another measure.

What it deliberately does not read: measures a sentence only implies, synonyms, and a figure's period
(a clause that compares, "up from", "compared with", "in 2021", is left to the other readings).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache

from ragpipe.text.clauses import clause_ends, clause_start, opens_clause
from ragpipe.text.dates import years
from ragpipe.text.figures import Figure
from ragpipe.text.sentences import asking_sentence, sentences
from ragpipe.text.unasserted import retracted_figures
from ragpipe.text.words import WORD_ALONE, folded, stemmer

_IRREGULAR = {
    "paid": "pay", "spent": "spend", "bought": "buy", "sold": "sell", "made": "make", "grew": "grow", "owed": "owe",
    "owes": "owe", "refunded": "refund", "charged": "charge", "billed": "bill",
}  # fmt: skip

# a question's words that ask, name a period or a unit, or say nothing of the measure
_ASKING = frozenset(
    """a an the of in for to on at by as from during with and or what was were is are did does do how much many
    which who whom whose its their his her this that these those has have had be been being fiscal year years
    quarter fy usd us dollars dollar million millions billion billions thousand thousands amount value figure
    company company's reported report according end ending ended as total""".split()
)
# what a phrase an answer states a figure for drops: the asking words, but "total", "amount" and "ending",
# which name it ("the total", "the amount due", "the ending balance")
_PHRASE_ASKING = _ASKING - {"total", "amount", "end", "ending", "ended"}
# verbs (and a colon) that put a measure before its figure: "operating income was $717 million"
_LINKS = (
    r"(?:was|were|is|are|totall?ed|totals|came\s+to|comes\s+to|amounted\s+to|amounts\s+to|reached|stood\s+at"
    r"|equall?ed|of|:|=)"
)
_HEDGE = r"(?:\s+(?:approximately|about|around|roughly|nearly|almost|some|just|over|under))*"
_LINK_BEFORE = re.compile(rf"(?:^|\s){_LINKS}{_HEDGE}\s*$", re.IGNORECASE)
_LABEL_BEFORE = re.compile(r"(?<=\w):\s*$")  # a label's colon right before a money figure
_CORRECTING = re.compile(r"\b(?:correction|rather|mean|meant|sorry|actually|no)\s*$", re.IGNORECASE)
_LIST_AFTER = re.compile(r"\s*[,;]\s*[-$(\u20ac\u00a3\d]")  # ... that does not open a list of figures
# verbs that are themselves a measure: "paid $0.9 billion", "declared $1.2 billion of dividends"
_MEASURE_VERBS = re.compile(
    r"(?:^|\s)(paid|pays|pay|declared|declares|spent|spends|authorized|authorised|approved|accrued|proposed"
    r"|repurchased|returned|distributed|earned|generated|raised|borrowed|issued|invested|owe|owes|owed|refunded"
    r"|charged|billed)\s*$",
    re.IGNORECASE,
)
_OF_AFTER = re.compile(r"\s*(?:of|in)\s+((?:[A-Za-z][A-Za-z'\u2019-]*\s*){1,4})", re.IGNORECASE)
_PHRASE_STOP = frozenset(
    """for during in at by from to on as compared versus vs which that and but while with than the a an its their
    his her this these those year years quarter period fiscal""".split()
)
# a stem -> the irregular forms that stem to it ("pay" <- "paid")
_WRITTEN = {base: [form for form, b in _IRREGULAR.items() if b == base] for base in set(_IRREGULAR.values())}


def _may_state(asked: frozenset[str], lowered: str) -> bool:
    """Every asked word is somewhere in the text (its stem less the last letter, which Snowball may have
    turned or added: "inventori" of "inventory", "rate" of "rating"; or an irregular form of it): without
    that no binding can hold them all, and the bindings need not be read."""
    return all(s[:-1] in lowered or any(w in lowered for w in _WRITTEN.get(s, ())) for s in asked)


def stem(word: str) -> str:
    word = folded(word).removesuffix("'s").rstrip("'")
    return _IRREGULAR.get(word) or stemmer().stemWord(word)


@dataclass(frozen=True, eq=False)  # made once per rules (`of`): compared and hashed by identity, fast in caches
class MeasureJudgement:
    """What tells two measures apart and what makes a sentence compare: judgement, so it is rules.yaml's
    `measures` section (grading/readings/measures.py), handed in here. `families`: qualifiers of one kind
    (levels of profit, a payment's stage, per-share figures), two different ones of a family being two
    measures; `compares`: words of a sentence whose figures may be another period's or another part's."""

    families: tuple[frozenset[str], ...]  # stemmed
    compares: re.Pattern[str]

    @classmethod
    @lru_cache(maxsize=16)
    def of(cls, families: tuple[tuple[str, ...], ...], compares: tuple[str, ...]) -> MeasureJudgement:
        """The judgement from the words as rules.yaml writes them (`compares`: regexes, each a whole word)."""
        pattern = re.compile(r"\b(?:" + "|".join(compares) + r")\b", re.IGNORECASE) if compares else re.compile("(?!)")
        return cls(tuple(frozenset(stem(w) for w in family) for family in families), pattern)

    def qualifiers(self, words: frozenset[str]) -> list[tuple[int, str]]:
        return [(i, w) for i, family in enumerate(self.families) for w in words if w in family]


NO_JUDGEMENT = MeasureJudgement((), re.compile("(?!)"))  # for bindings alone: no qualifier, nothing compares


@dataclass(frozen=True)
class Binding:
    """A figure of the answer, and the measure its clause states it as (stemmed words, and as written)."""

    figure: Figure
    words: frozenset[str]
    phrase: str


class MeasureReading:
    """An answer's figures read for what each is stated as, against the measure its question asks. The
    bindings are read on first use, and not at all where the question leaves nothing to read them for (no
    measure asked; no qualifier that another measure could contradict)."""

    def __init__(self, asked: frozenset[str], text: str, figures: list[Figure], judgement: MeasureJudgement):
        self.asked, self._text, self._figures, self.judgement = asked, text, figures, judgement
        self.qualified = _qualified(asked, judgement)
        self._read: dict[int, Binding | None] = {}

    @cached_property
    def ends(self) -> list[int]:
        """Where each clause of the text ends (`clause_ends`): read once, shared with the money statements."""
        return clause_ends(self._text)

    @cached_property
    def _retracted(self) -> set[int]:
        return retracted_figures(self._text, self._figures, self.ends)

    def retracted(self, f: Figure) -> bool:
        """The answer denies or withdraws `f` ("is not $150", "$150, sorry, $175"): it states nothing."""
        return f.start in self._retracted

    @cached_property
    def bound(self) -> tuple[Binding, ...]:
        """The bindings of the figures the answer states: one it denies or withdraws states nothing."""
        found = (self.of(f) for f in self._figures)
        return tuple(b for b in found if b is not None and b.figure.start not in self._retracted)

    def of(self, f: Figure) -> Binding | None:
        """The binding of `f`, read once (a check may ask of one figure only)."""
        if f.start not in self._read:
            self._read[f.start] = bind(self._text, f, self.ends)
        return self._read[f.start]

    def other(self, f: Figure) -> Binding | None:
        """The binding that states `f` as a measure the question did not ask, if any."""
        if not self.qualified:  # no qualifier asked: no binding can contradict one
            return None
        b = self.of(f)
        return b if b is not None and states_other(b, self.asked, self.judgement) else None

    @cached_property
    def stating_asked(self) -> list[Binding]:
        """The bindings that state the asked measure."""
        if not self.asked or not _may_state(self.asked, self._text.lower()):
            return []
        return [b for b in self.bound if states_asked(b, self.asked, self.judgement)]


def other_values(reading: MeasureReading, text: str, question: str, is_key: Callable[[Figure], bool]) -> list[Binding]:
    """The bindings that state the asked measure as a figure other than the key, where the answer never
    states it as the key and the sentence neither compares nor names another year: the answer asserts a
    wrong value for what was asked, whatever else it mentions."""
    asked = reading.stating_asked
    if not asked or any(is_key(b.figure) for b in asked):
        return []
    judgement = reading.judgement
    return [b for b in asked if not compares(_sentence_of(text, b.figure.start), question, judgement)]


def _sentence_of(text: str, offset: int) -> str:
    return next((text[a:b] for a, b in sentences(text) if a <= offset < b), text)


@lru_cache(maxsize=4096)  # a question is asked of many answers
def asked_measure(question: str) -> frozenset[str]:
    """The stemmed words of the measure `question` asks for (empty when none can be told)."""
    first = asking_sentence(question)
    first = re.sub(r"\([^)]*\)", " ", first)  # "(in USD millions)", "(rounded)"
    words = []
    for i, m in enumerate(WORD_ALONE.finditer(first)):
        word = m.group(0).strip("'\u2019-")
        if not word or word.lower() in _ASKING:
            continue
        if word[0].isupper() and not word.isupper() and i > 0:
            continue  # a name: "Ostrander Tools'", "Keswick Mills"
        if word.isupper() and i > 0 and len(word) > 1:
            words.append(word.lower())  # an acronym is a measure's name ("EBITDA", "EPS")
            continue
        words.append(word)
    return frozenset(stem(w) for w in words if w.lower() not in _ASKING)


def bindings(text: str, figures: list[Figure]) -> list[Binding]:
    """The measure each figure of `text` is stated as, for the figures a clause binds to one."""
    return list(MeasureReading(frozenset(), text, figures, NO_JUDGEMENT).bound)


def bind(text: str, f: Figure, ends: list[int]) -> Binding | None:
    """The measure the clause of `f` states it as (`ends`: `clause_ends(text)`), or None."""
    before = _measure_before(text, f, ends)
    after = _measure_after(text, f)
    words = (before[0] if before else set()) | (after[0] if after else set())
    if not words:
        return None
    return Binding(f, frozenset(words), " ".join(p[1] for p in (before, after) if p and p[1]))


_OPERATOR_AFTER = re.compile(r"\s*(?:[-+*/\u00d7\u00f7\u2212]|\b(?:plus|minus|less|times|divided by)\b)\s*[$(\d]", re.I)


def _measure_before(text: str, f: Figure, ends: list[int]) -> tuple[set[str], str] | None:
    if _OPERATOR_AFTER.match(text, f.end):  # "was $19,815 million - $13,997 million = ...": an operand
        return None
    head = text[clause_start(f.start, ends) : f.start]
    # read in a window before the figure only: a search from the text's start for each figure is quadratic
    label = _LABEL_BEFORE.search(text, max(0, f.start - 8), f.start) if f.is_money and not head.strip() else None
    if label is not None and not _LIST_AFTER.match(text, f.end):  # "Net pay: $2,231.60", never "series: 1, 16, 81"
        if _CORRECTING.search(text, max(0, label.start() - 16), label.start()):  # "correction: $496.15": no measure
            return None
        return _phrase(text, clause_start(label.start(), ends), label.start(), last=6)
    link = _LINK_BEFORE.search(head)
    if link is not None:
        start = f.start - len(head)
        return _phrase(text, start, start + link.start(), last=6)
    verb = _MEASURE_VERBS.search(head)
    return ({stem(verb.group(1))}, verb.group(1)) if verb else None


def _measure_after(text: str, f: Figure) -> tuple[set[str], str] | None:
    m = _OF_AFTER.match(text, f.end)
    if not m:
        return None
    end = m.start(1)
    for word in WORD_ALONE.finditer(text, m.start(1), m.end(1)):
        if word.group(0).lower() in _PHRASE_STOP:
            break
        end = word.end()
    return _phrase(text, m.start(1), end)


def _phrase(text: str, start: int, end: int, last: int | None = None) -> tuple[set[str], str] | None:
    """The stemmed content words of the measure phrase `text[start:end]` (its `last` words only, when
    given), names and asking words left out, with the words as written; None when none is left. A
    capitalized word is a name unless it opens a sentence and a lowercase word follows it ("Segment
    profit", not "Keswick Mills")."""
    found = list(WORD_ALONE.finditer(text, start, end))
    found = found[-last:] if last else found
    kept, written = [], []
    for i, m in enumerate(found):
        word = m.group(0).strip("'\u2019-")
        if not word or word.lower() in _PHRASE_ASKING or word.lower() in _PHRASE_STOP:
            continue
        if word[0].isupper() and not word.isupper():
            opens = opens_clause(text, m.start())
            # a lowercase word follows, or none does: "Rent is $390", "Segment profit was ..."
            lower_next = i + 1 == len(found) or found[i + 1].group(0)[0].islower()
            if not (opens and lower_next):
                continue
        kept.append(stem(word))
        written.append(word)
    return (set(kept), " ".join(written)) if kept else None


@lru_cache(maxsize=4096)
def _qualified(asked: frozenset[str], judgement: MeasureJudgement) -> bool:
    return bool(judgement.qualifiers(asked))


def contradicts(words: frozenset[str], asked: frozenset[str], judgement: MeasureJudgement) -> bool:
    """`words` carry a qualifier of a family the asked measure qualifies, and another one."""
    asked_q = dict(judgement.qualifiers(asked))
    return any(i in asked_q and w != asked_q[i] and w not in asked for i, w in judgement.qualifiers(words))


def states_asked(binding: Binding, asked: frozenset[str], judgement: MeasureJudgement) -> bool:
    """The binding states the measure asked: every asked word, and no qualifier against one of them."""
    return bool(asked) and asked <= binding.words and not contradicts(binding.words, asked, judgement)


def states_other(binding: Binding, asked: frozenset[str], judgement: MeasureJudgement) -> bool:
    """The binding states a measure the question did not ask, by a contradicting qualifier."""
    return bool(asked) and contradicts(binding.words, asked, judgement)


def compares(sentence: str, question: str, judgement: MeasureJudgement) -> bool:
    """The sentence compares, or names a year the question does not: its figures may be another
    period's, and a figure other than the key stated for the asked measure is then no contradiction."""
    return judgement.compares.search(sentence) is not None or not years(sentence) <= years(question)
