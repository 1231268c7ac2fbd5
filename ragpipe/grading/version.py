"""The grader version: computed from everything that can change a verdict, never bumped by hand.

A verdict depends on the rules file and on the code that reads questions,
mines needles, parses figures, matches text and applies the rules. The
version is a hash of the rules file's bytes and of the source of each of
those modules, so editing a constant anywhere in them is a new version and
every grade row says which one produced it. `VERDICT_MODULES` lists them;
a test checks that every module the grader imports is on the list.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent.parent

# paths relative to the `ragpipe` package: the modules whose source decides a verdict
VERDICT_MODULES = (
    "grading/grade_table.py",
    "grading/record.py",
    "grading/grader.py",
    "grading/outcomes.py",
    "grading/declines.py",
    "grading/decline_grammar.py",
    "grading/regex_trie.py",
    "grading/voice.py",
    "grading/patterns.py",
    "grading/checks/__init__.py",
    "grading/checks/view.py",
    "grading/checks/registry.py",
    "grading/checks/decline.py",
    "grading/checks/money_key.py",
    "grading/checks/money_guard.py",
    "grading/checks/forbidden.py",
    "grading/checks/polarity.py",
    "grading/checks/needles.py",
    "grading/checks/citations.py",
    "grading/rules.py",
    "grading/version.py",
    "text/figures.py",
    "text/matching.py",
    "text/calculation.py",
    "text/tokenize.py",
    "text/needle_kinds.py",
    "text/dates.py",
    "text/sentences.py",
    "text/stated.py",
    "inputs/text.py",
    "inputs/json_file.py",
    "warehouse/nulls.py",
    "corpus/needles.py",
    "corpus/gold_text.py",
    "corpus/questions.py",
    "corpus/adapters/__init__.py",
    "corpus/adapters/contained.py",
    "corpus/adapters/demo.py",
    "corpus/adapters/folder.py",
    "corpus/adapters/financebench.py",
    "corpus/adapters/aragog.py",
    "corpus/adapters/openragbench.py",
)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class GraderFingerprint:
    """What a grader version is made of: the rules text and the hash of each verdict module."""

    version: str
    rules_sha: str
    code_sha: str
    modules: dict[str, str]


def code_fingerprint(root: Path | None = None) -> tuple[str, dict[str, str]]:
    """(hash over all verdict modules, hash per module) of the package at `root` (default: this one)."""
    if root is None:
        return _installed_code()
    modules = {name: _sha((root / name).read_bytes()) for name in VERDICT_MODULES}
    combined = _sha("".join(f"{name}\0{sha}\n" for name, sha in sorted(modules.items())).encode())
    return combined, modules


@lru_cache(maxsize=1)  # read once per process: the source does not change under a running grader
def _installed_code() -> tuple[str, dict[str, str]]:
    return code_fingerprint(PACKAGE_ROOT)


def grader_fingerprint(rules_bytes: bytes, root: Path | None = None) -> GraderFingerprint:
    code_sha, modules = code_fingerprint(root)
    rules_sha = _sha(rules_bytes)
    version = "g-" + _sha(f"rules:{rules_sha}\0code:{code_sha}".encode())[:12]
    return GraderFingerprint(version, rules_sha, code_sha, modules)
