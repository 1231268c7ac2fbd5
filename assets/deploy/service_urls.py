"""The servers' URLs from the environment (RAGPIPE_POSTGRES_URL, RAGPIPE_REDIS_URL): checked before use,
and never said with their password.

A password with a raw `@` makes a URL two readers split two ways: SQLAlchemy (inside dagster-postgres)
cuts at the first `@`, so the password's tail became the host name, and the 191-line traceback that
followed showed it. RFC 3986 has no raw `@` in a URL's user part: such a URL is refused in one line
asking for the password percent-encoded (`@` is `%40`), before anything connects.
"""

from __future__ import annotations

import os
from urllib.parse import unquote, urlsplit

from ragpipe.warehouse.lock import SettingRefused

VARIABLES = ("RAGPIPE_POSTGRES_URL", "RAGPIPE_REDIS_URL")


def redacted(url: str) -> str:
    """The URL with its password shown as ***."""
    scheme, rest = url.split("://", 1) if "://" in url else ("", url)
    netloc, _, path = rest.partition("/")
    user, at, host = netloc.rpartition("@")
    if at and ":" in user:
        user = user.split(":", 1)[0] + ":***"
    return f"{scheme}://{user}{at}{host}" + (f"/{path}" if path else "") if scheme else f"{user}{at}{host}"


def checked_url(variable: str, env=os.environ) -> str | None:
    """The variable's URL, or SettingRefused when its user part holds a raw `@` (said redacted)."""
    url = env.get(variable)
    if not url:
        return None
    netloc = url.split("://", 1)[-1].split("/", 1)[0]
    if netloc.count("@") > 1:
        raise SettingRefused(
            f"{variable}={redacted(url)}: the password holds an unencoded '@', which readers of the URL split "
            "at differently; percent-encode it ('@' is %40, ':' %3A, '/' %2F) and try again"
        )
    return url


def passwords(env=os.environ) -> list[str]:
    """The servers' passwords as they may appear in a message (raw and percent-decoded)."""
    found = []
    for variable in VARIABLES:
        url = env.get(variable) or ""
        password = urlsplit(url).password if "://" in url else None
        if password:
            found += [password, unquote(password)]
    return sorted(set(found), key=len, reverse=True)


def redact(text: str, env=os.environ) -> str:
    """`text` with every server password in it shown as ***."""
    for secret in passwords(env):
        text = text.replace(secret, "***")
    return text
