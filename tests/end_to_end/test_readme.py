"""The README's tour runs as written: each command, in order, after what `make run` does.

Only the places differ: the warehouse and /tmp are the test's own folders,
and `.venv/bin/` is the interpreter's folder (the same venv under `make test`).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.commands import invoke
from tests.conftest import ROOT
from tests.doc_outputs import DOCS, blocks, stale

README = (ROOT / "README.md").read_text()


def _section(title: str) -> str:
    start = README.index(f"## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end > 0 else None]


def tour_commands() -> list[str]:
    """The command lines of the tour's bash blocks, without `make` (the server `make dev` starts)."""
    blocks = re.findall(r"```bash\n(.*?)```", _section("A ten-minute tour"), re.S)
    lines = [line.strip() for block in blocks for line in block.splitlines() if line.strip()]
    return [line for line in lines if not line.startswith("make ")]


def make_run_commands(bin_dir: Path) -> list[str]:
    """The commands of the Makefile's `run` recipe, with its tools from `bin_dir`."""
    recipe = re.search(r"^run:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M).group(1)
    lines = [line.strip() for line in recipe.splitlines()]
    return [line.replace("$(BIN)", str(bin_dir)) for line in lines if not line.startswith("mkdir")]


def test_the_readme_is_a_users_guide_of_at_most_about_350_lines():
    assert len(README.splitlines()) <= 350
    assert not re.search(r"\bI (measured|found|tried)\b|issue #?\d", README), "measurements and history belong in docs/"
    for link in re.findall(r"\]\((docs/[^)#]+)", README):
        assert (ROOT / link).is_file(), f"README links to {link}, which does not exist"


@pytest.mark.end_to_end
def test_every_command_of_the_tour_runs_as_written_after_make_run(tmp_path):
    bin_dir = Path(sys.executable).parent
    warehouse = tmp_path / "warehouse"
    env = {**os.environ, "RAGPIPE_WAREHOUSE": str(warehouse), "DAGSTER_HOME": str(tmp_path / "dagster_home")}
    env.pop("RAGPIPE_RULES", None)
    for command in make_run_commands(bin_dir):  # what `make run` does, in the test's warehouse
        setup = subprocess.run(["bash", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert setup.returncode == 0, f"{command}\n{setup.stderr[-2000:]}"
    stale_blocks = stale(blocks({"demo"}), env)  # the docs' real output, as the code prints it now
    assert not stale_blocks, "\n\n".join(stale_blocks) + "\n(`make docs` rewrites them)"
    commands = tour_commands()
    assert any("regrade" in c for c in commands) and any(c.startswith(".venv/bin/ragpipe delta") for c in commands)
    outputs = []
    for command in commands:
        line = command.replace("/tmp/", f"{tmp_path}/").replace(".venv/bin/", f"{bin_dir}/")
        line = re.sub(r"(?<![\w/])warehouse/", f"{warehouse}/", line)
        done = subprocess.run(["bash", "-c", line], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        outputs.append((command, done.stdout))
    deltas = [out for command, out in outputs if command.startswith(".venv/bin/ragpipe delta")]
    changed = [re.search(r"(\d+) of (\d+) answers changed", out) for out in deltas]
    assert all(changed) and changed[0].groups() == changed[1].groups() and int(changed[0][1]) > 0, deltas
    assert (warehouse / "reports" / "tour.html").is_file()


def test_every_command_in_the_readmes_table_exists():
    """Each `ragpipe X` the table lists answers `--help` (in this process: the commands are declared, not run)."""
    commands = sorted(set(re.findall(r"^\| `ragpipe ([a-z]+(?: stats| show| list)?)", README, re.M)))
    assert len(commands) >= 14, commands
    for command in commands:
        shown = invoke(*command.split(), "--help")
        assert shown.exit_code == 0 and "Usage" in shown.output, f"ragpipe {command}: {shown.output[-500:]}"


def test_real_output_blocks_name_a_source_and_a_ragpipe_command():
    """Every fenced block after a `<!-- output SOURCE: COMMAND -->` marker is found; an unmarked block that
    says it is real output is a block no test regenerates."""
    found = blocks()
    assert {b.source for b in found} == {"demo", "financebench"} and len(found) >= 6
    assert all(b.command.startswith("ragpipe ") and b.expected.strip() for b in found)
    for path in DOCS:
        text = path.read_text()
        for said in re.finditer(r"\(real output[^)]*\):\n\n", text):
            follows = text[said.end() :]
            assert follows.startswith("<!-- output "), (
                f"{path.name}: {text[said.start() : said.end()]!r} is not regenerated"
            )
