"""``requests()``: this test's journal entries, filtered as the admin API filters them; ``reset()`` empties it."""
import openai
import pytest

from helpers import client_of, speak


def test_requests_filtered_by_operation_status_and_session(mockrouter):
    client = client_of(mockrouter)
    other = client_of(mockrouter, default_headers={"X-Mock-Session": "other"})
    speak(client)
    client.get("/model/openai/gpt-4o-mini", cast_to=object)
    speak(other)
    with pytest.raises(openai.InternalServerError):
        speak(client, extra_headers={"X-Mock-Status": "503"})
    assert [e["operation"] for e in mockrouter.requests()] == ["speech", "model", "speech", "speech"]
    assert [e["status"] for e in mockrouter.requests(operation="speech")] == [200, 200, 503]
    assert [e["operation"] for e in mockrouter.requests(status=200)] == ["speech", "model", "speech"]
    assert len(mockrouter.requests(session="other")) == 1
    assert mockrouter.requests(operation="speech", status=503)[0]["rule"] == "503"
    assert [e["seq"] for e in mockrouter.requests()] == sorted(e["seq"] for e in mockrouter.requests())


def test_reset_empties_the_journal(mockrouter):
    speak(client_of(mockrouter))
    mockrouter.reset()
    assert mockrouter.requests() == []
    speak(client_of(mockrouter))
    assert len(mockrouter.requests()) == 1


def test_an_unknown_filter_is_a_type_error(mockrouter):
    with pytest.raises(TypeError, match="requests\\(\\) takes the filters operation, status, session; got model"):
        mockrouter.requests(model="x")
