"""A long history costs what a pair holds now: the commands that read `grade_history`, on a warehouse
whose history was grown to a size you give, beside the same warehouse ungrown, in one run.

A scratch warehouse gets the demo corpus under its configurations (`ragpipe run --corpus demo`) and one
regrade under changed rules, so every pair has two gradings. A copy of it is then grown, in the schema the
code writes, to `--rows` history rows (default 1,000,000; 100,000 with --quick): the pairs' rows written
again as gradings that came before, under 100 past grader versions, a quarter of them the current
answers' own past and the rest answer sets since retired (a new set every 50 past gradings), each past
grading an event of its pair. Then each command runs as a user types it, alternately on the ungrown and the
grown warehouse, `--rounds` times (default 2); each time is wall-clock, each memory the peak resident set of
the command and everything it waited for (`os.wait4`). The ratio is the grown's median over the ungrown's.

- `regrade, nothing changed`: `ragpipe regrade` with the rules it graded under;
- `regrade, rules changed`: `ragpipe regrade --rules` alternating two rule files that differ by one
  decline phrase no answer says (a new grader version each time, every verdict the same);
- `delta of one pair`: `ragpipe delta --corpus demo --config default`;
- `one question's history`: the docs' query through `ragpipe sql`, as a table.

    python bench/history.py [--rows N] [--rounds N] [--quick] [--json] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import report  # noqa: E402

from ragpipe.warehouse.settings import PROJECT_ROOT  # noqa: E402

RAGPIPE = str(Path(sys.executable).with_name("ragpipe"))
PAST_VERSIONS = 100
RETIRE_EVERY = 50  # past gradings between two answer sets retired
CURRENT_SHARE = 4  # one past grading in this many is of the current answers


def _env(warehouse: Path) -> dict:
    return {**os.environ, "RAGPIPE_WAREHOUSE": str(warehouse), "DAGSTER_HOME": str(warehouse / "dagster_home")}


# Runs the command and says its peak: measured from this small process, since a child's peak starts at
# its parent's (Linux carries the memory a process had before exec into its maximum), and this one is small
_PEAK = (
    "import resource, subprocess, sys\n"
    "code = subprocess.call(sys.argv[1:])\n"
    "sys.stderr.write('\\npeak_kb %d\\n' % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    "sys.exit(code)\n"
)


def _run(env: dict, *args: str) -> tuple[float, float, str]:
    """(seconds, peak MB, stdout) of one command, failing loudly; the peak is of the command and every
    process it waited for."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-S", "-c", _PEAK, RAGPIPE, *args], env=env, cwd=PROJECT_ROOT, capture_output=True, text=True
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(
            f"ragpipe {' '.join(args)} failed ({done.returncode}): {done.stdout[-1000:]} {done.stderr[-2000:]}"
        )
    peak_kb = int(done.stderr.rsplit("peak_kb ", 1)[1].split()[0])
    return seconds, peak_kb / 1024, done.stdout


def _rules_pair(folder: Path) -> tuple[Path, Path]:
    """Two rule files, the packaged rules and the same with one more decline phrase no answer says."""
    from ragpipe.grading.rules import DEFAULT_RULES

    text = DEFAULT_RULES.read_text()
    a, b = folder / "rules-a.yaml", folder / "rules-b.yaml"
    a.write_text(text)
    data = yaml.safe_load(text)
    data["declines"]["phrases"] = [*data["declines"]["phrases"], "zzqx nowhere said"]
    b.write_text(yaml.safe_dump(data, sort_keys=False))
    return a, b


