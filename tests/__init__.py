"""The suite (a package, so that `tests.` helpers win over any installed top-level `tests`: ppi-python ships one)."""
