"""Corpus manifests and question configurations, validated at the boundary.

A corpus is a YAML file in `corpora/` naming its adapter, where its PDFs and
questions live, and optional per-configuration overrides. A configuration is
a named set of knobs (chunking, retrieval depth, engine) from
`corpora/configs.yaml`; scorecards are per (corpus, configuration) pair.
"""

from __future__ import annotations

import copy
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ragpipe.inputs.names import NameRefused, answer_set_name, config_name
from ragpipe.inputs.text import valid_json
from ragpipe.inputs.yaml_text import load_yaml

# not hashed into the grader version (grading/version.py)
DECIDES_NO_VERDICT = "where a corpus's files are"


class ManifestError(ValueError):
    """A manifest or configuration file that cannot be used, with file and field."""


class PipelineConfig(BaseModel):
    """The knobs of one question configuration."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    chunk_size: int = Field(200, gt=10, description="words per chunk")
    chunk_overlap: int = Field(40, ge=0, description="words shared by neighbouring chunks")
    top_k: int = Field(5, ge=1, le=100)
    engine: str = "extractive"
    engine_settings: dict[str, Any] = Field(default_factory=dict)
    concurrency: int = Field(4, ge=1, le=64, description="engine requests in flight at once")
    answer_set: str | None = Field(
        None, min_length=1, description="the name of the system's answers in the pair (default: the engine's)"
    )
    judge: str | None = Field(
        None, min_length=1, description="a `judges:` entry the pair is graded with too (`--judge` overrides it)"
    )
    judge_on: Literal["tentative", "all"] | None = Field(
        None, description="which rule verdicts that judge is asked about (default: tentative)"
    )

    @field_validator("name")
    @classmethod
    def _a_name(cls, value: str) -> str:
        return config_name(value)

    @field_validator("answer_set")
    @classmethod
    def _a_set_name(cls, value: str | None) -> str | None:
        return None if value is None else answer_set_name(value)

    @model_validator(mode="after")
    def _overlap_below_size(self) -> PipelineConfig:
        if self.chunk_overlap >= self.chunk_size:
            raise ValueError("chunk_overlap must be smaller than chunk_size")
        return self


class AnswerImport(BaseModel):
    """A folder of answers to import beside the engine's, e.g. human-labelled ones."""

    model_config = ConfigDict(extra="forbid")
    path: str = Field(description="relative to the data folder")
    format: Literal["financebench_labels"]
    path_env: str | None = Field(None, description="environment variable that overrides path")


class Sample(BaseModel):
    """How a corpus is drawn from a larger benchmark (the openragbench adapter): N golden papers whose
    questions are asked, M distractor papers in the corpus but not asked about, K negative questions
    about papers left out; seeded, so one seed is one corpus."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    golden: int = Field(20, ge=1, description="papers whose questions are asked (answerable)")
    distractors: int = Field(10, ge=0, description="papers in the corpus that no question is about")
    negatives: int = Field(20, ge=0, description="questions about papers left out of the corpus")
    per_paper: int | None = Field(5, ge=1, description="questions asked per golden paper (None: all)")
    seed: int = 0


class CorpusManifest(BaseModel):
    """One corpus: its adapter, data folder and question set."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    adapter: Literal["demo", "folder", "financebench", "aragog", "openragbench"]
    description: str = ""
    data_dir: str | None = Field(None, description="the corpus's data folder, relative to the manifest")
    data_dir_env: str | None = Field(None, description="environment variable that overrides data_dir")
    source: str | None = Field(None, description="demo adapter: the authored documents file")
    upstream: str | None = Field(None, description="where to get the data (said when the data folder is absent)")
    questions: str | None = Field(None, description="demo/folder adapters: questions file, relative to the manifest")
    config_overrides: dict[str, dict[str, Any]] = Field(default_factory=dict)
    imports: list[AnswerImport] = Field(default_factory=list)
    sample: Sample | None = Field(None, description="openragbench adapter: the papers and questions drawn")

    # set by the loader, not the file
    manifest_path: Path | None = Field(None, exclude=True)

    def resolve(self, relative: str) -> Path:
        assert self.manifest_path is not None
        return (self.manifest_path.parent / relative).resolve()

    def import_path(self, item: AnswerImport) -> Path:
        if item.path_env and os.environ.get(item.path_env):
            return Path(os.environ[item.path_env]).resolve()
        return (self.data_path / item.path).resolve()

    @property
    def data_path(self) -> Path:
        """The data folder: $data_dir_env if set, else data_dir relative to the manifest."""
        if self.data_dir_env and os.environ.get(self.data_dir_env):
            return Path(os.environ[self.data_dir_env]).resolve()
        if not self.data_dir:
            if self.adapter == "demo":
                return self.resolve(".")
            raise ManifestError(f"{self.manifest_path}: field data_dir: required for adapter {self.adapter!r}")
        return self.resolve(self.data_dir)


