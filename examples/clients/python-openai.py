"""The `openai` Python client against the standalone mockrouter: speech, the X-Mock-* headers, and the retry trap
of failing scenarios, each call counted in the server's journal.

Needs `pip install openai` (tested with 2.54 and 3.22) and a server started with the scenarios of the examples:
`npx mockrouter --scenarios examples/scenarios`. Env: OPENROUTER_BASE_URL (default http://127.0.0.1:4010/api/v1).
"""
import json
import os
import urllib.request
import uuid

from openai import APIConnectionError, APIStatusError, OpenAI

BASE_URL = os.environ.get("OPENROUTER_BASE_URL", "http://127.0.0.1:4010/api/v1")
ADMIN_URL = BASE_URL.removesuffix("/api/v1") + "/__mock"
MODEL = "openai/gpt-4o-mini-tts-2025-12-15"
SESSION = f"python-{uuid.uuid4().hex[:8]}"  # scenario counters (`times`) are per session: each run starts afresh

# default_headers go with every call of this client.
client = OpenAI(base_url=BASE_URL, api_key="sk-test", default_headers={"X-Mock-Session": SESSION})
# The client retries connection errors, 408, 409, 429 and 5xx twice by default; this one fails on the first.
no_retries = client.with_options(max_retries=0)  # or OpenAI(..., max_retries=0)

last_seq = 0


def requests_sent():
    """How many requests this session sent since the last call (the journal: GET /__mock/requests)."""
    global last_seq
    url = f"{ADMIN_URL}/requests?session={SESSION}&after={last_seq}&limit=1000"
    with urllib.request.urlopen(url, timeout=30) as response:
        journal = json.load(response)
    last_seq = journal["last_seq"]
    return len(journal["requests"])


def speak(speaker, scenario=None):
    """One non-streamed speech call, with `X-Mock-Scenario: <scenario>` on this call only; returns the audio."""
    headers = {} if scenario is None else {"X-Mock-Scenario": scenario}
    return speaker.audio.speech.create(model=MODEL, voice="alloy", input="Hello from Python.", extra_headers=headers)


requests_sent()  # skips what came before

# A streamed response: the call returns at the headers, and the body is read here.
with client.audio.speech.with_streaming_response.create(
    model=MODEL, voice="alloy", input="Hello from Python.", response_format="mp3"
) as response:
    mp3 = b"".join(response.iter_bytes())
    print(f"speech: {len(mp3)} bytes of mp3, {response.headers['X-Generation-Id']}, {requests_sent()} request")

# extra_headers set headers on one call: a 402 is not retried, even with the default retries.
try:
    client.audio.speech.create(model=MODEL, voice="alloy", input="Hi.", extra_headers={"X-Mock-Status": "402"})
except APIStatusError as error:
    print(f"X-Mock-Status 402: {error.status_code} {error.body['message']}, {requests_sent()} request")

# The trap: create() reads the whole body before it returns, so a cut body is a connection error, and retried.
# truncated-audio cuts every request, so the default client sends it three times before it gives up.
try:
    speak(client, "truncated-audio")
except APIConnectionError:
    print(f"truncated-audio, default retries: APIConnectionError after {requests_sent()} requests")

# The way out: max_retries=0 shows the error of the first request...
try:
    speak(no_retries, "truncated-audio")
except APIConnectionError:
    print(f"truncated-audio, max_retries=0: APIConnectionError after {requests_sent()} request")

# ...or a rule with `times` (examples/scenarios/truncated-once.yaml) cuts one request, and the retry gets it all.
audio = speak(client, "truncated-once").content
print(f"truncated-once, default retries: {len(audio)} bytes of pcm after {requests_sent()} requests")

# A streamed call is never retried for a cut body: the read fails, with the HTTP library's error (httpx's, or
# httpx2's from openai 3 on), after the bytes that came.
with client.audio.speech.with_streaming_response.create(
    model=MODEL, voice="alloy", input="Hello from Python.", extra_headers={"X-Mock-Scenario": "truncated-audio"}
) as response:
    received = 0
    try:
        for chunk in response.iter_bytes():
            received += len(chunk)
    except Exception as error:  # httpx.RemoteProtocolError: the peer closed the connection mid-body
        print(f"truncated-audio, streamed: {type(error).__name__} after {received} bytes, {requests_sent()} request")
