"""The system under test for one pair: the configured engine, the answer set it fills, what it depends on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from ragpipe.answering.engines import make_engine
from ragpipe.answering.engines.base import Engine
from ragpipe.answering.run import settings_hash
from ragpipe.corpus.manifest import PipelineConfig
from ragpipe.inputs.names import answer_set_name


@dataclass(frozen=True)
class System:
    knobs: PipelineConfig
    engine: Engine
    answer_set: str  # the configuration's (`--answer-set`), else the engine's (its name, unless it names one)
    settings: dict  # the engine's settings and the retrieval knobs: recorded with every answer
    settings_key: str  # the answer log files answers under it: a changed setting asks again


def system_for(knobs: PipelineConfig) -> System:
    engine = make_engine(knobs.engine, knobs.engine_settings)
    settings = {
        **engine.settings,
        "top_k": knobs.top_k,
        "chunk_size": knobs.chunk_size,
        "chunk_overlap": knobs.chunk_overlap,
    }
    answer_set = answer_set_name(cast(str, knobs.answer_set or getattr(engine, "answer_set", engine.name)))
    return System(knobs, engine, answer_set, settings, settings_hash(engine.name, settings))
