#!/usr/bin/env bash
# The operations with curl, against `npm start` (or `npx mockrouter`). Env: API (default http://127.0.0.1:4010/api/v1).
set -euo pipefail
API="${API:-http://127.0.0.1:4010/api/v1}"
KEY='Authorization: Bearer sk-test' # any non-empty key, unless the server was started with --keys

# Speech as MP3 (24 kHz mono, 64 kbps, with a LAME/Info tag)
curl -sS "$API/audio/speech" -H "$KEY" -H 'Content-Type: application/json' \
  -d '{"model":"openai/gpt-4o-mini-tts-2025-12-15","input":"Hello there, world.","voice":"alloy","response_format":"mp3"}' \
  -D - -o hello.mp3
# HTTP/1.1 200 OK
# Content-Type: audio/mpeg
# X-Generation-Id: gen-tts-1795000000-AbCdEfGhIjKlMnOpQrSt
# Transfer-Encoding: chunked

# Speech as PCM (24 kHz, 16-bit signed little-endian, mono), the default when response_format is left out
curl -sS "$API/audio/speech" -H "$KEY" -H 'Content-Type: application/json' \
  -d '{"model":"openai/gpt-4o-mini-tts-2025-12-15","input":"Hello there, world.","voice":"alloy"}' \
  -D - -o hello.pcm
# Content-Type: audio/pcm;rate=24000;channels=1

# Play or inspect them: ffplay hello.mp3; ffplay -f s16le -ar 24000 -ac 1 hello.pcm

# Model lookup: variants (:free, :nitro, :floor, :online, :thinking, :extended, :exacto) and aliases resolve
curl -sS "$API/model/openai/gpt-4o-mini%3Afree" -H "$KEY" -w '\n'
curl -sS "$API/model/anthropic/claude-3-5-sonnet" -H "$KEY" -w '\n'

# Generation lookup: a record of fixtures/generations.json (always there); a speech call's record answers under
# the X-Generation-Id of its response
curl -sS "$API/generation?id=gen-tts-1773480472-MockrouterFixtureTts" -H "$KEY" -w '\n'

# No key: the gateway's error envelope, with the HTTP status equal to error.code
curl -sS "$API/model/openai/gpt-4o-mini" -w '\n'
