"""Where a decline phrase meets an exclusion word for word: the phrase contains it, lies inside it, or
overlaps it. Read where the rules are read (grading/checks/decline/sections.py) and before an audit
adds a proposed phrase (grader_agreement/audit.py)."""

from __future__ import annotations

from ragpipe.text.words import ALNUM_RUN, folded


def _words(text: str) -> list[str]:
    return ALNUM_RUN.findall(folded(text))


def exclusion_clashes(phrases: list[str], exclusions: list[str]) -> list[tuple[str, str, str]]:
    """(phrase, how, exclusion) for each phrase that contains, lies inside, or overlaps an exclusion
    word for word ("is not covered, not" contains "not covered"; "covered, not" overlaps it).
    Such a phrase would match text that the exclusion says is an answer, not a refusal."""
    out = []
    for phrase in phrases:
        p = _words(phrase)
        for exclusion in exclusions:
            e = _words(exclusion)
            if not p or not e or p == e:
                continue  # the same phrase is reported as "both a phrase and an exclusion"
            joined_p, joined_e = f" {' '.join(p)} ", f" {' '.join(e)} "
            if joined_e in joined_p:
                out.append((phrase, "contains", exclusion))
            elif joined_p in joined_e:
                out.append((phrase, "lies inside", exclusion))
            elif any(p[:k] == e[-k:] or e[:k] == p[-k:] for k in range(1, min(len(p), len(e)))):
                out.append((phrase, "overlaps", exclusion))
    return out
