"""A judge configuration: a named entry beside the corpus configurations (`corpora/configs.yaml`,
`judges:`), and the identity a judgment is stored under.

The identity is what makes two judges the same ruler: the model, the prompts' hash and the decoding
parameters (never the URL or the key: the same model served elsewhere judges alike). Verdicts recorded
elsewhere (`ragpipe judge import`) carry no prompt or parameters; their identity is the name given and
says so. A judge's identity is part of the grader version of every grade it decided.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator, model_validator

from ragpipe.inputs.names import NameRefused, config_name
from ragpipe.inputs.yaml_text import load_yaml
from ragpipe.judge.keep import KeepRule, keep_id, naming_rules
from ragpipe.judge.prompt import prompts_hash
from ragpipe.judge.track_record import read_record, record_path


class JudgeError(ValueError):
    """A judge configuration that cannot be used; the message names the file and field."""


class JudgeConfig(BaseModel):
    """One `judges:` entry: an OpenAI-compatible chat endpoint, asked at temperature 0 with a seed. No
    number may be infinite or NaN (`timeout: .inf` would fail every regrade mid-run: refused at load)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    name: str = ""
    base_url: str = ""
    model: str = ""
    recorded: bool = Field(
        False,
        description="verdicts recorded elsewhere, loaded by `ragpipe judge import` under its name: applied, not asked",
    )
    api_key_env: str = Field("OPENAI_API_KEY", description="the variable holding the key; never the key itself")
    temperature: float = 0.0
    seed: int = 0
    max_tokens: int = Field(200, ge=16)
    response_format: Literal["json_schema", "none"] = Field(
        "json_schema",
        description="json_schema: the server holds its reply to the verdict's schema; none: a server without it",
    )
    concurrency: int = Field(4, ge=1, le=64)
    timeout: float = Field(60.0, gt=0)
    attempts: int = Field(4, ge=1)
    prompt_price: float = Field(0.0, ge=0, description="price per million prompt tokens")
    completion_price: float = Field(0.0, ge=0, description="price per million completion tokens")
    max_calls: int | None = Field(None, ge=0, description="stop asking after this many calls in one run")
    max_cost: float | None = Field(None, ge=0, description="stop asking once a run has spent this much")
    budget: float | None = Field(
        None, gt=0, le=1, description="ask about at most this share of a pair's answers, the least confident first"
    )
    keep: list[KeepRule] = Field(
        default_factory=list, description="rule verdicts it may not overturn, by question kind and deciding rule"
    )
    _held: tuple[KeepRule, ...] = PrivateAttr(default=())  # the cells its track record does not win

    _keep_names_rules = field_validator("keep")(naming_rules)

    @property
    def keeps(self) -> tuple[KeepRule, ...]:
        """What it may not overturn: its `keep:` list, then the cells its track record holds
        (judge/track_record.py)."""
        return tuple(dict.fromkeys((*self.keep, *self._held)))

    def held_by(self, held: Iterable[KeepRule]) -> JudgeConfig:
        """This configuration, its track record holding `held`."""
        self._held = tuple(held)
        return self

    @model_validator(mode="after")
    def _reachable(self) -> JudgeConfig:
        if not self.recorded and not (self.base_url and self.model):
            raise ValueError("base_url and model are needed to ask a judge (or `recorded: true` for imported verdicts)")
        return self

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (prompt_tokens * self.prompt_price + completion_tokens * self.completion_price) / 1e6


class JudgeIdentity(BaseModel):
    """Who judged: a configured model with its prompts and parameters, or verdicts recorded elsewhere."""

    model_config = ConfigDict(frozen=True)
    name: str
    model: str | None = None
    prompts: str | None = None  # the prompts' hash
    parameters: dict = Field(default_factory=dict)
    recorded: bool = False  # verdicts recorded elsewhere: no prompt, no parameters

    @property
    def id(self) -> str:
        """`j-` and a hash of everything but the name, for a model; `r-` and the name's hash, for recorded."""
        if self.recorded:
            return "r-" + _digest(self.name)
        body = json.dumps([self.model, self.prompts, self.parameters], sort_keys=True)
        return "j-" + _digest(body)


def identity_of(config: JudgeConfig) -> JudgeIdentity:
    if config.recorded:  # the identity `judge import` stores recorded verdicts under
        return recorded_identity(config.name)
    return JudgeIdentity(
        name=config.name,
        model=config.model,
        prompts=prompts_hash(),
        parameters={
            "temperature": config.temperature,
            "seed": config.seed,
            "max_tokens": config.max_tokens,
            "response_format": config.response_format,
        },
    )


def recorded_identity(name: str) -> JudgeIdentity:
    return JudgeIdentity(name=name, recorded=True)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def load_judges(path: Path) -> dict[str, JudgeConfig]:
    """The named judges of the YAML file `path` (its `judges:` mapping; none when it has none)."""
    try:
        data = load_yaml(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise JudgeError(f"{path}: cannot read judges: {exc}") from exc
    entries = data.get("judges") or {}
    if not isinstance(entries, dict):
        raise JudgeError(f"{path}: field judges: expected a mapping of name -> settings")
    judges = {}
    for name, settings in entries.items():
        try:
            config_name(name)
            judge = JudgeConfig.model_validate({**(settings or {}), "name": name})
            record = read_record(record_path(path, identity_of(judge).id))
            judges[name] = judge.held_by(record.held() if record else ())
        except NameRefused as exc:
            raise JudgeError(f"{path}: field judges.{name}: {exc}") from None
        except ValidationError as err:
            fields = "; ".join(f"field judges.{name}.{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in err.errors())
            raise JudgeError(f"{path}: {fields}") from None
        except ValueError as exc:  # its track record's file is not one (named)
            raise JudgeError(f"judge {name!r}: {exc}") from None
    return judges


def judge_named(path: Path, name: str) -> JudgeConfig:
    """The judge `name` of the file `path`, or a JudgeError naming the known ones."""
    judges = load_judges(path)
    if name not in judges:
        known = ", ".join(sorted(judges)) or "none configured"
        raise JudgeError(f"unknown judge {name!r}; known: {known} ({path}, `judges:`)")
    return judges[name]


def rules_judged_by(rules, path: Path, name: str):
    """`rules` named for the judge `name` configured in `path`, and what it keeps (as they are, with no name)."""
    if not name:
        return rules
    config = judge_named(path, name)
    return judged_rules(rules, identity_of(config), config.keeps, config.budget)


def judged_rules(rules, identity: JudgeIdentity | None, keep: Iterable[KeepRule] = (), budget: float | None = None):
    """`rules` whose version names the judge too (`+j-...`), the verdicts it may not overturn when it keeps
    some (`+k-...`) and the share it may be asked about (`+b-0.3`): a judge change, or a change of what it
    keeps or how many it is asked about, is a ruler change with its own delta."""
    if identity is None:
        return rules
    keep = tuple(keep)
    judged = rules.model_copy()
    judged.version = (
        f"{rules.version}+{identity.id}" + (f"+{keep_id(keep)}" if keep else "") + (f"+b-{budget:g}" if budget else "")
    )
    judged.rules_text = rules.rules_text + "\n# judge: " + identity.model_dump_json() + "\n"
    if keep:
        judged.rules_text += "# keeps: " + ", ".join(sorted(k.written() for k in keep)) + "\n"
    if budget:
        judged.rules_text += f"# budget: {budget:g} of the answers, the least confident first\n"
    return judged
