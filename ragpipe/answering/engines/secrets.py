"""Credentials never reach the warehouse: keys checked before use, replies redacted after decoding.

A service may echo the Authorization header back (in an error, in a 200
answer, as JSON `\\u` escapes that only decoding reveals). Everything an
engine keeps or prints of a reply (answer, error, raw body) is redacted from
its decoded form, and a key read with a stray control character (a CRLF key
file leaves `\\r`) is stripped or refused before it is sent, so no exception
text can carry it either.
"""

from __future__ import annotations

import json

from ragpipe.inputs.text import map_strings, valid_json

REDACTED = "[REDACTED]"
CREDENTIAL_HEADERS = ("authorization", "x-api-key", "api-key")


class KeyRefused(ValueError):
    """The key cannot be sent as it is; the message names the variable, never the value."""


def checked_key(value: str, variable: str) -> str:
    """The key from `variable`, surrounding whitespace (a CRLF file's `\\r`) removed; a key that
    still holds a space, a control or a non-ASCII character is refused."""
    key = value.strip()
    bad = [c for c in key if not 33 <= ord(c) <= 126]
    if bad:
        raise KeyRefused(
            f"the API key in ${variable} holds {len(bad)} character(s) a header cannot carry "
            "(a space, a control or a non-ASCII character): fix the variable"
        )
    return key


def secrets_of(headers: dict, *extra: str) -> list[str]:
    """The values a reply must never carry back: each credential header, its token alone, and `extra`
    (e.g. a key as the environment held it, before stripping), longest first."""
    out = list(extra)
    for name, value in headers.items():
        if name.lower() in CREDENTIAL_HEADERS and value:
            out += [value, value.split(" ", 1)[-1]]
    out += [s.strip() for s in out]
    return sorted({s for s in out if len(s) >= 4}, key=len, reverse=True)


def redact(text: str, secrets: list[str]) -> str:
    for secret in secrets:
        text = text.replace(secret, REDACTED)
    return text


def scrub(value, secrets: list[str]):
    """A decoded JSON value with every string in it redacted."""
    return map_strings(value, lambda text: redact(text, secrets))


def stored_body(text: str, secrets: list[str]) -> str:
    """A reply body as it may be kept: decoded, made valid and redacted when it is JSON (a key can hide in
    `\\u` escapes), else redacted as it is."""
    try:
        decoded = json.loads(text)
    except (ValueError, RecursionError):
        return redact(text, secrets)
    return json.dumps(scrub(valid_json(decoded), secrets), ensure_ascii=False)
