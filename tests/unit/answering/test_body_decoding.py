"""A compressed reply is read as it streams and never past the cap, decoded: a gzip bomb, one layer or two,
costs a refusal in words and no memory; a stacked or unknown encoding is refused; one gzip or deflate
layer reads as any reply. Against a real server on 127.0.0.1, the engines' and the judge's one client."""

from __future__ import annotations

import tracemalloc

import pytest

from ragpipe.answering.engines.retrying import MAX_BODY_BYTES, EngineFailure, RetryPolicy, engine_client, post_json
from tests.chat_server import BOMB_BYTES, ChatServer, bomb

BODY = {"model": "m", "messages": [{"role": "user", "content": "[1] (lease, page 1)\nThe rent is $1,200."}]}


def _post(server: ChatServer) -> dict:
    with engine_client(10) as client:
        return post_json(client, server.base_url + "/chat/completions", BODY, {}, RetryPolicy(attempts=1, deadline=60))


@pytest.mark.parametrize("action", ["gzip", "deflate-raw", "encoding:identity"])
def test_one_layer_of_gzip_or_deflate_reads_as_any_reply(action):
    with ChatServer(default=action) as server:
        assert _post(server)["choices"][0]["message"]["content"] == "The rent is $1,200. [1]"


@pytest.mark.parametrize("layers, said", [(1, r"larger than 16,777,216 bytes \(decoded\)"), (2, "stacked content")])
def test_a_compression_bomb_is_refused_in_words_holding_no_more_than_the_cap(layers, said):
    bomb(layers)  # made before memory is traced: the server's own bytes are not the client's
    assert BOMB_BYTES > 30 * MAX_BODY_BYTES
    with ChatServer(default=f"bomb:{layers}") as server:
        tracemalloc.start()
        try:
            with pytest.raises(EngineFailure, match=said):
                _post(server)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert peak < 3 * MAX_BODY_BYTES, f"{peak:,} bytes at the peak"  # inflated all at once: 512 MB and more


@pytest.mark.parametrize("coding", ["br", "zstd", "compress", "x-unheard-of"])
def test_an_encoding_we_do_not_read_is_refused_naming_it(coding):
    with ChatServer(default=f"encoding:{coding}") as server, pytest.raises(EngineFailure, match=repr(coding)):
        _post(server)
