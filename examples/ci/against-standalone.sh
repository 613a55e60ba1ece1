#!/usr/bin/env bash
# CI recipe: the standalone mockrouter with the provider overloaded (every request answers 529), a client
# against it, a look at the journal, then the server stopped. Needs only Node, npm, bash and curl.
# Env: PORT (default 4010); MOCKROUTER, the command that starts the server (split on spaces).
set -euo pipefail

MOCKROUTER="${MOCKROUTER:-npx mockrouter}"
PORT="${PORT:-4010}"
ORIGIN="http://127.0.0.1:$PORT"
API="$ORIGIN/api/v1"
MODEL='openai/gpt-4o-mini-tts-2025-12-15'
SPEECH="{\"model\":\"$MODEL\",\"input\":\"Hello from CI.\",\"voice\":\"alloy\",\"response_format\":\"mp3\"}"
TMP=$(mktemp -d)

# The server runs in a process group of its own (set -m), and stopping it stops the whole group: `npx mockrouter`
# runs node as a grandchild of npm, so killing $! alone stops npm, and node only half a second later.
: >"$TMP/server.log" # created before the server's shell opens it, so the wait below never reads a missing file
set -m
$MOCKROUTER --port "$PORT" --scenario provider-overloaded --quiet >"$TMP/server.log" 2>&1 &
MOCK_PID=$!
set +m
stop_mockrouter() {
  kill -TERM -- "-$MOCK_PID" 2>/dev/null || return 0
  for _ in $(seq 100); do # up to 10 s until nothing answers on the port any more
    curl -s -o /dev/null --max-time 1 "$ORIGIN/__mock/health" || return 0
    sleep 0.1
  done
  kill -KILL -- "-$MOCK_PID" 2>/dev/null || true
}
trap 'stop_mockrouter; rm -rf "$TMP"' EXIT

# Ready when this server printed its ready line (not another one on the port) and answers its health check.
for _ in $(seq 300); do # up to 30 s
  grep -q '^mockrouter listening on' "$TMP/server.log" && curl -sf "$ORIGIN/__mock/health" >/dev/null && break
  kill -0 "$MOCK_PID" 2>/dev/null || { echo "mockrouter exited: $(cat "$TMP/server.log")" >&2; exit 1; }
  sleep 0.1
done
curl -sSf "$ORIGIN/__mock/health" >/dev/null

# call STATUS CURL_ARGS...: the request with a key; the body goes to $TMP/body, headers to $TMP/headers.
call() {
  local want=$1 got
  shift
  got=$(curl -sS -H 'Authorization: Bearer sk-ci' -D "$TMP/headers" -o "$TMP/body" -w '%{http_code}' "$@")
  [ "$got" = "$want" ] && return
  echo "expected $want, got $got: $* -> $(head -c 500 "$TMP/body" | tr -cd '[:print:]')" >&2
  exit 1
}
# check JS_CONDITION: true of the JSON body `b`, else the script fails.
check() {
  node -e '
    const [file, condition] = process.argv.slice(1);
    const b = JSON.parse(require("fs").readFileSync(file, "utf8"));
    if (!new Function("b", `return (${condition})`)(b)) {
      console.error(`not true: ${condition}\n${JSON.stringify(b)}`);
      process.exit(1);
    }' "$TMP/body" "$1"
}

# The client. In your CI, your integration suite goes here instead, e.g.
#   OPENROUTER_BASE_URL="$API" OPENROUTER_API_KEY=sk-ci npm run test:integration
call 529 "$API/audio/speech" -H 'Content-Type: application/json' -d "$SPEECH"
check 'b.error.code === 529 && b.error.message === "Provider returned error"'
echo "speech while overloaded: 529 Provider returned error"

# The provider recovers: no default scenario any more, normal answers.
curl -sSf -X PUT "$ORIGIN/__mock/scenario" -H 'Content-Type: application/json' -d '{"name":null}' >/dev/null
call 200 "$API/audio/speech" -H 'Content-Type: application/json' -d "$SPEECH"
GEN_ID=$(tr -d '\r' <"$TMP/headers" | awk 'tolower($1) == "x-generation-id:" { print $2 }')
echo "speech: 200, $(wc -c <"$TMP/body" | tr -d ' ') bytes of mp3, $GEN_ID"
call 200 "$API/model/$MODEL"
check "b.data.id === '$MODEL' && b.data.architecture.output_modalities.includes('speech')"
echo "model: $MODEL"
call 200 "$API/generation?id=$GEN_ID"
check "b.data.id === '$GEN_ID' && b.data.api_type === 'tts' && b.data.tokens_prompt === 14"
echo "generation: $GEN_ID (tts, 14 characters)"

# What the server saw: the journal of the admin API.
curl -sSf "$ORIGIN/__mock/requests?status=529" -o "$TMP/body"
check 'b.requests.length === 1 && b.requests[0].path === "/api/v1/audio/speech"'
echo "journal: 1 request answered 529"

stop_mockrouter
