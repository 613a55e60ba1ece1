"""The plugin's options reach the server: as ini keys (folders relative to the ini file) and as flags, which win."""
import json
import textwrap

from helpers import REPOSITORY

TEAPOT = """\
name: teapot
description: Speech gets 418.
rules:
  - name: teapot
    match: { operation: speech }
    error: { status: 418, message: "I'm a teapot" }
"""

OPTIONS_TEST = '''
import pytest
from openai import APIStatusError, OpenAI

MODEL = "openai/gpt-4o-mini-tts-2025-12-15"


def client(mockrouter):
    return OpenAI(base_url=mockrouter.base_url, api_key=mockrouter.api_key, max_retries=0)


@pytest.mark.mockrouter(scenario="teapot")
def test_scenarios_folder(mockrouter):
    with pytest.raises(APIStatusError) as raised:
        client(mockrouter).audio.speech.create(model=MODEL, voice="alloy", input="Hi")
    assert (raised.value.status_code, raised.value.body["message"]) == (418, "I'm a teapot")


def test_fixtures_folder(mockrouter):
    assert client(mockrouter).get("/model/openai/gpt-4o-mini", cast_to=object)["data"]["name"] == "Renamed by the test"


def test_speech_and_extra_args(mockrouter):
    speech = client(mockrouter).audio.speech.with_raw_response.create(model=MODEL, voice="alloy", input="Hi")
    generation_id = speech.headers["x-generation-id"]
    assert mockrouter.requests()[0]["audio"]["speech"] == "words"
    lookup = lambda: client(mockrouter).get("/generation", cast_to=object, options={"params": {"id": generation_id}})
    with pytest.raises(APIStatusError) as raised:
        lookup()  # --generation-delay 5000: not readable yet
    assert raised.value.status_code == 404
    mockrouter.advance_clock(5)
    assert lookup()["data"]["id"] == generation_id
'''

SEED_TEST = '''
import json, os, urllib.request


def test_first_generation_id(mockrouter):
    body = json.dumps({"model": "openai/gpt-4o-mini-tts-2025-12-15", "voice": "alloy", "input": "Hi"}).encode()
    headers = {"Authorization": f"Bearer {mockrouter.api_key}", "Content-Type": "application/json"}
    with urllib.request.urlopen(urllib.request.Request(mockrouter.base_url + "/audio/speech", body, headers)) as answer:
        generation_id = answer.headers["X-Generation-Id"]
    with open(os.environ["RESULT_FILE"], "a") as result:
        result.write(generation_id.rsplit("-", 1)[1] + "\\n")  # gen-tts-<clock's unix seconds>-<seeded part>
'''


def test_ini_keys_and_extra_args(pytester, monkeypatch):
    pytester.mkdir("scenarios").joinpath("teapot.yaml").write_text(TEAPOT)
    models = json.loads((REPOSITORY / "fixtures" / "models.json").read_text())
    next(m for m in models["models"] if m["id"] == "openai/gpt-4o-mini")["name"] = "Renamed by the test"
    pytester.mkdir("catalog").joinpath("models.json").write_text(json.dumps(models))
    pytester.makeini(
        textwrap.dedent(
            """\
            [pytest]
            mockrouter_scenarios = scenarios
            mockrouter_fixtures = catalog
            mockrouter_speech = words
            mockrouter_args = --generation-delay 5000
            """
        )
    )
    test_file = pytester.makepyfile(test_inner_options=OPTIONS_TEST)
    monkeypatch.chdir(pytester.mkdir("elsewhere"))  # the ini's folders are relative to the ini file, not here
    pytester.runpytest("-p", "no:cacheprovider", str(test_file)).assert_outcomes(passed=3)


def test_seed_as_ini_key_and_flag(pytester, monkeypatch):
    result_file = pytester.path / "ids.txt"
    monkeypatch.setenv("RESULT_FILE", str(result_file))
    pytester.makeini("[pytest]\nmockrouter_seed = 7\n")
    pytester.makepyfile(test_inner_seed=SEED_TEST)
    for flags in ([], [], ["--mockrouter-seed", "8"]):
        pytester.runpytest("-p", "no:cacheprovider", *flags).assert_outcomes(passed=1)
    seeded = result_file.read_text().split()
    assert seeded[0] == seeded[1] != seeded[2]
