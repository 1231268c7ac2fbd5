"""Which judge grades a pair: the one named for every pair (`--judge`, RAGPIPE_JUDGE), else the one its
configuration names (`judge:` under it in corpora/configs.yaml, or a corpus's `config_overrides`), else none.

A judge is part of the evaluation's configuration, as the engine and the chunk size are: named there, every
command, the UI and the sensors grade the pair with it; `--judge` overrides it for one command.
"""

from __future__ import annotations

from pathlib import Path

from ragpipe.corpus.manifest import ManifestError, list_corpora, load_configs, resolve_config
from ragpipe.judge.config import JudgeError, judge_named, rules_judged_by


def pair_judge(corpora: Path, corpus: str, config: str, override: str = "", override_on: str = "tentative"):
    """(the judge's name, or "" for none; which verdicts it is asked about) for the pair."""
    if override:
        return override, override_on
    try:
        knobs = resolve_config(list_corpora(corpora)[corpus], config, load_configs(corpora))
    except (KeyError, ManifestError):  # a pair of no declared corpus or configuration (answers imported alone)
        return "", override_on
    return knobs.judge or "", knobs.judge_on or override_on


def pair_grader(rules, judges: Path, corpora: Path, corpus: str, config: str, override: str = ""):
    """`rules` named for the pair's judge (their version `g-...+j-...`), or as they are when it has none; a
    configuration naming a judge `judges` does not know is refused, naming the configuration."""
    name, _ = pair_judge(corpora, corpus, config, override)
    if name and not override:
        try:
            judge_named(judges, name)
        except JudgeError as exc:
            raise JudgeError(f"configuration {config!r} of corpus {corpus!r}: {exc}") from None
    return rules_judged_by(rules, judges, name)
