"""An authored key read as people write keys: alternatives, asides and lists.

Keys written for people carry their own instructions: "PIGEONS or DOVES"
accepts either, "PRINCE WILLIAM (accept DUKE OF CAMBRIDGE)" names a second
form, "Michel (Albert) Roux" marks a part as optional, and "Red, Blue and
Green" lists what the answer must name, in any order. Each key is read as
its alternatives (`readings`), each a set of parts that must all be found:

- a bracketed "accept X" is one more alternative (X), the key without it
  another;
- any other bracketed aside is optional: the key with it (brackets read as
  words: "Plimsoll (or Load) Line" is "Plimsoll or Load Line") and without it;
- so is a relative clause after a comma ("Nicholas Breakspear, who was Adrian
  IV from 1154 to 1159" is met by "Nicholas Breakspear"), and a work's maker
  after "by" ("Video Killed The Radio Star by Buggles" is met by the title: a
  title of two words or more, a maker of up to four, named with a capital);
- "X or Y" outside brackets: X or Y;
- a list ("A, B and C", "A & B") is met by all of its items, in any order;
- a one-word part is met by a word derived from it, where nothing is met as written: people answer
  "Colombian" to "What nationality ...?" whose key names the country.

A reading made by leaving words out is dropped where the question already
holds all it asks for ("Green Party (1985-90)" asked "What was the former
name of the British Green Party?"): an answer repeating the question's words
carries nothing. The key as written is always one of its readings.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from ragpipe.text.figures import Figure
from ragpipe.text.lists import key_items
from ragpipe.text.matching import find_derived, find_needle, find_phrase

_ASIDE = re.compile(r"\(([^()]*)\)")
_NAMES_ANOTHER = re.compile(r"^\s*(?:accept|also|aka|a\.k\.a\.)\s+(.+?)\s*$", re.IGNORECASE)
_OR = re.compile(r"\s+or\s+", re.IGNORECASE)
_RELATIVE = re.compile(r",\s+(?:who|which|whose)\b", re.IGNORECASE)
_MADE_BY = re.compile(r"\s+by\s+(?=[A-Z])")  # "Video Killed The Radio Star by Buggles": a work, then its maker


def _tidy(text: str) -> str:
    return " ".join(text.split()).strip(" ,;:-")


def _alternatives(key: str) -> list[tuple[str, bool]]:
    """The key's alternative wordings, each with whether it was made by leaving out words the key does not
    mark optional (a relative clause, a work's maker; a bracketed aside is marked optional by the key
    itself): asides read, "or" split (lists not yet split)."""
    out = [(key, False)]
    relative = _RELATIVE.search(key)
    if relative and relative.start() > 0:  # "Nicholas Breakspear, who was Adrian IV": the clause is an aside
        out.append((_tidy(key[: relative.start()]), True))
    made = _MADE_BY.search(key)
    if made and not key.isupper():
        work, maker = _tidy(key[: made.start()]), key[made.end() :]
        if len(work.split()) >= 2 and work[:1].isupper() and len(maker.split()) <= 4:
            out.append((work, True))  # the work without its maker, as a title is said
    asides = list(_ASIDE.finditer(key))
    if asides:
        out.append((_tidy(_ASIDE.sub(" ", key)), False))  # a bracketed part is optional by the key's own word
        for m in asides:
            named = _NAMES_ANOTHER.match(m.group(1))
            if named:
                out.append((_tidy(named.group(1)), False))  # another form the key names: no words left out
            else:
                out.append((_tidy(key[: m.start()] + " " + m.group(1) + " " + key[m.end() :]), False))
    split = []
    for form, left in out:
        if "(" not in form:
            split += [(_tidy(p), left) for p in _OR.split(form)]
    kept: dict[str, bool] = {}
    for form, left in out + split:
        if form and form not in kept:
            kept[form] = left
    return list(kept.items())


def _parts(form: str) -> tuple[str, ...]:
    """A list's items ("Red, Blue and Green" -> Red, Blue, Green); a single item alone."""
    items = tuple(dict.fromkeys(_tidy(p) for p in key_items(form) if _tidy(p)))
    return items if len(items) > 1 else (form,)


@lru_cache(maxsize=4096)
def readings(key: str, question: str = "") -> tuple[tuple[str, ...], ...]:
    """Every reading of `key`: tuples of parts that must all be found (the key as written first)."""
    return tuple(r for r, _ in tagged_readings(key, question))


@lru_cache(maxsize=4096)
def tagged_readings(key: str, question: str = "") -> tuple[tuple[tuple[str, ...], bool], ...]:
    """`readings`, each with whether it leaves words of the key out (a lenient reading: never firm)."""
    out: list[tuple[tuple[str, ...], bool]] = [((key,), False)]
    seen: set[tuple[str, ...]] = {(key,)}
    for form, left in _alternatives(key.strip()):
        for reading in ((form,), _parts(form) if "(" not in form else (form,)):
            if reading in seen:
                continue
            unasked = [p for p in reading if not (question and find_phrase(p, question))]
            if unasked:
                seen.add(reading)
                out.append((reading, left))
    return tuple(out)


def leaves_words_out(
    key: str, text: str, figures: list[Figure], tolerance: Decimal = Decimal(0), question: str = ""
) -> bool:
    """Whether the reading of `key` that `find_form` meets in `text` is one made by leaving words out."""
    tagged = tagged_readings(key, question)
    if not any(left for _, left in tagged):  # most keys: no reading leaves words out
        return False
    for reading, left in tagged:
        if all(find_needle(part, text, figures, tolerance) for part in reading):
            return left
    return False


def find_form(
    key: str,
    text: str,
    figures: list[Figure],
    tolerance: Decimal = Decimal(0),
    question: str = "",
    derived: bool = False,
) -> tuple[int, int] | None:
    """The span of the first reading of `key` whose every part is in `text` (from the first part's start
    to the last one's end), or None. Parts are matched as phrases are (figures by value); with `derived`,
    a one-word part is also met by a word derived from it ("Colombian" for "Colombia":
    text/matching.py `find_derived`), which a grader asks only once nothing is met as written."""
    for reading in readings(key, question):
        spans = []
        for part in reading:
            span = find_needle(part, text, figures, tolerance)
            if span is None and derived:
                span = find_derived(part, text)
            if span is None:
                break
            spans.append(span)
        else:
            return min(s for s, _ in spans), max(e for _, e in spans)
    return None
