"""A name, once: a capitalized word as names are written, and the names built of them.

- `NAME_WORD`: a capital, then word characters, stops, apostrophes and hyphens ("J.", "O'Neil",
  "Smith-Jones"): a word of a person's name (text/matching.py reads "J. R. R. Tolkien" by them).
- `NAME`: one to four name words ("Orlin", "Gabriel García Márquez"): an item of a gold list of names.
- `FIRM_NAME`: the same, "&" allowed in a word and between words ("AT&T", "Procter & Gamble"): the
  subject a question's slot is filled with (text/slot.py), which may be a company.
- `MINED_NAME`: a name as needle mining finds it in a gold answer, keeping the small words a name holds
  inside it ("Bank of America", "Leonardo da Vinci", "Ludwig van Beethoven"); it ends in a letter or
  digit, so a trailing stop or apostrophe is not the name's (corpus/needle_mining.py).
"""

from __future__ import annotations

import re

_WORD = r"[A-Z][\w.'\u2019-]*"
NAME_WORD = re.compile(_WORD)
NAME = re.compile(rf"{_WORD}(?:\s+{_WORD}){{0,3}}")

_FIRM_WORD = r"[A-Z][\w&'\u2019.-]*"
FIRM_NAME = re.compile(rf"{_FIRM_WORD}(?:\s+(?:&\s+)?{_FIRM_WORD}){{0,3}}")

PARTICLES = "of|and|for|&|da|de|di|du|del|della|der|van|von|la|le|bin|al"  # kept inside a mined name
_MINED_WORD = r"(?:[A-Z][\w&'.+-]*[\w+]|[A-Z])"
MINED_NAME = re.compile(rf"(?<![\w-]){_MINED_WORD}(?:[ \t]+(?:(?:{PARTICLES})[ \t]+)?{_MINED_WORD})*")
