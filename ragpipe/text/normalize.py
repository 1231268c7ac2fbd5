"""Words as compared: one normalization for every check that matches a phrase.

People write the same name, number or date many ways, and a grader that
compares spellings calls every other way wrong. Each word of a text becomes
its compared form, with the span it came from:

- lower case; punctuation and hyphens are breaks ("J.R.R." is "j r r"), but a
  number keeps its decimal point and separators ("6.8" is not "6" and "8");
- diacritics folded ("László Bíró" is "laszlo biro");
- superscript footnote markers dropped ("1930²" is "1930");
- articles and a possessive "s" dropped ("the Union Gap's" is "union gap");
- number words as digits ("ten" is "10", "twenty-nine" is "29"), ordinals
  as one form ("thirty-fourth", "34th" and "34TH" are "34th", "first" and
  "1st" are "1th"), Roman numerals of two letters or more as digits ("World
  War II" is "World War 2"; "I" and "V" alone are words);
- an abbreviated month before a day or after a full stop as the month
  ("Sept. 3" is "september 3");
- a whole day as month, day, year, however written ("2 March 1998", "the 2nd of March, 1998" and
  "March 2nd, 1998" are "march 2 1998");
- plural -s folded ("deposits" is "deposit"; "class", "gas" kept);
- British spelling as American, by its endings: -ise/-isation as -ize/-ization, -yse as -yze, -tre and
  -bre as -ter and -ber, -our as -or after three letters ("metres" is "meter", "magnetised" is
  "magnetized"; "four", "hour" and "tour" kept);
- "junior" and "Jnr" as "jr", "senior" and "Snr" as "sr" ("Harry Connick Jnr" is "Harry Connick Jr.");
- a range's word read as its dash: "to", "through", "until" between two
  numbers, and "and" after "between" ("from 1939 to 1945" and "between 1939
  and 1945" are "1939-1945", which reads "1939 1945").

Every rule is symmetric: the gold and the answer are read the same way, so
a rule can only make two spellings of one thing equal, never make a word
mean another.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ragpipe.text.dates import MONTH_ABBREVIATIONS, MONTH_NAMES, full_dates
from ragpipe.text.words import KEY_TOKEN

_SUPERSCRIPTS = str.maketrans({c: " " for c in "\u00b9\u00b2\u00b3\u2070\u2071\u2074\u2075\u2076\u2077\u2078\u2079"})
ARTICLES = frozenset({"a", "an", "the"})

_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen"
).split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_UNIT_ORDINALS = (
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
    "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth"
).split()
_TENS_ORDINALS = {w[:-1] + "ieth": n for w, n in _TENS.items()}
CARDINALS = {w: n for n, w in enumerate(_UNITS)} | _TENS
ORDINALS = {w: n for n, w in enumerate(_UNIT_ORDINALS)} | _TENS_ORDINALS
_DIGIT_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)")
_ROMAN = re.compile(r"(x{0,3})(ix|iv|v?i{0,3})")
_ROMAN_VALUES = {"ix": 9, "iv": 4}
_SUFFIXES = {"jnr": "jr", "junior": "jr", "snr": "sr", "senior": "sr"}  # "Harry Connick Jnr" is "... Jr."


def fold_diacritics(word: str) -> str:
    """ "lászló" -> "laszlo" (letters without their accents; other scripts unchanged)."""
    if word.isascii():
        return word
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def fold_plural(word: str) -> str:
    """Plural -s folded: "deposits" is "deposit" ("ss" and short words kept: "class", "gas")."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


_BRITISH = (
    (re.compile(r"(?<=[a-z]{2})is(e|ed|es|ing|ation|ations)$"), r"iz\1"),  # "magnetised", "organisation"
    (re.compile(r"(?<=[a-z]{2})ys(e|ed|es|ing)$"), r"yz\1"),  # "analysed"
    (re.compile(r"(?<=[a-z]{2})([tb])re$"), r"\1er"),  # "metre", "centre", "fibre"
    (re.compile(r"(?<=[a-z]{3})our$"), "or"),  # "colour", "honour"; not "four", "hour", "your", "tour"
)


