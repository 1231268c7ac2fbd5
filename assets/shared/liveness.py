"""Is a run still going? Asked before removing the shard folders another run left behind.

A run that ended (success, failure, cancel) or that this instance never saw is
over. A run started from code carries the pid and host of the process driving
it: if that process is gone, the run was killed, whatever its status says (a
SIGKILLed run stays STARTED). Any other run in progress (from the UI) is live.
"""

import os
import socket

from dagster import DagsterInstance, DagsterRunStatus

PID_TAG, HOST_TAG = "ragpipe/pid", "ragpipe/host"
_OVER = {DagsterRunStatus.SUCCESS, DagsterRunStatus.FAILURE, DagsterRunStatus.CANCELED}


def run_is_live(instance: DagsterInstance, run_id: str) -> bool:
    run = instance.get_run_by_id(run_id)
    if run is None or run.status in _OVER:
        return False
    pid, host = run.tags.get(PID_TAG), run.tags.get(HOST_TAG)
    if pid and host == socket.gethostname():
        return _process_exists(int(pid))
    return True


def _process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
