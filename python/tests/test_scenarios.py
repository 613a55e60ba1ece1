"""Scenarios through ``use_scenario`` and the marker: each status reaches the client as its typed error."""
import openai
import pytest

from helpers import client_of, speak
from pytest_mockrouter import MockrouterError

#: A built-in scenario, the status it answers speech with, and the ``openai`` error of that status.
STATUSES = [
    ("bad-request", 400, openai.BadRequestError),
    ("unauthorized", 401, openai.AuthenticationError),
    ("insufficient-credits", 402, openai.APIStatusError),
    ("provider-requirement", 403, openai.PermissionDeniedError),
    ("not-found", 404, openai.NotFoundError),
    ("payload-too-large", 413, openai.APIStatusError),
    ("rate-limited", 429, openai.RateLimitError),
    ("server-error", 500, openai.InternalServerError),
    ("bad-gateway", 502, openai.InternalServerError),
    ("service-unavailable", 503, openai.InternalServerError),
    ("edge-timeout", 524, openai.InternalServerError),
    ("provider-overloaded", 529, openai.InternalServerError),
]


@pytest.mark.parametrize(("scenario", "status", "error"), STATUSES, ids=[s[0] for s in STATUSES])
def test_use_scenario_answers_its_status(mockrouter, scenario, status, error):
    mockrouter.use_scenario(scenario)
    with pytest.raises(error) as raised:
        speak(client_of(mockrouter))
    assert raised.value.status_code == status
    assert raised.value.body["code"] == status  # the gateway's envelope: {"error": {"code", "message", ...}}
    [entry] = mockrouter.requests()
    assert (entry["status"], entry["scenario"]) == (status, scenario)


@pytest.mark.mockrouter(scenario="rate-limited")
def test_the_marker_sets_the_scenario_before_the_test(mockrouter):
    with pytest.raises(openai.RateLimitError) as raised:
        speak(client_of(mockrouter))
    assert raised.value.response.headers["retry-after"] == "60"


@pytest.mark.mockrouter(scenario="insufficient-credits")
class TestMarkerOnAClass:
    def test_each_test_gets_it(self, mockrouter):
        with pytest.raises(openai.APIStatusError) as raised:
            speak(client_of(mockrouter))
        assert raised.value.status_code == 402

    @pytest.mark.mockrouter(scenario="unauthorized")
    def test_the_closest_marker_wins(self, mockrouter):
        with pytest.raises(openai.AuthenticationError):
            speak(client_of(mockrouter))


@pytest.mark.mockrouter(scenario="rate-limited")
def test_use_scenario_none_ends_it(mockrouter):
    mockrouter.use_scenario(None)
    assert speak(client_of(mockrouter)).http_response.status_code == 200


def test_an_unknown_scenario_fails_with_the_servers_message(mockrouter):
    with pytest.raises(MockrouterError) as raised:
        mockrouter.use_scenario("no-such-scenario")
    assert raised.value.message.startswith(
        "mockrouter: use_scenario('no-such-scenario'): name: unknown scenario \"no-such-scenario\"; loaded scenarios: bad-gateway, "
    )
    assert speak(client_of(mockrouter)).http_response.status_code == 200  # the scenario before it stays: none