def _read_yaml(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ManifestError(f"{path}: file not found") from exc
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[: exc.start].count(b"\n") + 1
        raise ManifestError(f"{path}: line {line}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    try:
        return copy.deepcopy(_parsed(text))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise ManifestError(f"{path}:{where} invalid YAML: {exc}") from exc


@lru_cache(maxsize=64)
def _parsed(text: str) -> Any:
    """A YAML text parsed once per process: every stage of every pair asks which judge the pair has, and
    that reads configs.yaml and every manifest (185 parses in a regrade of 6 pairs, about 30 a pair).
    Keyed by the text, not by the file's time: a file rewritten is read afresh."""
    return valid_json(load_yaml(text))


def _fields(err: ValidationError, text: str | None = None) -> str:
    def where(loc) -> str:
        line = _line_of_key(text, loc) if text else None
        return f"line {line} " if line else ""

    return "; ".join(f"{where(e['loc'])}field {'.'.join(map(str, e['loc']))}: {e['msg']}" for e in err.errors())


def _line_of_key(text: str, loc) -> int | None:
    """The 1-based line of the deepest key of `loc` found in the YAML `text` (the top key, at least)."""
    try:
        node = yaml.compose(text)
    except yaml.YAMLError:
        return None
    line = None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            match = next(((k, v) for k, v in node.value if k.value == str(part)), None)
            if match is None:
                break
            line, node = match[0].start_mark.line + 1, match[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line


def _inside(base: Path, target: Path) -> bool:
    return target == base or base in target.parents


def load_manifest(path: Path) -> CorpusManifest:
    return _manifest_of(path, _read_yaml(path))


def _manifest_of(path: Path, data: Any) -> CorpusManifest:
    if not isinstance(data, dict):
        raise ManifestError(f"{path}: expected a mapping at the top level")
    text = path.read_text(encoding="utf-8")
    try:
        manifest = CorpusManifest.model_validate(data)
    except ValidationError as err:
        raise ManifestError(f"{path}: {_fields(err, text)}") from err
    manifest.manifest_path = path.resolve()
    for field in ("source", "questions"):  # the corpus's own files live beside its manifest
        value = getattr(manifest, field)
        if value and not _inside(path.resolve().parent, manifest.resolve(value)):
            line = _line_of_key(text, [field])
            raise ManifestError(
                f"{path}: line {line} field {field}: {value!r} escapes the corpus folder {path.resolve().parent}"
            )
    for i, item in enumerate(manifest.imports):
        if Path(item.path).is_absolute() or ".." in Path(item.path).parts:
            line = _line_of_key(text, ["imports", i, "path"])
            raise ManifestError(
                f"{path}: line {line} field imports.{i}.path: {item.path!r} must stay inside the data folder"
            )
    return manifest


def list_corpora(folder: Path) -> dict[str, CorpusManifest]:
    """Every `*.yaml` corpus manifest directly in `folder` (configs.yaml excluded). A YAML file that names
    neither a corpus nor an adapter (a question file set down beside the manifests) is no manifest and is
    passed over: it once broke every command; one that tries to be a manifest and fails is refused."""
    found: dict[str, CorpusManifest] = {}
    for path in sorted(folder.glob("*.yaml")):
        if path.name == "configs.yaml":
            continue
        data = _read_yaml(path)
        if not (isinstance(data, dict) and {"name", "adapter"} & data.keys()):
            continue
        manifest = _manifest_of(path, data)
        if manifest.name in found:
            raise ManifestError(f"{path}: field name: corpus {manifest.name!r} is defined twice")
        found[manifest.name] = manifest
    return found


def load_configs(folder: Path) -> dict[str, dict[str, Any]]:
    """The named configurations' knobs, as written in `configs.yaml`."""
    path = folder / "configs.yaml"
    data = _read_yaml(path)
    if not isinstance(data, dict) or not isinstance(data.get("configs"), dict):
        raise ManifestError(f"{path}: field configs: expected a mapping of name -> knobs")
    for name in data["configs"]:
        try:
            config_name(name)
        except NameRefused as exc:
            raise ManifestError(f"{path}: field configs.{name}: {exc}") from None
    return data["configs"]


def resolve_config(manifest: CorpusManifest, name: str, configs: dict[str, dict[str, Any]]) -> PipelineConfig:
    """The configuration `name` for this corpus: shared knobs, then the corpus's overrides."""
    if name not in configs:
        raise ManifestError(f"unknown configuration {name!r}; known: {', '.join(sorted(configs))}")
    knobs = {**configs[name], **manifest.config_overrides.get(name, {})}
    try:
        return PipelineConfig(name=name, **knobs)
    except ValidationError as err:
        raise ManifestError(f"configuration {name!r} for corpus {manifest.name!r}: {_fields(err)}") from err
