"""ragpipe: evaluate retrieval-augmented question answering over PDFs, grader included.

`ragpipe.evaluate`, `summary`, `compare` and `agreement` are the Python API (ragpipe/api.py); they
load on first use, so `import ragpipe` stays as light as the command's start needs.
"""

__all__ = ["agreement", "compare", "evaluate", "summary"]


def __getattr__(name: str):
    if name in __all__:
        from ragpipe import api

        return getattr(api, name)
    raise AttributeError(f"module 'ragpipe' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The API among the module's names: `dir(ragpipe)` and a notebook's completion list it."""
    return sorted({*globals(), *__all__})
