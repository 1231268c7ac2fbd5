"""The grader version: computed from everything that can change a verdict, never bumped by hand.

A verdict depends on the rules file and on the code that reads questions,
mines needles, parses figures, matches text and applies the rules. The
version is a hash of the rules file's bytes and of the source of each of
those modules, so editing a constant anywhere in them is a new version and
every grade row says which one produced it.

The modules are found, not listed: every module of `grading/` (so a new
check file moves the version by itself), how a judgment decides a grade
(`judge/apply.py`; the rest of the judge is a stage of its own, its identity
named in the version as `+j-...`) and the modules that shape what a grade is
computed from (questions, gold text, needle mining, the corpus adapters),
then, transitively, every `ragpipe` module any of them imports, at any
depth. The walk stops at a module that says it decides no verdict
(`DECIDES_NO_VERDICT = "why"`, e.g. storage), so the reason lives with it.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent.parent

# where the walk starts, relative to the package: folders are taken whole
ROOTS = (
    "grading",
    "judge/apply.py",
    "corpus/questions.py",
    "corpus/gold_text.py",
    "corpus/needle_mining.py",
    "corpus/adapters",
)
_LEAVES = {"summary.py", "adhoc.py", "report_mapping.py"}  # grading/: counting grades, loose files, reports
DATA_FILES = ("grading/confidence.json",)  # data a verdict's firmness is computed from: versioned as code
STOP_MARK = "DECIDES_NO_VERDICT"


def _module_file(root: Path, dotted: str) -> Path | None:
    """The file of `ragpipe.<dotted>` under `root`, or None for a name that is no module."""
    base = root.joinpath(*dotted.split(".")) if dotted else root
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _imports(root: Path, tree: ast.Module) -> set[Path]:
    """The ragpipe modules the module parsed as `tree` imports, at any depth of its code (function bodies too)."""
    found = set()
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "ragpipe":
            module = (node.module or "").removeprefix("ragpipe").strip(".")
            names = [module] + [f"{module}.{a.name}".strip(".") for a in node.names]  # a name may be a module
        elif isinstance(node, ast.Import):
            names = [a.name.removeprefix("ragpipe").strip(".") for a in node.names if a.name.split(".")[0] == "ragpipe"]
        found |= {f for f in (_module_file(root, n) for n in names) if f is not None}
    return found


def _decides_nothing(tree: ast.Module) -> bool:
    """A module that declares `DECIDES_NO_VERDICT = "..."` at its top level (storage, plain I/O)."""
    return any(
        isinstance(node, ast.Assign) and any(getattr(t, "id", None) == STOP_MARK for t in node.targets)
        for node in tree.body
    )


def verdict_modules(root: Path | None = None) -> tuple[str, ...]:
    """Paths (relative to the package at `root`) of every module whose source can change a verdict.

    The walk parses some sixty modules (80 ms, paid by every process that loads the grader); its answer
    is a function of the package's source alone, so it is kept in a cache file named by the hash of every
    source file's path and bytes: any edit anywhere in the package is another name, and a cache that
    cannot be read or written is walked past."""
    root = root or PACKAGE_ROOT
    try:
        cache = _cache_dir() / f"verdict-modules-{_source_key(root)}.json"
    except (OSError, RuntimeError):  # RuntimeError: no home directory to keep a cache in
        return _walk(root)
    try:
        found = json.loads(cache.read_text())
        if isinstance(found, list) and all(isinstance(p, str) for p in found):
            return tuple(found)
    except (OSError, ValueError):
        pass
    found = _walk(root)
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(found))
        tmp.replace(cache)
    except OSError:
        pass
    return found


def _cache_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ragpipe"


def _source_key(root: Path) -> str:
    """The hash of every module's path and bytes under `root`: what the walk's answer is a function of."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def _walk(root: Path) -> tuple[str, ...]:
    """The walk itself: from ROOTS through every ragpipe import, stopping at modules that decide nothing."""
    todo = []
    for start in ROOTS:
        path = root / start
        if path.is_dir():
            todo += [p for p in sorted(path.rglob("*.py")) if not (start == "grading" and p.name in _LEAVES)]
        else:
            todo.append(path)
    seen: set[Path] = set()
    stops: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen or path in stops:
            continue
        tree = ast.parse(path.read_bytes(), str(path))  # once per module: the walk runs in every process
        if _decides_nothing(tree):
            stops.add(path)
            continue
        seen.add(path)
        todo += _imports(root, tree)
    return tuple(sorted(p.relative_to(root).as_posix() for p in seen))


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
    modules = {name: _sha((root / name).read_bytes()) for name in verdict_modules(root)}
    modules |= {name: _sha((root / name).read_bytes()) for name in DATA_FILES if (root / name).is_file()}
    combined = _sha("".join(f"{name}\0{sha}\n" for name, sha in sorted(modules.items())).encode())
    return combined, modules


@lru_cache(maxsize=1)  # read once per process: the source does not change under a running grader
def _installed_code() -> tuple[str, dict[str, str]]:
    return code_fingerprint(PACKAGE_ROOT)


def grader_fingerprint(
    rules_bytes: bytes, root: Path | None = None, plugins: dict[str, str] | None = None
) -> GraderFingerprint:
    """The version of these rules graded by the code at `root` (default: this package) and by the plug-in
    checks' sources (`plugins`: name -> sha256, checks/registry.py `plugin_sources`; none: the code's
    hash is the package's alone, as it always was)."""
    code_sha, modules = code_fingerprint(root)
    if plugins:
        modules = {**modules, **plugins}
        code_sha = _sha("".join(f"{name}\0{sha}\n" for name, sha in sorted(modules.items())).encode())
    rules_sha = _sha(rules_bytes)
    version = "g-" + _sha(f"rules:{rules_sha}\0code:{code_sha}".encode())[:12]
    return GraderFingerprint(version, rules_sha, code_sha, modules)
