"""Which judge grades a pair: --judge over the configuration's, the corpus's override over the shared knob."""

from __future__ import annotations

import shutil

import pytest
import yaml

from ragpipe.grading.rules import load_rules
from ragpipe.judge import JudgeError, pair_judge, pair_judging
from tests.conftest import ROOT


@pytest.fixture()
def corpora(tmp_path):
    folder = tmp_path / "corpora"
    shutil.copytree(ROOT / "corpora", folder)
    configs = yaml.safe_load((folder / "configs.yaml").read_text())
    configs["configs"]["default"] |= {"judge": "local-vllm", "judge_on": "all"}
    (folder / "configs.yaml").write_text(yaml.safe_dump(configs))
    return folder


def test_the_configuration_names_the_judge_and_judge_overrides_it(corpora):
    assert pair_judge(corpora, "demo", "default") == ("local-vllm", "all")
    assert pair_judge(corpora, "demo", "small-chunks") == ("", "tentative")
    assert pair_judge(corpora, "demo", "small-chunks", "openai-mini") == ("openai-mini", "tentative")
    assert pair_judge(corpora, "demo", "default", "openai-mini", "all") == ("openai-mini", "all")
    assert pair_judge(corpora, "no-such-corpus", "default") == ("", "tentative")  # answers imported alone


def test_a_corpus_override_names_its_own_judge(corpora):
    manifest = corpora / "demo.yaml"
    data = yaml.safe_load(manifest.read_text())
    data.setdefault("config_overrides", {})["small-chunks"] = {"judge": "openai-mini"}
    manifest.write_text(yaml.safe_dump(data))
    assert pair_judge(corpora, "demo", "small-chunks")[0] == "openai-mini"


def test_the_pair_grader_names_the_judge_and_refuses_an_unknown_one(corpora):
    rules = load_rules()
    judges = corpora / "configs.yaml"
    judged = pair_judging(rules, judges, corpora, "demo", "default").rules
    assert judged.version.startswith(rules.version + "+j-")
    assert pair_judging(rules, judges, corpora, "demo", "wide-k").rules.version == rules.version
    configs = yaml.safe_load(judges.read_text())
    configs["configs"]["wide-k"]["judge"] = "nobody"
    judges.write_text(yaml.safe_dump(configs))
    with pytest.raises(JudgeError, match=r"configuration 'wide-k' of corpus 'demo': unknown judge 'nobody'; known: "):
        pair_judging(rules, judges, corpora, "demo", "wide-k")


def test_a_bad_judge_on_is_refused_not_dropped(corpora):
    from ragpipe.corpus.manifest import ManifestError

    configs = yaml.safe_load((corpora / "configs.yaml").read_text())
    configs["configs"]["wide-k"]["judge_on"] = "sometimes"
    (corpora / "configs.yaml").write_text(yaml.safe_dump(configs))
    with pytest.raises(ManifestError, match="configuration 'wide-k' for corpus 'demo'"):
        pair_judge(corpora, "demo", "wide-k")
