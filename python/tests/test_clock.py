"""``advance_clock``: the server's clock moves for this test, and what depends on it follows."""
import re
import time

import pytest

from helpers import client_of, speak


def test_advance_clock_moves_the_servers_time(mockrouter):
    before = speak(client_of(mockrouter)).headers["x-generation-id"]
    now = mockrouter.advance_clock(3600)
    after = speak(client_of(mockrouter)).headers["x-generation-id"]
    seconds = [int(re.match(r"gen-tts-(\d+)-", g)[1]) for g in (before, after)]  # the clock's unix seconds
    assert 3600 <= seconds[1] - seconds[0] < 3600 + 600
    assert abs(now.timestamp() - (time.time() + 3600)) < 600
    entries = mockrouter.requests()
    assert 3_600_000 <= entries[1]["time"] - entries[0]["time"] < 3_600_000 + 600_000


def test_advance_clock_refuses_negative_seconds(mockrouter):
    with pytest.raises(ValueError, match="expected a finite number of seconds >= 0, got -1"):
        mockrouter.advance_clock(-1)
