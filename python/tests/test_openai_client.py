"""The ``openai`` client against the fixture's server: speech, the model lookup and the generation lookup."""
from helpers import MODEL, client_of, speak


def test_speech_is_audio_with_a_generation_id(mockrouter):
    client = client_of(mockrouter)
    pcm = speak(client)
    assert pcm.headers["content-type"] == "audio/pcm;rate=24000;channels=1"
    assert len(pcm.content) > 24_000  # 16-bit samples at 24 kHz: more than half a second of speech
    mp3 = speak(client, response_format="mp3")
    assert mp3.headers["content-type"] == "audio/mpeg"
    assert mp3.content[0] == 0xFF and mp3.content[1] & 0xE0 == 0xE0  # an MPEG frame's sync word (its Info tag)
    assert mp3.headers["x-generation-id"].startswith("gen-tts-")
    entries = mockrouter.requests()
    assert [(e["operation"], e["status"], e["audio"]["format"]) for e in entries] == [("speech", 200, "pcm"), ("speech", 200, "mp3")]


def test_model_lookup(mockrouter):
    model = client_of(mockrouter).get("/model/openai/gpt-4o-mini", cast_to=object)
    assert model["data"]["id"] == "openai/gpt-4o-mini"
    assert mockrouter.requests()[0]["path"] == "/api/v1/model/openai/gpt-4o-mini"


def test_generation_lookup_of_a_speech_call(mockrouter):
    client = client_of(mockrouter)
    generation_id = speak(client).headers["x-generation-id"]
    record = client.get("/generation", cast_to=object, options={"params": {"id": generation_id}})["data"]
    assert (record["id"], record["model"], record["api_type"]) == (generation_id, MODEL, "tts")
    assert record["total_cost"] > 0
