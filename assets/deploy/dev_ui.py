"""`make dev`: the Dagster UI on 127.0.0.1:PORT (default 3000), its URL said once it answers.

`dagster dev` picks another port when the one asked for is taken and says so in one warning among many
log lines; here a taken port is refused at once, naming it and how to pick another, and once the UI
answers its URL is printed as the last line of the start-up.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

DEFAULT_PORT = 3000


def port_taken(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as reply:
            return reply.status == 200
    except OSError:
        return False


def main() -> int:
    raw = os.environ.get("PORT") or str(DEFAULT_PORT)
    if not raw.isdigit() or not 1 <= int(raw) <= 65535:
        print(f"PORT={raw!r}: give a port number, e.g. `make dev PORT=3001`", file=sys.stderr)
        return 2
    port = int(raw)
    if port_taken(port):
        print(
            f"port {port} on 127.0.0.1 is taken: run `make dev PORT=<another>`, e.g. PORT={port + 1}", file=sys.stderr
        )
        return 2
    dagster = str(Path(sys.executable).parent / "dagster")
    ui = subprocess.Popen([dagster, "dev", "-w", "workspace.yaml", "-h", "127.0.0.1", "-p", str(port)])
    url = f"http://127.0.0.1:{port}"
    try:
        while ui.poll() is None and not answers(f"{url}/server_info"):
            time.sleep(0.5)
        if ui.poll() is None:
            print(f"\nDagster UI: {url}  (Ctrl-C stops it)\n", flush=True)
        return ui.wait()
    except KeyboardInterrupt:  # the UI got the same Ctrl-C: let it shut down
        return ui.wait()


if __name__ == "__main__":
    sys.exit(main())
