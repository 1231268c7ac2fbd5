"""Imported last by the step server (the multiprocess job's forkserver preload, assets/deploy/jobs.py):
what the server imported before it, Dagster and the definitions, is set aside from the cyclic collector
(ragpipe/cli/long_lived.py). Every step is forked from the server, so every step starts with it set
aside: its collector passes walk only what the step makes, and do not touch, and so copy, the pages it
shares with the server. A demo run in processes spends about a seventh less CPU (docs/performance.md)."""

from ragpipe.cli.long_lived import set_aside_imports

set_aside_imports()
