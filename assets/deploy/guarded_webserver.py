"""`make dev`'s webserver: Dagster's UI app, as `dagster-webserver` builds it, served behind `LocalOnly`.

`dagster-webserver` offers no hook for a middleware, so this does what its command does for a local UI
(the instance of $DAGSTER_HOME tuned for a long-lived server, the workspace file loaded, Dagster's own
app built by `create_app_from_workspace_process_context`) and hands uvicorn the app wrapped in the guard
(assets/deploy/ui_guard.py); the workspace is reloaded when the warehouse is graded again or the rules or
configs.yaml are edited (assets/deploy/definitions_watch.py).
Run as `python -m assets.deploy.guarded_webserver WORKSPACE PORT`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import AsyncIterator

import uvicorn
from dagster import DagsterInstance
from dagster._core.workspace.context import WorkspaceProcessContext
from dagster._core.workspace.load_target import WorkspaceFileTarget
from dagster_webserver.app import create_app_from_workspace_process_context
from dagster_webserver.cli import DEFAULT_DB_STATEMENT_TIMEOUT, DEFAULT_POOL_MAX_OVERFLOW, DEFAULT_POOL_RECYCLE
from dagster_webserver.version import __version__

from assets.deploy.definitions_watch import DefinitionsWatch
from assets.deploy.ui_guard import LocalOnly


@contextlib.asynccontextmanager
async def _lifespan(app) -> AsyncIterator:
    """As dagster-webserver's: a Ctrl-C cancels the lifespan, which is the expected way to stop."""
    with contextlib.suppress(asyncio.CancelledError):
        yield


def serve(workspace: str, port: int) -> None:
    """The UI of `workspace` on 127.0.0.1:`port`, every request through LocalOnly."""
    instance = DagsterInstance.get()
    instance.optimize_for_webserver(DEFAULT_DB_STATEMENT_TIMEOUT, DEFAULT_POOL_RECYCLE, DEFAULT_POOL_MAX_OVERFLOW)
    target = WorkspaceFileTarget(paths=[workspace])
    with WorkspaceProcessContext(instance, version=__version__, workspace_load_target=target) as context:
        DefinitionsWatch(context.reload_workspace).start()  # a regrade or a rules edit reloads them, as the button
        app = create_app_from_workspace_process_context(context, "", lifespan=_lifespan)
        logging.getLogger("dagster-webserver").info("Serving the Dagster UI on http://127.0.0.1:%d (local only)", port)
        uvicorn.run(LocalOnly(app, port), host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]))
