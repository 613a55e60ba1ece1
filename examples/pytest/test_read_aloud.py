"""Tests of a small program that reads text aloud through OpenRouter's speech API, against mockrouter.

Needs the `mockrouter` command (`npm i -D mockrouter`) and `pip install pytest-mockrouter openai` (until the plugin
is published: `pip install ./python` in a checkout of mockrouter). Run `pytest`, or `pytest -n 2` with pytest-xdist.
"""
import openai
import pytest
from openai import OpenAI

MODEL = "openai/gpt-4o-mini-tts-2025-12-15"


def read_aloud(client: OpenAI, text: str) -> bytes:
    """The program under test: the MP3 of `text`, or no audio while the gateway is rate limiting."""
    try:
        return client.audio.speech.create(model=MODEL, voice="alloy", input=text, response_format="mp3").content
    except openai.RateLimitError:
        return b""


@pytest.fixture
def client(mockrouter):
    # max_retries=0: an error shows at once (by default the client retries 429 and 5xx twice, after Retry-After).
    return OpenAI(base_url=mockrouter.base_url, api_key=mockrouter.api_key, max_retries=0)


def test_reads_aloud(client, mockrouter):
    audio = read_aloud(client, "Hello from pytest.")
    assert audio[:1] == b"\xff"  # an MP3 frame
    [entry] = mockrouter.requests(operation="speech")  # the journal: only this test's requests
    assert (entry["status"], entry["body"]["input"]) == (200, "Hello from pytest.")


@pytest.mark.mockrouter(scenario="rate-limited")
def test_no_audio_while_rate_limited(client, mockrouter):
    assert read_aloud(client, "Hello") == b""
    assert [entry["status"] for entry in mockrouter.requests()] == [429]


def test_a_cut_body_is_retried_by_default(mockrouter):
    # truncated-once (../scenarios/truncated-once.yaml): the first speech request's body is cut; the client's default
    # retries send it again and get the whole audio.
    mockrouter.use_scenario("truncated-once")
    retrying = OpenAI(base_url=mockrouter.base_url, api_key=mockrouter.api_key)
    assert read_aloud(retrying, "Hello")[:1] == b"\xff"
    assert [entry["body_end"] for entry in mockrouter.requests()] == ["cut", "complete"]


def test_the_cost_of_a_call(client, mockrouter):
    speech = client.audio.speech.with_raw_response.create(model=MODEL, voice="alloy", input="Hello")
    generation = client.get("/generation", cast_to=object, options={"params": {"id": speech.headers["x-generation-id"]}})
    assert generation["data"]["total_cost"] > 0
    assert client.get("/key", cast_to=object)["data"]["usage"] == generation["data"]["total_cost"]  # no credit spent before this test