@lru_cache(maxsize=8192)
def fold_word(word: str) -> str:
    """A word's compared form once its letters are read: plural -s folded, then British spelling as
    American ("metres" is "meter", "magnetised" is "magnetized", "colours" is "color"). The first three
    letters stay as written, so a phrase's first letters can still be looked for in the raw text."""
    word = fold_plural(word)
    for pattern, american in _BRITISH:
        word = pattern.sub(american, word)
    return word


def _number(tokens: list[str], i: int) -> tuple[str, int] | None:
    """The number word(s) at tokens[i] as (compared form, how many tokens), or None."""
    word = tokens[i]
    if word in _TENS and i + 1 < len(tokens):  # "twenty nine", "twenty-ninth"
        after = tokens[i + 1]
        if 0 < CARDINALS.get(after, 0) < 10:
            return str(_TENS[word] + CARDINALS[after]), 2
        if 0 < ORDINALS.get(after, 0) < 10:
            return f"{_TENS[word] + ORDINALS[after]}th", 2
    if word in CARDINALS:
        return str(CARDINALS[word]), 1
    if word in ORDINALS:
        return f"{ORDINALS[word]}th", 1
    m = _DIGIT_ORDINAL.fullmatch(word)
    if m:
        return f"{m.group(1)}th", 1
    roman = _ROMAN.fullmatch(word) if len(word) > 1 else None  # "ii", "xiv"; never "i" or "v" alone
    if roman:
        tens, units = roman.groups()
        value = _ROMAN_VALUES.get(units, units.count("i") + 5 * units.startswith("v"))
        return str(10 * len(tens) + value), 1
    return None


_RANGE_WORDS = frozenset({"to", "through", "thru", "until", "till"})
_NUMERAL = re.compile(r"\d[\d.,]*(?:th)?")


def _is_number(token: str) -> bool:
    return bool(_NUMERAL.fullmatch(token)) or token in CARDINALS or token in ORDINALS


def _ranges(token: str, words: list[str], raw: list[str], after: int) -> bool:
    """`token` joins a range as a dash does: between two numbers, "to" (or "through", "until"), or "and"
    after "between" ("between 1939 and 1945")."""
    if not (token in _RANGE_WORDS or (token == "and" and len(words) > 1 and words[-2] == "between")):
        return False
    return bool(words) and after < len(raw) and _is_number(words[-1]) and _is_number(raw[after])


@lru_cache(maxsize=512)
def compared_words(text: str) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
    """The words of `text` as compared (see the module's rules), each with the span it came from."""
    lowered = text.lower().replace("\u2019", "'").translate(_SUPERSCRIPTS)
    matches = list(KEY_TOKEN.finditer(lowered))
    raw = [fold_diacritics(m.group(0)) for m in matches]
    dated = {start: (end, _month_first(iso)) for iso, start, end in full_dates(lowered)}
    words: list[str] = []
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(raw):
        token, (start, end) = raw[i], matches[i].span()
        i += 1
        if start in dated:  # a whole day, however written, as "march 2 1998", each word spanning the date
            end, said = dated[start]
            words += said
            spans += [(start, end)] * len(said)
            while i < len(raw) and matches[i].start() < end:
                i += 1
            continue
        if token in ARTICLES or token == "s" or _ranges(token, words, raw, i):
            continue
        number = _number(raw, i - 1)
        if number is not None:
            token, used = number
            end = matches[i - 2 + used].end()
            i += used - 1
        elif token in MONTH_ABBREVIATIONS and (
            lowered[end : end + 1] == "." or i < len(raw) and raw[i][:1].isdigit()
        ):  # "Sept. 3", "Sep 2015"
            token = MONTH_ABBREVIATIONS[token]
        token = _SUFFIXES.get(token, token)
        words.append(fold_word(token))
        spans.append((start, end))
    return tuple(words), tuple(spans)


def _month_first(iso: str) -> list[str]:
    """ "1998-03-02" as the words "march", "2", "1998"."""
    year, month, day = iso.split("-")
    return [MONTH_NAMES[int(month) - 1], str(int(day)), year]


@lru_cache(maxsize=512)
def squashed(text: str) -> str:
    """`text` lower-cased with diacritics folded and everything but letters and digits removed: where a
    phrase's first letters can be looked for before the text is read word by word."""
    return re.sub(r"[^a-z0-9]+", "", fold_diacritics(text.lower()))
