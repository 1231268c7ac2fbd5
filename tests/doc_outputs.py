"""The docs' "real output" blocks, regenerated from a warehouse and checked against it.

A block is marked by an HTML comment (invisible once rendered) right before its fence:

    <!-- output demo: ragpipe scorecard --corpus demo --config default -->
    ```
    ...what the command prints...
    ```

`demo` blocks hold what the commands print after `make run`; `financebench` blocks what they
print on a warehouse holding FinanceBench's default pair (../shared/data). A command is run with
bash (pipes allowed), `ragpipe` from this interpreter's folder, on `RAGPIPE_WAREHOUSE`, with
COLUMNS=100; trailing spaces and blank edges are not compared.

    python -m tests.doc_outputs --source demo            # check: exit 1 and a diff when a block is stale
    python -m tests.doc_outputs --source demo --write    # rewrite the blocks (`make docs` does both sources)
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MARKER = re.compile(r"^<!-- output (\w+): (.+?) -->\n```[a-z]*\n(.*?)^```$", re.M | re.S)
COLUMNS = "100"


@dataclass(frozen=True)
class Block:
    file: Path
    line: int
    source: str
    command: str
    expected: str
    span: tuple[int, int]  # the block's body in the file's text


def blocks(sources: set[str] | None = None, files: list[Path] = DOCS) -> list[Block]:
    found = []
    for path in files:
        text = path.read_text()
        for m in MARKER.finditer(text):
            if sources is None or m[1] in sources:
                line = text.count("\n", 0, m.start()) + 1
                found.append(Block(path, line, m[1], m[2], m[3], m.span(3)))
    return found


def _clean(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines()).strip("\n") + "\n"


def run(block: Block, env: dict | None = None) -> str:
    """What the block's command prints now (stdout then stderr, as a terminal shows them)."""
    bin_dir = str(Path(sys.executable).parent)
    env = {**(env or os.environ), "COLUMNS": COLUMNS, "PATH": f"{bin_dir}:{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-c", block.command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    return _clean(done.stdout + done.stderr)


def stale(found: list[Block], env: dict | None = None) -> list[str]:
    """A diff per block whose output moved."""
    diffs = []
    for block in found:
        now = run(block, env)
        if _clean(block.expected) != now:
            where = f"{block.file.relative_to(ROOT)}:{block.line}"
            lines = difflib.unified_diff(
                _clean(block.expected).splitlines(),
                now.splitlines(),
                f"{where} (in the docs)",
                f"{block.command} (now)",
                lineterm="",
            )
            diffs.append("\n".join(lines))
    return diffs


def write(found: list[Block], env: dict | None = None) -> int:
    """Rewrite each block with what its command prints now; returns how many changed."""
    changed = 0
    for path in {b.file for b in found}:
        text = path.read_text()
        for block in sorted((b for b in found if b.file == path), key=lambda b: -b.span[0]):
            now = run(block, env)
            if _clean(block.expected) != now:
                changed += 1
                text = text[: block.span[0]] + now + text[block.span[1] :]
        path.write_text(text)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", action="append", choices=["demo", "financebench"], required=True)
    parser.add_argument("--write", action="store_true", help="rewrite stale blocks instead of failing")
    args = parser.parse_args(argv)
    found = blocks(set(args.source))
    if args.write:
        print(f"{write(found)} of {len(found)} output blocks rewritten")
        return 0
    diffs = stale(found)
    print("\n\n".join(diffs) or f"{len(found)} output blocks as the code prints them")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
