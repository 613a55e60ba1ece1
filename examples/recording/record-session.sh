#!/usr/bin/env bash
# Records a session of your app against the real gateway: `mockrouter record` in front of it, your app pointed at
# the recorder with your real key, then the recorder stopped, and every recording is on disk in $OUT.
#   OPENROUTER_API_KEY=sk-or-... ./record-session.sh npm run test:integration   # your app, any command
#   OPENROUTER_API_KEY=sk-or-... ./record-session.sh                            # a short session with curl
# The command runs with OPENROUTER_BASE_URL set to the recorder's URL: have your app read it.
# Env: UPSTREAM (default https://openrouter.ai), OUT (default recorded), PORT (default 4020; 0 picks a free one);
# MOCKROUTER, the command that starts mockrouter (split on spaces; default npx mockrouter).
set -euo pipefail
: "${OPENROUTER_API_KEY:?set OPENROUTER_API_KEY to your key: the recorder passes it to the upstream}"

MOCKROUTER="${MOCKROUTER:-npx mockrouter}"
UPSTREAM="${UPSTREAM:-https://openrouter.ai}"
OUT="${OUT:-recorded}"
PORT="${PORT:-4020}"
TMP=$(mktemp -d)

# The recorder runs in a process group of its own (set -m): stopping it stops npx and the node under it, and the
# script waits until the whole group is gone, that is until every recording under way is written.
: >"$TMP/recorder.log"
set -m
$MOCKROUTER record --upstream "$UPSTREAM" --out "$OUT" --port "$PORT" --quiet >"$TMP/recorder.log" 2>&1 &
RECORDER=$!
set +m
stop_recorder() {
  kill -TERM -- "-$RECORDER" 2>/dev/null || return 0
  for _ in $(seq 300); do # up to 30 s
    kill -0 -- "-$RECORDER" 2>/dev/null || return 0
    sleep 0.1
  done
  echo "the recorder did not stop: $(cat "$TMP/recorder.log")" >&2
  kill -KILL -- "-$RECORDER" 2>/dev/null || true
}
trap 'stop_recorder; rm -rf "$TMP"' EXIT

# Ready when this recorder printed its ready line (not another process on the port).
for _ in $(seq 300); do # up to 30 s
  grep -q '^mockrouter record listening on' "$TMP/recorder.log" && break
  kill -0 "$RECORDER" 2>/dev/null || { echo "the recorder exited: $(cat "$TMP/recorder.log")" >&2; exit 1; }
  sleep 0.1
done
# Its first line: `mockrouter record listening on http://127.0.0.1:4020/api/v1 → <upstream>, writing <dir>`.
OPENROUTER_BASE_URL=$(sed -n 's/^mockrouter record listening on \([^ ]*\) .*/\1/p' "$TMP/recorder.log")
[ -n "$OPENROUTER_BASE_URL" ] || { echo "the recorder did not start" >&2; exit 1; }
export OPENROUTER_BASE_URL

if [ "$#" -gt 0 ]; then
  "$@" # your app, with OPENROUTER_BASE_URL and OPENROUTER_API_KEY
else
  MODEL='openai/gpt-4o-mini-tts-2025-12-15'
  AUTH="Authorization: Bearer $OPENROUTER_API_KEY"
  curl -sSf -H "$AUTH" "$OPENROUTER_BASE_URL/model/$MODEL" -o /dev/null
  curl -sSf -H "$AUTH" -H 'Content-Type: application/json' -D "$TMP/headers" -o "$TMP/welcome.mp3" \
    -d "{\"model\":\"$MODEL\",\"input\":\"Welcome back.\",\"voice\":\"alloy\",\"response_format\":\"mp3\"}" \
    "$OPENROUTER_BASE_URL/audio/speech"
  GEN_ID=$(tr -d '\r' <"$TMP/headers" | awk 'tolower($1) == "x-generation-id:" { print $2 }')
  # The real gateway writes the generation record a moment after the audio: ask until it is there (up to 10 s).
  # Each 404 before it is recorded as well, as a rule of the scenario "recorded".
  for _ in $(seq 20); do
    curl -sf -H "$AUTH" "$OPENROUTER_BASE_URL/generation?id=$GEN_ID" -o /dev/null && break
    sleep 0.5
  done
  echo "recorded: $MODEL, $(wc -c <"$TMP/welcome.mp3" | tr -d ' ') bytes of mp3, $GEN_ID"
fi

stop_recorder
echo "written to $OUT:"
(cd "$OUT" && find . -type f | sort)
