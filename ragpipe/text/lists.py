"""A list, once: how its items are told apart in a gold answer, an authored key and an answer.

- `key_items`: an authored key's items ("Paris, Lyon and Nice", "salt & pepper"): split at a comma and a
  space (with "and" or "&" after it) or at "and" or "&" between spaces, case-blind (text/forms.py).
- `names_listed`: a gold answer that is a list of names ("Orlin, Trask and Bellamy"), each item one to
  four name words (text/names.py), or none: "Procter & Gamble" is one name, "fuel costs and wages" no
  names (grading/checks/needles.py).
- `LIST_COMMA`: a comma between an answer's items that is not a thousands separator ("$150, $175",
  never "$1,500"): where a hedge's alternatives part (text/unasserted.py).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragpipe.text.names import NAME

_KEY_ITEMS = re.compile(r",\s+(?:and\s+|&\s+)?|\s+(?:and|&)\s+", re.IGNORECASE)
_NAMES_APART = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+)")
LIST_COMMA = re.compile(r"\s*(?:(?<!\d),|,(?!\d))\s*")


def key_items(key: str) -> list[str]:
    """The parts of an authored key between its list's separators, as written (empty parts kept)."""
    return _KEY_ITEMS.split(key)


@lru_cache(maxsize=4096)
def names_listed(gold: str) -> tuple[str, ...]:
    """The names of a gold answer that is a list of names ("Orlin, Trask and Bellamy"), or ()."""
    items = tuple(i.strip().rstrip(".") for i in _NAMES_APART.split(gold.strip()) if i.strip())
    return items if len(items) > 1 and all(NAME.fullmatch(i) for i in items) else ()
