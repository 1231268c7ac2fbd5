"""When the opening gives the key exactly, a decline after it is a caveat, not a refusal.

"A group of finches is commonly referred to as a charm. ... However, I couldn't find any information on
the collective noun for hummingbirds." has answered: its opening states the key before any decline
phrase, and what follows declines only a part or a detail. The key must be met in full, in the answer's
own voice, inside its opening (text/sentences.opening_statements) and before the first decline phrase
(that part read alone: the rest of a long answer is not read for it), and met exactly (a figure by
value, an authored needle: the needle check's firm meet); a mined word met there ("The filing mentions
corporate bonds. It does not say which is largest.") can be a mention, and the decline stands. The
needle check then grades the answer like any other. Where the gold is a none, none_given.py reads the
opening's none in its own words.
"""

from __future__ import annotations

from ragpipe.grading.checks.view import AnswerView
from ragpipe.text.sentences import opening_statements


def gives_the_key(view: AnswerView, declines: list[tuple[int, int, str]]) -> bool:
    """The answer's opening, before any of `declines`, meets every requirement of the key exactly."""
    if not declines:
        return False
    end = min(min(start for start, _, _ in declines), opening_statements(view.whole)[-1][1])
    if end <= 0:
        return False
    return view.key_given_before(end)  # the needle count's firm meet, read once (grading/readings.py)
