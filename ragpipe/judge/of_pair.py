"""Which judge grades a pair: the one named for every pair (`--judge`, RAGPIPE_JUDGE), else the one its
configuration names (`judge:` under it in corpora/configs.yaml, or a corpus's `config_overrides`), else none.

A judge is part of the evaluation's configuration, as the engine and the chunk size are: named there, every
command, the UI and the sensors grade the pair with it; `--judge` overrides it for one command.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragpipe.corpus.manifest import list_corpora, load_configs, resolve_config
from ragpipe.judge.config import JudgeConfig, JudgeError, identity_of, judge_named, judged_rules


def pair_judge(corpora: Path, corpus: str, config: str, override: str = "", override_on: str = "tentative"):
    """(the judge's name, or "" for none; which verdicts it is asked about) for the pair."""
    if override:
        return override, override_on
    manifests, configs = list_corpora(corpora), load_configs(corpora)
    if corpus not in manifests or config not in configs:  # a pair no configuration declares (answers imported)
        return "", override_on
    knobs = resolve_config(manifests[corpus], config, configs)  # a bad `judge_on:` is refused, never dropped
    return knobs.judge or "", knobs.judge_on or override_on


@dataclass(frozen=True)
class PairJudging:
    """A pair's judge, read once: its configuration (None: no judge), which rule verdicts it is asked about,
    and the pair's grader (the rules, named for the judge and what it keeps)."""

    config: JudgeConfig | None
    judge_on: str
    rules: Any  # grading.rules.Rules


def pair_judging(
    rules, judges: Path, corpora: Path, corpus: str, config: str, override: str = "", override_on: str = "tentative"
) -> PairJudging:
    """The pair's judge and grader (`pair_judge` names it); a configuration naming a judge `judges` does not
    know is refused, naming the configuration."""
    name, judge_on = pair_judge(corpora, corpus, config, override, override_on)
    if not name:
        return PairJudging(None, judge_on, rules)
    try:
        judge = judge_named(judges, name)
    except JudgeError as exc:
        if override:
            raise
        raise JudgeError(f"configuration {config!r} of corpus {corpus!r}: {exc}") from None
    return PairJudging(judge, judge_on, judged_rules(rules, identity_of(judge), judge.keeps, judge.budget))


def graded_by_pair(conn, verdicts, answers, corpus: str, judging: PairJudging):
    """The pair's rule verdicts as its grader grades them, nothing asked: named for the grader
    (`judging.rules`), and with a judge, its stored judgments applied where they decide. What the grades
    step stores, and what `ragpipe whatif` compares with it."""
    from ragpipe.judge.apply import apply_judgments
    from ragpipe.judge.store import stored_judgments
    from ragpipe.warehouse.tables import read_partition

    frame = verdicts.assign(grader_version=judging.rules.version)
    judge = judging.config
    if judge is None:
        return frame
    questions = read_partition(conn, "questions", {"corpus": corpus})
    judgments = stored_judgments(conn, identity_of(judge).id)
    return apply_judgments(frame, answers, questions, judgments, judging.judge_on, judge.keeps, judge.budget)
