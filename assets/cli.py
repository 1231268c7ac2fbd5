"""The `ragpipe` command: the library's commands, materializing through Dagster.

Dagster (and the definitions, which read the corpora and the rules) is imported on the first
command that materializes, not before: `sql`, `scorecard`, `--help` and the like never load it,
and a bad manifest or rules file is refused in one line by the command that uses it.
"""

from ragpipe.cli.long_lived import set_aside_imports
from ragpipe.cli.main import main as run_commands


def _dagster():
    from assets.runs.orchestrator import DagsterOrchestrator

    set_aside_imports()  # Dagster and the definitions live as long as the command (ragpipe/cli/long_lived.py)
    return DagsterOrchestrator()


def main() -> None:
    run_commands(_dagster)


if __name__ == "__main__":
    main()
