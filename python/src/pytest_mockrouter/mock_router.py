"""``MockRouter``: what the ``mockrouter`` fixture gives a test.

One server serves the session; before each test the fixture puts it back to its start (``POST /__mock/reset``:
scenario counters, the journal, rate-limit windows and spent credits, and the default scenario the server was
started with) and moves back a clock the test before moved. So a test sees only its own requests, in a journal that
begins empty.
"""
from __future__ import annotations

import math
from datetime import datetime, timezone
from typing import Any, Dict, List, Optional
from urllib.parse import urlencode

from .admin import AdminClient

#: The filters ``requests()`` takes: those of ``GET /__mock/requests``.
JOURNAL_FILTERS = ("operation", "status", "session")

#: Entries asked for per page of the journal (the admin API's most).
JOURNAL_PAGE = 1000


def _iso(ms: int) -> str:
    """Epoch ``ms`` as the ISO 8601 time ``POST /__mock/clock`` takes, with its milliseconds."""
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).isoformat(timespec="milliseconds")


class MockRouter:
    """The running mockrouter server, for one test.

    :ivar base_url: the API's base URL, ``http://127.0.0.1:<port>/api/v1``: the ``base_url`` of the ``openai`` client.
    :ivar api_key: a key the server accepts (any non-empty one, unless it was started with ``--keys``).
    :ivar origin: the server's origin, ``http://127.0.0.1:<port>``; the admin API is under ``<origin>/__mock/``.
    """

    def __init__(self, base_url: str, origin: str, api_key: str, admin: AdminClient) -> None:
        self.base_url = base_url
        self.origin = origin
        self.api_key = api_key
        self._admin = admin
        #: How far the tests moved the clock since the last setup, ms (moved back by the next ``_begin``).
        self._clock_moved_ms = 0

    def use_scenario(self, name: Optional[str]) -> None:
        """Makes ``name`` the default scenario of the requests that follow, until the test ends.

        :param name: a loaded scenario (a built-in such as ``rate-limited``, or one of ``--mockrouter-scenarios``),
            or ``None`` for none. It restarts the scenario counters (``times``).
        :raises MockrouterError: for a name that is not loaded, with the server's message listing the loaded ones.
        """
        self._admin.call("PUT", "/scenario", {"name": name}, what=f"use_scenario({name!r})")

    def requests(self, **filters: Any) -> List[Dict[str, Any]]:
        """This test's journal entries, oldest first, as ``GET /__mock/requests`` gives them.

        :param filters: ``operation`` (``speech``, ``model``, ``generation``, ...), ``status`` (an HTTP status) and
            ``session``, as the admin API filters them.
        :returns: one dict per request the server received since the test began (or since ``reset()``); an entry's
            ``duration_ms``, ``response_bytes`` and ``body_end`` are ``None`` while its body is still being sent.
        :raises TypeError: for a filter the admin API does not take.
        """
        unknown = sorted(set(filters) - set(JOURNAL_FILTERS))
        if unknown:
            raise TypeError(f"requests() takes the filters {', '.join(JOURNAL_FILTERS)}; got {', '.join(unknown)}")
        query = {key: str(value) for key, value in filters.items() if value is not None}
        entries: List[Dict[str, Any]] = []
        after = 0
        while True:
            page = self._admin.call("GET", "/requests?" + urlencode({**query, "after": after, "limit": JOURNAL_PAGE}))
            entries += page["requests"]
            if len(page["requests"]) < JOURNAL_PAGE:
                return entries
            after = page["requests"][-1]["seq"]

    def reset(self) -> None:
        """Puts the server's state back to its start: credits, scenario counters, rate-limit windows, the journal, and
        the default scenario the server was started with. Generation records and the clock stay.
        """
        self._admin.call("POST", "/reset", what="reset()")

    def advance_clock(self, seconds: float) -> datetime:
        """Moves the server's clock forward by ``seconds`` (rounded to whole ms), for this test.

        A pending generation record becomes readable, a rate-limit window passes. The fixture moves the clock back
        before the next test.

        :param seconds: how far, seconds, at least 0.
        :returns: the clock's new time (UTC).
        :raises ValueError: for a negative or non-finite ``seconds``.
        :raises MockrouterError: when the server refuses the move (past the year 9999).
        """
        if not isinstance(seconds, (int, float)) or not math.isfinite(seconds) or seconds < 0:
            raise ValueError(f"advance_clock(seconds): expected a finite number of seconds >= 0, got {seconds!r}")
        ms = round(seconds * 1000)
        state = self._admin.call("POST", "/clock", {"advance_ms": ms}, what=f"advance_clock({seconds!r})")
        self._clock_moved_ms += ms
        return datetime.fromtimestamp(state["now_ms"] / 1000, tz=timezone.utc)

    def _begin(self, scenario: Optional[str]) -> None:
        """Before a test: the clock moved back, the state reset, and the marker's scenario set (when it names one)."""
        if self._clock_moved_ms:
            now_ms = self._admin.call("GET", "/clock")["now_ms"]
            self._admin.call("POST", "/clock", {"now": _iso(now_ms - self._clock_moved_ms)}, what="moving the clock back")
            self._clock_moved_ms = 0
        self.reset()
        if scenario is not None:
            self._admin.call("PUT", "/scenario", {"name": scenario}, what=f"@pytest.mark.mockrouter(scenario={scenario!r})")

    def __repr__(self) -> str:
        return f"<MockRouter {self.base_url}>"
