"""Each test starts clean: the first test leaves a scenario, spent credit, journal entries and a moved clock behind;
the second sees none of it. (pytest runs a file's tests in order.)
"""
import time

from helpers import client_of, speak


def key_usage(mockrouter) -> float:
    """The fixture's key's spending, USD (``GET /api/v1/key``)."""
    return client_of(mockrouter).get("/key", cast_to=object)["data"]["usage"]


def test_first_leaves_state_behind(mockrouter):
    speak(client_of(mockrouter))
    assert key_usage(mockrouter) > 0
    mockrouter.advance_clock(86_400)
    mockrouter.use_scenario("server-error")
    assert len(mockrouter.requests()) == 2


def test_second_starts_clean(mockrouter):
    assert mockrouter.requests() == []
    assert key_usage(mockrouter) == 0
    assert speak(client_of(mockrouter)).http_response.status_code == 200  # no scenario
    clock_ms = mockrouter.requests()[0]["time"]
    assert abs(clock_ms - time.time() * 1000) < 3_600_000  # the day the test before added is gone
