"""The model judge: a stage of its own after the rules, its verdicts stored as data. Import it from here.

The walk of one judgment: the rules' verdicts are stored once per pair (the `rule_verdicts` table); the
answers whose rule verdict is tentative (or all, `judge_on="all"`) are the judge's; what the judge sees
of each (kind, question, gold, answer) is hashed into its input key; a judgment already stored for that
key and the judge's identity is reused, a missing one is asked (any OpenAI-compatible endpoint) or
imported (a batch output, verdicts recorded elsewhere); `apply_judgments` then lets each judgment decide
its grade as the rules' own findings do, keeping the rule verdict beside it.

This face is the package's only door (an import-linter contract holds it): what is pending, asking,
applying, storing, and the judge's configuration. Only what decides a verdict moves the grader version
(`apply.py`, `verdicts.py`, the input key in `record.py`); the judge's identity enters it as `+j-...`.
Names load on first use, so a command that never judges never imports the HTTP client.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

_WHERE = {
    # configuration and identity
    "JudgeConfig": "config",
    "JudgeError": "config",
    "JudgeIdentity": "config",
    "identity_of": "config",
    "judge_named": "config",
    "load_judges": "config",
    "judged_rules": "config",
    "recorded_identity": "config",
    "rules_judged_by": "config",
    "KeepRule": "keep",
    "parse_keep": "keep",
    "TrackCell": "track_record",
    "held_cells": "track_record",
    "record_path": "track_record",
    "recorded": "track_record",
    "pair_judge": "of_pair",
    "PairJudging": "of_pair",
    "pair_judging": "of_pair",
    "graded_by_pair": "of_pair",
    # the walk: pending, ask, apply
    "JUDGE_ON": "verdicts",
    "UNPARSED": "verdicts",
    "pending": "judging",
    "judge_table": "judging",
    "judge_rows": "judging",
    "answer_keys": "judging",
    "Asked": "ask",
    "ask_missing": "ask",
    "apply_judgments": "apply",
    "MONEY_CORRECT_REFUSED": "apply",
    # storage and files
    "judgments_frame": "store",
    "stored_judgments": "store",
    "store_judgments": "store",
    "warehouse_judgments": "store",
    # each reply kept as it arrives
    "JudgmentLog": "reply_log",
    "absorb_judgment_logs": "reply_log",
    "log_path": "reply_log",
    "batch_requests": "batch",
    "read_judgments": "batch",
}
__all__ = [
    "Asked",
    "KeepRule",
    "TrackCell",
    "JUDGE_ON",
    "JudgeConfig",
    "JudgeError",
    "JudgeIdentity",
    "MONEY_CORRECT_REFUSED",
    "UNPARSED",
    "answer_keys",
    "apply_judgments",
    "ask_missing",
    "held_cells",
    "batch_requests",
    "identity_of",
    "judge_named",
    "load_judges",
    "judge_rows",
    "judge_table",
    "judged_rules",
    "judgments_frame",
    "PairJudging",
    "pair_judge",
    "pair_judging",
    "graded_by_pair",
    "parse_keep",
    "pending",
    "read_judgments",
    "record_path",
    "recorded",
    "recorded_identity",
    "rules_judged_by",
    "store_judgments",
    "stored_judgments",
    "warehouse_judgments",
    "JudgmentLog",
    "absorb_judgment_logs",
    "log_path",
]


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from ragpipe.judge.apply import MONEY_CORRECT_REFUSED, apply_judgments
    from ragpipe.judge.ask import Asked, ask_missing
    from ragpipe.judge.batch import batch_requests, read_judgments
    from ragpipe.judge.config import (
        JudgeConfig,
        JudgeError,
        JudgeIdentity,
        identity_of,
        judge_named,
        judged_rules,
        load_judges,
        recorded_identity,
        rules_judged_by,
    )
    from ragpipe.judge.judging import answer_keys, judge_rows, judge_table, pending
    from ragpipe.judge.keep import KeepRule, parse_keep
    from ragpipe.judge.of_pair import PairJudging, graded_by_pair, pair_judge, pair_judging
    from ragpipe.judge.reply_log import JudgmentLog, absorb_judgment_logs, log_path
    from ragpipe.judge.store import judgments_frame, store_judgments, stored_judgments, warehouse_judgments
    from ragpipe.judge.track_record import TrackCell, held_cells, record_path, recorded
    from ragpipe.judge.verdicts import JUDGE_ON, UNPARSED
