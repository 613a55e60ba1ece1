"""A speech client with nothing but the Python standard library, run in CI against the standalone mockrouter.

Env: OPENROUTER_BASE_URL (default http://127.0.0.1:4010/api/v1), OPENROUTER_API_KEY (default sk-ci).
Retries 429 and 5xx twice, waiting Retry-After when the answer has one, else 0.25 s, then 0.5 s.
"""
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

BASE_URL = os.environ.get("OPENROUTER_BASE_URL", "http://127.0.0.1:4010/api/v1")
API_KEY = os.environ.get("OPENROUTER_API_KEY", "sk-ci")
MODEL = "openai/gpt-4o-mini-tts-2025-12-15"


def call(path, body=None, retries=2):
    """GET `path`, or POST `body` as JSON; returns (headers, body bytes). Exits on an error it cannot retry."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
    for attempt in range(retries + 1):
        try:
            with urllib.request.urlopen(urllib.request.Request(BASE_URL + path, data, headers), timeout=30) as res:
                return res.headers, res.read()
        except urllib.error.HTTPError as error:
            message = json.loads(error.read())["error"]["message"]  # the gateway's envelope
            if (error.code != 429 and error.code < 500) or attempt == retries:
                sys.exit(f"{error.code} {message}")
            wait = float(error.headers.get("Retry-After") or 0.25 * 2**attempt)
            print(f"{error.code} {message}, retrying in {wait} s")
            time.sleep(wait)


text = "Hello from Python."
headers, audio = call("/audio/speech", {"model": MODEL, "input": text, "voice": "alloy", "response_format": "mp3"})
generation_id = headers["X-Generation-Id"]
print(f"speech: {len(audio)} bytes of mp3, {generation_id}")

model = json.loads(call(f"/model/{MODEL}")[1])["data"]
print(f"model: {model['id']}, {len(model['supported_voices'])} voices")

record = json.loads(call(f"/generation?id={urllib.parse.quote(generation_id)}")[1])["data"]
assert record["tokens_prompt"] == len(text), record
print(f"generation: {record['id']} ({record['api_type']}, {record['tokens_prompt']} characters)")
