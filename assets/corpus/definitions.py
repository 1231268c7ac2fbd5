"""The corpus: PDFs ingested, questions read and checked, needles mined (one partition per corpus)."""

from dagster import Definitions, load_assets_from_modules

from assets.corpus import ingest, questions
from assets.shared.partitions import with_partitions_said

defs = Definitions(assets=with_partitions_said(load_assets_from_modules([ingest, questions])))
