"""Dates in text: one month vocabulary, and the readers built from it.

- `full_dates` / `find_date`: a whole day, however written ("July 4, 1776", "4th of July, 1776"),
  as an ISO date: a date needle is met by the same day.
- `MONTH_DAY` / `DAY_MONTH`: "July 4" and "4 July" as regex pieces: a figure inside a date states
  nothing (declines) and is never a computed answer (needle mining).
- `MONTH_TOKENS` / `DAY_TOKEN`: months and days as the phrase matcher's tokens ("March 3, 2004" is
  "March 2004" given more precisely); `MONTH_ABBREVIATIONS`: each short form's month.
- `is_year` / `years`: a year, as a number (1900 to 2100: it dates, it does not state) and as text
  ("2022", "FY22", "fy2022": one year, "22").
"""

from __future__ import annotations

import re

MONTH_NAMES = "january february march april may june july august september october november december".split()
MONTH_ABBREVIATIONS = {m[:3]: m for m in MONTH_NAMES if m != "may"} | {"sept": "september"}
MONTH_TOKENS = frozenset(MONTH_NAMES) | frozenset(MONTH_ABBREVIATIONS)
FIRST_YEAR, LAST_YEAR = 1900, 2100
_YEAR = re.compile(r"\b(?:fy\s?'?)?((?:19|20)\d\d|2100)\b|\bfy\s?'?(\d\d)\b", re.IGNORECASE)
DAY_TOKEN = re.compile(r"\d{1,2}(?:st|nd|rd|th)?")

_MONTH_WORD = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*"
MONTH_DAY = _MONTH_WORD + r"\.?\s+\d{1,2}(?:st|nd|rd|th)?"  # "July 4", "Sept. 3rd"
DAY_MONTH = r"\d{1,2}(?:st|nd|rd|th)?\s+" + _MONTH_WORD  # "4 July"

_MONTH = (
    r"(?P<{0}>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_FULL_DATE = re.compile(
    r"\b(?:" + _MONTH.format("m1") + r"\s+(?P<d1>\d{1,2})(?:st|nd|rd|th)?,?"
    r"|(?:the\s+)?(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH.format("m2") + r",?)"
    r"\s+(?P<y>\d{4})\b",
    re.IGNORECASE,
)


def full_dates(text: str) -> list[tuple[str, int, int]]:
    """Every day-month-year date in `text` as (ISO date, start, end), however it is written:
    "July 4, 1776", "4th of July, 1776", "4 July 1776"."""
    out = []
    for m in _FULL_DATE.finditer(text):
        month = (m.group("m1") or m.group("m2")).lower()[:3]
        day = int(m.group("d1") or m.group("d2"))
        number = next(i for i, name in enumerate(MONTH_NAMES, 1) if name.startswith(month))
        if 1 <= day <= 31:
            out.append((f"{m.group('y')}-{number:02d}-{day:02d}", m.start(), m.end()))
    return out


def find_date(needle: str, text: str) -> tuple[int, int] | None:
    """The span of the day `needle` names, written any way `full_dates` reads."""
    wanted = {iso for iso, _, _ in full_dates(needle)}
    return next(((s, e) for iso, s, e in full_dates(text) if iso in wanted), None)


def is_year(value) -> bool:
    """A whole number read as a year where that matters."""
    return FIRST_YEAR <= value <= LAST_YEAR


def years(text: str) -> frozenset[str]:
    """The years `text` names, as two digits ("2022", "FY22" and "fy2022" are "22")."""
    return frozenset((m.group(1) or m.group(2))[-2:] for m in _YEAR.finditer(text))
