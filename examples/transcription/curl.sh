#!/usr/bin/env bash
# Speech, then its transcription, with curl and jq, against `npm start` (or `npx mockrouter`).
# Env: API (default http://127.0.0.1:4010/api/v1).
set -euo pipefail
API="${API:-http://127.0.0.1:4010/api/v1}"
KEY='Authorization: Bearer sk-test' # any non-empty key, unless the server was started with --keys

# Say a sentence as MP3
curl -sS "$API/audio/speech" -H "$KEY" -H 'Content-Type: application/json' \
  -d '{"model":"openai/gpt-4o-mini-tts-2025-12-15","input":"Meet me at the station at noon.","voice":"alloy","response_format":"mp3"}' \
  -o said.mp3

# Upload it as a file (multipart/form-data, as the openai clients do): its words come back
curl -sS "$API/audio/transcriptions" -H "$KEY" -F model=openai/whisper-1 -F file=@said.mp3 | jq -r .text
# Meet me at the station at noon.

# The same audio as base64 JSON, with a time for each word
jq -n --arg data "$(base64 -w0 said.mp3)" \
  '{model: "openai/whisper-1", input_audio: {data: $data, format: "mp3"}, response_format: "verbose_json", timestamp_granularities: ["word"]}' |
  curl -sS "$API/audio/transcriptions" -H "$KEY" -H 'Content-Type: application/json' -d @- |
  jq -c '{duration, first: .words[0], usage}'
# {"duration":2.067,"first":{"word":"Meet","start":0,"end":0.214},"usage":{"seconds":3,"cost":0.0003}}
