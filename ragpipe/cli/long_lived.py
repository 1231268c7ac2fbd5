"""What a command has imported lives as long as its process: set it aside from the cyclic collector.

Python's cyclic collector walks every object the process holds on each full pass. After Dagster,
pandas and the definitions are imported that is a few hundred thousand objects (modules, classes,
functions, schemas) that will never be garbage, walked again on every pass while a run makes and
drops objects of its own. `gc.freeze()` moves what exists now into a generation no pass walks (what
CPython provides it for); later objects are collected as before, and reference counting still frees
everything the moment it is dropped. A demo `ragpipe run` and a regrade spend about a tenth less
CPU (docs/performance.md, "The collector and what a command imported").
"""

from __future__ import annotations

import gc


def set_aside_imports() -> None:
    """Collect what importing left as garbage, then freeze the rest: call once the imports are done
    (again after a later, lazy import: each call sets aside what exists by then)."""
    gc.collect()
    gc.freeze()
