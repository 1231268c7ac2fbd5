"""A reply body inflated as it streams, never past a cap: compression is no way around the size limit.

httpx inflates each chunk whole before anyone can count it, and applies every layer a server lists, so
`Content-Encoding: gzip, gzip` turns 2 KB into gigabytes in one chunk. Here the raw bytes are inflated
with zlib asked for no more than the room left under the cap, so memory stays bounded whatever the
ratio. One layer of gzip or deflate is read (what the request's Accept-Encoding offers); identity is
no layer; stacked layers and any other coding (br, zstd, compress, a name nobody knows) are refused
in words, as a reply that cannot be read.
"""

from __future__ import annotations

import zlib

DECIDES_NO_VERDICT = "transport: bytes of a reply, before anything reads them"
ACCEPTED_ENCODINGS = "gzip, deflate"
_GZIP, _DEFLATE = ("gzip", "x-gzip"), ("deflate",)


class BodyRefused(Exception):
    """A reply body that is not read on: too large once decoded, or encoded in a way we do not read."""


class Inflater:
    """Feed raw chunks, get decoded bytes; raises BodyRefused once the decoded total passes `cap`."""

    def __init__(self, content_encoding: str, cap: int):
        codings = [c.strip().lower() for c in content_encoding.split(",") if c.strip()]
        codings = [c for c in codings if c != "identity"]
        if len(codings) > 1:
            raise BodyRefused(f"reply with stacked content encodings ({', '.join(codings)}): not read")
        self.coding = codings[0] if codings else None
        if self.coding is not None and self.coding not in (*_GZIP, *_DEFLATE):
            raise BodyRefused(
                f"reply in content encoding {self.coding[:40]!r}, which is not read: only gzip or deflate"
            )
        self.cap, self.size = cap, 0
        self._zlib = None
        self._started = False
        if self.coding in _GZIP:
            self._zlib = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif self.coding in _DEFLATE:
            self._zlib = zlib.decompressobj()

    def _count(self, data: bytes) -> bytes:
        self.size += len(data)
        if self.size > self.cap:
            raise BodyRefused(f"reply larger than {self.cap:,} bytes (decoded): not read on")
        return data

    def feed(self, raw: bytes) -> bytes:
        if self._zlib is None:
            return self._count(raw)
        out = []
        pending = raw
        while pending:
            try:
                piece = self._zlib.decompress(pending, self.cap - self.size + 1)
            except zlib.error as exc:
                if self.coding in _DEFLATE and not self._started:  # deflate sent raw, without its zlib header
                    self._zlib, self._started = zlib.decompressobj(-zlib.MAX_WBITS), True
                    continue
                raise BodyRefused(f"reply body is not valid {self.coding}: {exc}") from None
            self._started = True
            out.append(self._count(piece))
            pending = self._zlib.unconsumed_tail
        return b"".join(out)

    def finish(self) -> bytes:
        if self._zlib is None:
            return b""
        # every feed consumed its input with output under the cap, so zlib holds no more than its window
        return self._count(self._zlib.flush())
