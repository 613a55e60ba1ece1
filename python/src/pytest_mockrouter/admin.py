"""A client of the server's admin API (``/__mock/``, mockrouter's docs/admin-api.md) on one kept-alive connection.

One connection serves every call of a session, so a call costs one round trip on localhost, not a new TCP
connection. The server closes a connection idle for 5 s (its keep-alive timeout): one idle longer than
:data:`IDLE_REUSE_S` is replaced before it is used, and a call whose connection was closed under it is sent again
once on a new one.
"""
from __future__ import annotations

import http.client
import json
import threading
import time
from typing import Any, Callable, Dict, Optional, Tuple
from urllib.parse import urlsplit

from .errors import MockrouterError

#: How long an idle connection is reused, seconds: below the server's keep-alive timeout (5 s).
IDLE_REUSE_S = 4.0

#: How long one call may take, seconds.
CALL_TIMEOUT_S = 30.0

#: The errors of a connection the server closed before the call was answered.
_CLOSED = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError, http.client.CannotSendRequest)


class AdminClient:
    """Calls to ``<origin>/__mock/...``, answered as parsed JSON.

    :param origin: the server's origin, ``http://127.0.0.1:<port>``.
    :param token: the admin token (sent as ``X-Mock-Admin-Token``) when the server was started with one.
    :param death_notice: says why the server does not answer (its exit code and last output), for messages.
    """

    def __init__(self, origin: str, token: Optional[str], death_notice: Callable[[], str]) -> None:
        parts = urlsplit(origin)
        self._host = parts.hostname or "127.0.0.1"
        self._port = parts.port or 80
        self._headers = {"Accept": "application/json"}
        if token:
            self._headers["X-Mock-Admin-Token"] = token
        self._death_notice = death_notice
        self._connection: Optional[http.client.HTTPConnection] = None
        self._last_used = 0.0
        self._lock = threading.Lock()

    def call(self, method: str, path: str, body: Optional[Dict[str, Any]] = None, what: str = "") -> Any:
        """Sends ``method path`` (under ``/__mock``) with ``body`` as JSON; returns the parsed answer (``None`` for 204).

        :param what: names the caller in messages, such as ``use_scenario('rate-limited')``.
        :raises MockrouterError: the server's own message for an error answer (``<what>: <message>``), or why the
            server does not answer (it exited: its exit code and last lines of output).
        """
        payload = None if body is None else json.dumps(body).encode("utf-8")
        headers = dict(self._headers)
        if payload is not None:
            headers["Content-Type"] = "application/json"
        with self._lock:
            status, data = self._send(method, f"/__mock{path}", payload, headers)
        caller = what or f"{method} /__mock{path}"
        try:
            answer = json.loads(data) if data else None
        except ValueError:  # not the admin API's JSON (a proxy's page, another server on the port)
            raise MockrouterError(f"mockrouter: {caller}: HTTP {status}, and the answer is not JSON") from None
        if status >= 400:
            message = answer.get("error", {}).get("message") if isinstance(answer, dict) else None
            raise MockrouterError(f"mockrouter: {caller}: {message or f'HTTP {status}'}")
        return answer

    def _send(self, method: str, url: str, payload: Optional[bytes], headers: Dict[str, str]) -> Tuple[int, bytes]:
        """One request and its whole answer, on the kept connection; sent again once on a new one if it was closed."""
        for attempt in (1, 2):
            if self._connection is None or time.monotonic() - self._last_used > IDLE_REUSE_S:
                self._reconnect()
            assert self._connection is not None
            try:
                self._connection.request(method, url, body=payload, headers=headers)
                response = self._connection.getresponse()
                data = response.read()
                self._last_used = time.monotonic()
                if response.will_close:
                    self._drop()
                return response.status, data
            except _CLOSED:
                self._drop()
                if attempt == 2:
                    raise MockrouterError(self._death_notice()) from None
            except OSError:
                self._drop()
                raise MockrouterError(self._death_notice()) from None
        raise AssertionError("unreachable")

    def _reconnect(self) -> None:
        self._drop()
        self._connection = http.client.HTTPConnection(self._host, self._port, timeout=CALL_TIMEOUT_S)

    def _drop(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def close(self) -> None:
        """Closes the connection (a later call opens another)."""
        with self._lock:
            self._drop()