def grow(database: Path, rows: int) -> dict:
    """Write the pairs' history again as past gradings until `grade_history` holds `rows` rows; the current
    events keep their order after them (their seqs moved past the new ones)."""
    conn = duckdb.connect(str(database))
    try:
        base = conn.execute("SELECT count(*) FROM grade_history").fetchall()[0][0]
        pairs = conn.execute("SELECT DISTINCT corpus, config FROM grade_history ORDER BY ALL").fetchall()
        reps = max(0, -(-(rows - base) // base))
        shift = reps * len(pairs) + 1
        conn.execute("BEGIN")
        conn.execute("UPDATE grading_events SET seq = seq + ?", [shift])
        conn.execute("UPDATE grade_history SET event_seq = event_seq + ?", [shift])
        tables = {t for (t,) in conn.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        for table in {"grade_deltas", "grade_deltas_computed"} & tables:  # a warehouse graded once has none
            conn.execute(f"UPDATE {table} SET from_event = from_event + ?, to_event = to_event + ?", [shift, shift])
        conn.execute(
            "CREATE TEMP TABLE pair_index AS SELECT corpus, config, row_number() OVER (ORDER BY corpus, config) - 1 "
            "AS p FROM (SELECT DISTINCT corpus, config FROM grade_history)"
        )
        conn.execute(
            "CREATE TEMP TABLE base AS SELECT h.*, p FROM grade_history h JOIN pair_index USING (corpus, config)"
        )
        columns = [r[0] for r in conn.execute("DESCRIBE grade_history").fetchall()]
        retired = f"r.r % {CURRENT_SHARE} <> 0"
        generation = f"'~' || (r.r // {RETIRE_EVERY})"
        made = {
            "answer_id": f"CASE WHEN {retired} THEN b.answer_id || {generation} ELSE b.answer_id END",
            "answer_set": f"CASE WHEN {retired} THEN b.answer_set || {generation} ELSE b.answer_set END",
            "grader_version": f"'g-past-' || lpad(CAST(r.r % {PAST_VERSIONS} AS VARCHAR), 3, '0')",
            "verdict": "CASE WHEN hash(b.answer_id, r.r) % 5 = 0 THEN 'wrong' ELSE b.verdict END",
            "event_seq": f"r.r * {len(pairs)} + b.p + 1",
            "graded_at": f"b.graded_at - to_hours(CAST({reps} - r.r AS BIGINT))",
            "run_id": "'bench-past-' || CAST(r.r AS VARCHAR)",
        }
        select = ", ".join(made.get(c, f"b.{c}") + f' AS "{c}"' for c in columns)
        conn.execute(
            f"INSERT INTO grade_history SELECT {select} FROM base b, (SELECT range AS r FROM range({reps})) r "
            f"ORDER BY r.r, b.p LIMIT {max(0, rows - base)}"
        )
        conn.execute(
            "INSERT INTO grading_events SELECT DISTINCT event_seq, corpus, config, grader_version, run_id, "
            "max(graded_at) OVER (PARTITION BY event_seq), NULL, NULL FROM grade_history WHERE event_seq < ? "
            "QUALIFY row_number() OVER (PARTITION BY event_seq) = 1",
            [shift],
        )
        conn.execute(
            "INSERT INTO grader_versions SELECT DISTINCT grader_version, NULL, NULL, NULL FROM grade_history "
            "WHERE grader_version LIKE 'g-past-%'"
        )
        conn.execute("COMMIT")
        conn.execute("CHECKPOINT")
        total = conn.execute("SELECT count(*), count(DISTINCT answer_id) FROM grade_history").fetchall()[0]
        return {"rows": int(total[0]), "answers_ever": int(total[1]), "past_gradings": reps * len(pairs)}
    finally:
        conn.close()


def run(rows: int, rounds: int, keep: Path | None = None) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-history-") as tmp:
        folder = keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        rules_a, rules_b = _rules_pair(folder)
        small, grown = folder / "ungrown", folder / "grown"
        env = _env(small)
        _run(env, "run", "--corpus", "demo")
        _run(env, "regrade", "--rules", str(rules_b))
        _run(env, "regrade", "--rules", str(rules_a))
        shutil.copytree(small, grown)
        built = grow(grown / "ragpipe.duckdb", rows)
        question = (
            duckdb.connect(str(small / "ragpipe.duckdb"), read_only=True)
            .execute("SELECT question_id FROM grades ORDER BY ALL LIMIT 1")
            .fetchall()[0][0]
        )
        history = (
            "SELECT event_seq, grader_version, answer_set, verdict, rule FROM grade_history "
            f"WHERE question_id = '{question}' ORDER BY event_seq"
        )
        commands = {
            "regrade, nothing changed": lambda i: ("regrade", "--rules", str(rules_a)),
            "regrade, rules changed": lambda i: ("regrade", "--rules", str(rules_b if i % 2 == 0 else rules_a)),
            "delta of one pair": lambda i: ("delta", "--corpus", "demo", "--config", "default"),
            "one question's history": lambda i: ("sql", history),
        }
        result: dict = {"rows_ungrown": _count(small), **{f"grown_{k}": v for k, v in built.items()}}
        for name, args in commands.items():
            times: dict[str, list[float]] = {"ungrown": [], "grown": []}
            peaks: dict[str, list[float]] = {"ungrown": [], "grown": []}
            for i in range(rounds):
                for which, where in (("ungrown", small), ("grown", grown)):
                    seconds, peak, _ = _run(_env(where), *args(i))
                    times[which].append(seconds)
                    peaks[which].append(peak)
            for which in ("ungrown", "grown"):
                result[f"{name}: {which} s"] = statistics.median(times[which])
                result[f"{name}: {which} peak MB"] = max(peaks[which])
            result[f"{name}: ratio"] = statistics.median(times["grown"]) / statistics.median(times["ungrown"])
        return result


def _count(warehouse: Path) -> int:
    conn = duckdb.connect(str(warehouse / "ragpipe.duckdb"), read_only=True)
    try:
        return int(conn.execute("SELECT count(*) FROM grade_history").fetchall()[0][0])
    finally:
        conn.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=None, help="history rows of the grown warehouse")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="100,000 rows, one round")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", type=Path, help="build the two warehouses in this folder and leave them there")
    args = parser.parse_args()
    rows = args.rows or (100_000 if args.quick else 1_000_000)
    result = run(rows, 1 if args.quick else args.rounds, args.keep)
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        report(f"history grown to {rows:,} rows", result, False)
