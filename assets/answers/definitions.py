"""The system under test: chunks, the index and its retrieval scores, and the answers (per pair)."""

from dagster import Definitions, load_assets_from_modules

from assets.answers import answers, index
from assets.shared.partitions import with_partitions_said

defs = Definitions(assets=with_partitions_said(load_assets_from_modules([index, answers])))
