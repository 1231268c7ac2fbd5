"""The corpus: PDFs ingested, questions read and checked, needles mined (one partition per corpus)."""

from dagster import Definitions, load_assets_from_modules

from assets.corpus import ingest, questions

defs = Definitions(assets=load_assets_from_modules([ingest, questions]))
