"""Partitions only for the corpora whose data is here: a declared corpus without its data is no row of
missing partitions on every asset (the UI read nine missing partitions as something failed), and the
descriptions name it."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import ROOT

PROBE = """
import json
import assets.definitions as d
from assets.shared import partitions as p
grades = d.built().resolve_assets_def("grades")
print(json.dumps({"corpora": p.CORPORA, "absent": p.ABSENT, "pairs": len(p.pair_partitions.get_partition_keys()),
                  "description": grades.specs_by_key[grades.key].description}))
"""


def _definitions(tmp_path, **env) -> dict:
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "RAGPIPE_WAREHOUSE": str(tmp_path / "wh"), **env}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=environment, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_corpus_whose_data_is_absent_is_no_partition_and_is_named(tmp_path):
    nowhere = str(tmp_path / "nowhere")
    seen = _definitions(
        tmp_path, RAGPIPE_FINANCEBENCH_DIR=nowhere, RAGPIPE_ARAGOG_DIR=nowhere, RAGPIPE_OPENRAGBENCH_DIR=nowhere
    )
    assert seen["corpora"] == ["demo"] and seen["pairs"] == 3  # the demo's PDFs are the project's own
    assert set(seen["absent"]) == {"financebench", "aragog", "openragbench"}
    assert "Declared but absent here" in seen["description"] and "financebench" in seen["description"]
    assert "so the UI reads 100% materialized" in seen["description"]
