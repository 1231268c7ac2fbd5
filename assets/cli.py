"""The `ragpipe` command: the library's commands, materializing through Dagster."""

from assets.orchestrator import DagsterOrchestrator
from ragpipe.cli.main import main as run_commands


def main() -> None:
    run_commands(DagsterOrchestrator())


if __name__ == "__main__":
    main()
