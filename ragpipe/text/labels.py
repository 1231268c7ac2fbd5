"""The label a document gives a figure on its line: "Amount due: $26.99", "Ending balance ...... $42.99".

Bills, statements, pay stubs and tax forms print their amounts as labelled lines. The label the document
gives the money key ("Amount due") names what the key is, whatever words the question uses, and the labels
it gives the page's other amounts ("Ending balance" for $42.99) name what they are. A label is the text
that opens the figure's line, ends in a colon, a tab or a dot leader, and is a short phrase (one to six
words, opening with a letter): "A loyalty credit of $16.00 will be applied" labels nothing.
"""

from __future__ import annotations

import re

from ragpipe.text.figures import find_figures

_LABEL = re.compile(r"\s*(?P<label>[A-Za-z][A-Za-z0-9'&/(),# -]{0,60}?)\s*(?::|\t|\.{2,}|\u2026|\s{3,})\s*$")
MAX_WORDS = 6


def line_label(text: str, offset: int) -> str | None:
    """The label the line holding `offset` gives the figure that starts there, if it has one."""
    start = text.rfind("\n", 0, offset) + 1
    m = _LABEL.match(text, start, offset) if offset >= start else None
    if m is None:
        return None
    label = m.group("label").strip(" -")
    return label if 1 <= len(label.split()) <= MAX_WORDS else None


def page_labels(text: str) -> list[tuple[str, str]]:
    """(label, figure as written) of each labelled money figure of a page, in order."""
    return [(label, f.text) for f in find_figures(text) if f.is_money and (label := line_label(text, f.start))]
