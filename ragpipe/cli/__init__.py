"""The ragpipe command. It drives the pipeline through an Orchestrator it is given (Dagster, from assets/)."""
