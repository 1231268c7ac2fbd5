"""Resources: the DuckDB warehouse and where the project's files are."""

from pathlib import Path

from dagster import ConfigurableResource
from dagster_duckdb import DuckDBResource

from ragpipe.grading.rules import Rules, load_rules
from ragpipe.manifest import CorpusManifest, PipelineConfig, list_corpora, load_configs, resolve_config
from ragpipe.settings import corpora_dir, database_path, rules_path, warehouse_dir


class Project(ConfigurableResource):
    """Paths of the corpora folder, the warehouse folder and the grader rules."""

    corpora_dir: str
    warehouse_dir: str
    rules_path: str = ""

    @property
    def root(self) -> Path:
        return Path(self.warehouse_dir)

    def manifest(self, corpus: str) -> CorpusManifest:
        return list_corpora(Path(self.corpora_dir))[corpus]

    def config(self, corpus: str, name: str) -> PipelineConfig:
        return resolve_config(self.manifest(corpus), name, load_configs(Path(self.corpora_dir)))

    def rules(self) -> Rules:
        return load_rules(Path(self.rules_path) if self.rules_path else None)

    def index_dir(self, corpus: str, config: str) -> Path:
        return self.root / "index" / corpus / config


def default_resources() -> dict:
    return {
        "duckdb": DuckDBResource(database=str(database_path())),
        "project": Project(
            corpora_dir=str(corpora_dir()), warehouse_dir=str(warehouse_dir()), rules_path=str(rules_path() or "")
        ),
    }
