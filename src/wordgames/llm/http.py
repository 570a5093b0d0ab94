"""The HTTP client under ``openai``: each answer ends by a deadline and is read up to a cap.

The ``openai`` client's ``timeout`` bounds each read of the socket, not the answer: a server
that sends its body one byte a second holds a request for as long as it likes. Its transport
here wraps the answer's byte stream: past ``deadline`` seconds since the request was sent, the
next read raises a timeout (which ``openai`` retries like its own, ``max_retries`` times), and
past ``max_bytes`` bytes, :class:`AnswerTooLarge` (not retried: the server would send it
again). Nothing beyond the cap is held in memory.
"""

from __future__ import annotations

import time

#: the most bytes read of one answer, by endpoint (documented in docs/llm.md): a chat or
#: completions answer is a few hundred tokens (an echoed prompt's log-probabilities a few
#: hundred kB); 256 words' vectors of 4,096 numbers are about 20 MB of JSON
MAX_ANSWER_BYTES = {"embeddings": 64 * 2**20, "default": 2**20}


class AnswerTooLarge(Exception):
    """The server sent more than the cap (raised from inside the HTTP client)."""

    def __init__(self, cap: int):
        super().__init__(f"more than {_size(cap)}")
        self.cap = cap


def _size(n: int) -> str:
    """``1 MiB``, ``64 MiB``, ``512 kiB``."""
    return f"{n // 2**20} MiB" if n >= 2**20 else f"{n // 2**10} kiB"


def http_module():
    """The HTTP library ``openai`` is built on (``httpx2`` from openai 3, else ``httpx``)."""
    try:
        import httpx2 as httpx
    except ImportError:
        import httpx
    return httpx


def cap_for(path: str) -> int:
    """The answer cap of a request to ``path``."""
    return MAX_ANSWER_BYTES["embeddings" if path.rstrip("/").endswith("/embeddings") else "default"]


def bounded_client(deadline: float):
    """An HTTP client for ``openai.OpenAI(http_client=...)``: deadlines and caps on answers."""
    httpx = http_module()

    class BoundedStream(httpx.SyncByteStream):
        def __init__(self, inner, ends: float, cap: int):
            self._inner, self._ends, self._cap = inner, ends, cap

        def __iter__(self):
            seen = 0
            for chunk in self._inner:
                seen += len(chunk)
                if seen > self._cap:
                    raise AnswerTooLarge(self._cap)
                if time.monotonic() > self._ends:
                    raise httpx.ReadTimeout(f"the answer did not end within {deadline:g} s")
                yield chunk

        def close(self):
            self._inner.close()

    class BoundedTransport(httpx.HTTPTransport):
        def handle_request(self, request):
            ends = time.monotonic() + deadline
            response = super().handle_request(request)
            response.stream = BoundedStream(response.stream, ends, cap_for(request.url.path))
            return response

    return httpx.Client(transport=BoundedTransport(), timeout=deadline)
