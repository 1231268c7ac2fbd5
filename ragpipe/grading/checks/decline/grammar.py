"""Declines as a grammar: patterns composed from the rules' parts, not a list of phrases.

A refusal names what lacks the answer and how: "The lease does not say
anything about it", "There is no pet deposit listed in the lease", "The
filings are silent on that", "None of the sources mention it", "I can't
tell you". Each family below is one pattern over a word list from
`rules.yaml` (declines.grammar), so a new word extends a whole family, and,
since decline spans are the union over all patterns, can only add declines.
"""

from __future__ import annotations

from ragpipe.grading.checks.decline.sections import DeclineGrammar
from ragpipe.text.regex_trie import trie_pattern

_NOT_FORMS = ["does not", "doesn't", "do not", "don't", "did not", "didn't", "does n't", "fails to", "fail to", "never"]
_NOT = trie_pattern(_NOT_FORMS, " ")
# "he did not", "she never": a person said not to do something, looked back at only once a negation matched
# (a lookbehind at every word start would cost the whole decline scan an eighth of its time)
_NOT_BY_A_PERSON = "".join(rf"(?<!\b{who} {form})" for who in ("he", "she") for form in _NOT_FORMS)
_CANNOT = trie_pattern(
    [
        "can't",
        "cannot",
        "can not",
        "couldn't",
        "could not",
        "unable to",
        "not able to",
        "not possible to",
        "impossible to",
    ],
    " ",
)
_BE = trie_pattern(["is", "are", "was", "were", "has been", "have been", "had been"], " ")


def _any(words: list[str]) -> str:
    return "(?:" + trie_pattern(sorted(set(words)), " ") + ")"


def _plural(words: list[str]) -> str:
    """A source word and its plural-or-singular partner, as written."""
    return _any(words + [w + "s" for w in words if not w.endswith("s")])


def grammar_patterns(g: DeclineGrammar) -> list[tuple[str, str]]:
    """(pattern, reason) for each family whose parts the rules give; every pattern starts at \\b."""
    out = []
    if g.telling_verbs:
        out.append(
            (
                # a person said not to tell ("He did not say the best games ever") is a fact about them
                rf"\b{_NOT}{_NOT_BY_A_PERSON} {_any(g.telling_verbs)}\b",
                'something is said not to tell the answer ("The lease does not say ..."), unless he or she did',
            )
        )
    if g.sources and g.covering_verbs:
        out.append(
            (
                rf"\b{_plural(g.sources)} {_NOT} {_any(g.covering_verbs + g.holding_verbs)}\b",
                'a source is said not to cover it ("The filing does not address ...")',
            )
        )
    if g.sources and g.holding_verbs:
        out.append(
            (
                rf"\b{_NOT} {_any(g.holding_verbs)} (?:[\w'-]+ ){{0,3}}?{_plural(g.sources)}\b",
                'something is said not to hold the material ("The text does not contain the information ...")',
            )
        )
    if g.participles:
        out.append(
            (
                rf"\bno (?:[\w'-]+ ){{0,4}}?(?:{_BE} )?{_any(g.participles)}"
                r"(?=\s+(?:in|by|within|anywhere)\b|\s*[.,;:!?]|\s*$)",
                'no such item is said to be given ("There is no pet deposit listed in the lease")',
            )
        )
    if g.sources and g.absences:
        out.append(
            (
                rf"\bnot {_any(g.absences)}"
                rf"(?=\s*(?:[.,;:!?)]|$)|\s+anywhere\b|\s+(?:in|within|among)(?:\s+[\w'-]+){{0,4}}?\s+{_plural(g.sources)}\b)",
                'the answer is said not to be found, bare or in the material ("It was not found in the filing"); '
                '"not found in the Protestant Old Testament" places a thing, it declines nothing',
            )
        )
    if g.sources:
        out.append((r"\bsilent (?:on|about|regarding|as to)\b", "the material is said to be silent on it"))
        out.append(
            (
                r"\b(?:nothing|none) (?:of |in |within )?(?:the |these |this |those |any |my )?"
                rf"(?:[\w-]+ )?{_plural(g.sources)}\b",
                "nothing in the material, or none of it, is said to hold the answer",
            )
        )
    if g.inabilities:
        out.append(
            (
                rf"\b{_CANNOT} {_any(g.inabilities)}\b",
                'the answerer says it cannot answer ("I can\'t tell you")',
            )
        )
    if g.inabilities and g.unwilling:
        out.append(
            (
                rf"\b(?<!'){_any(g.unwilling)} {_any(g.inabilities)}\b",
                'the answerer says it will not answer ("I won\'t provide that", "I\'d rather not answer")',
            )
        )
    out.append((r"\bsorry\b(?=,?\s+(?:but|i|we)\b)", 'an apology opens a refusal ("Sorry, but ...")'))
    return out
