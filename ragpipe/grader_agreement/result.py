"""`ragpipe.agreement`'s answer: the report `ragpipe agreement --json` prints, read as a mapping, with a
table of it (one row per scope) and one line that says what it found."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ragpipe.grader_agreement.agreement import agreement_rows
from ragpipe.grading.report_mapping import ReportMapping


@dataclass(frozen=True, repr=False, eq=False)
class AgreementResult(ReportMapping):
    """The grader against people on one labelled set. `result["kappa"]` and `dict(result)` read the report
    as before; `frame` is its figures by scope; `summary()` (and `repr`) one line."""

    @property
    def kappa(self) -> float | None:
        return self.data["kappa"]

    @property
    def accuracy(self) -> float | None:
        return self.data["accuracy"]

    @property
    def frame(self) -> pd.DataFrame:
        """One row per scope (overall, each question type, each file, each firmness of the grader's verdict):
        n, accuracy, kappa, refusal precision, recall and F1, false correct, bias, the confusion as JSON."""
        rows = agreement_rows(self.data, "", "", self.data["grader_version"])
        return rows.drop(columns=["corpus", "config", "grader_version"])

    def summary(self) -> str:
        r = self.data
        f1 = r["refusal"]["f1"]
        skipped = f"; {len(r['problems'])} row(s) skipped" if r.get("problems") else ""
        return (
            f"{r['n']} labelled answers: accuracy {r['accuracy']}, kappa {r['kappa']}, refusal F1 "
            f"{'n/a' if f1 is None else f1}, false correct {r['false_correct']} (grader {r['grader_version']})"
            f"{skipped}"
        )
