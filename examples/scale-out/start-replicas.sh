#!/usr/bin/env bash
# Three mockrouter replicas on one host, sharing one Valkey/Redis store: a speech call answered by the first, its
# generation record read on the second, the credits it spent seen on the third, and the journal of all three.
# Then all three are stopped. Needs Node, npm, bash, curl and a reachable store.
# Env: STORE (default redis://127.0.0.1:6379), BASE_PORT (default 4011: replicas on 4011, 4012, 4013),
# MOCKROUTER, the command that starts a replica (split on spaces; default npx mockrouter).
set -euo pipefail

MOCKROUTER="${MOCKROUTER:-npx mockrouter}"
STORE="${STORE:-redis://127.0.0.1:6379}"
BASE_PORT="${BASE_PORT:-4011}"
PREFIX="demo-$$:" # a key prefix of this run's own, so it starts from a clean state and shares the store with others
MODEL='openai/gpt-4o-mini-tts-2025-12-15'
TMP=$(mktemp -d)
PIDS=()

stop_replicas() {
  for pid in "${PIDS[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done # up to 10 s each
    kill -KILL -- "-$pid" 2>/dev/null || true
  done
}
trap 'stop_replicas; rm -rf "$TMP"' EXIT

printf 'keys:\n  - key: sk-demo\n    credits: 1\n' >"$TMP/keys.yaml" # the same keys file for every replica

# Each replica in a process group of its own (set -m), as examples/ci/against-standalone.sh does: stopping it
# stops node, not only npm. Same flags for all (configuration is not shared), its own --replica-id and port.
set -m
for i in 1 2 3; do
  : >"$TMP/replica-$i.log"
  $MOCKROUTER --port $((BASE_PORT + i - 1)) --store "$STORE" --store-prefix "$PREFIX" --replica-id "replica-$i" \
    --keys "$TMP/keys.yaml" --quiet >"$TMP/replica-$i.log" 2>&1 &
  PIDS+=($!)
done
set +m

# Ready when each printed its ready line (it listens once the store answered).
for i in 1 2 3; do
  for _ in $(seq 300); do # up to 30 s
    grep -q '^mockrouter listening on' "$TMP/replica-$i.log" && break
    kill -0 "${PIDS[$((i - 1))]}" 2>/dev/null || { echo "replica-$i exited: $(cat "$TMP/replica-$i.log")" >&2; exit 1; }
    sleep 0.1
  done
  grep -q '^mockrouter listening on' "$TMP/replica-$i.log" || { echo "replica-$i is not ready" >&2; exit 1; }
done
api() { echo "http://127.0.0.1:$((BASE_PORT + $1 - 1))/api/v1"; }
admin() { echo "http://127.0.0.1:$((BASE_PORT + $1 - 1))/__mock"; }
# json FILE EXPRESSION: the value of a JavaScript expression of the JSON body `b`.
json() { node -e 'const b = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(eval(process.argv[2]))' "$1" "$2"; }

# Speech on replica 1.
curl -sSf -H 'Authorization: Bearer sk-demo' -H 'Content-Type: application/json' -D "$TMP/headers" -o "$TMP/speech.mp3" \
  -d "{\"model\":\"$MODEL\",\"input\":\"One gateway, three processes.\",\"voice\":\"alloy\",\"response_format\":\"mp3\"}" \
  "$(api 1)/audio/speech"
GEN_ID=$(tr -d '\r' <"$TMP/headers" | awk 'tolower($1) == "x-generation-id:" { print $2 }')
echo "replica-1 spoke: $GEN_ID"

# Its record on replica 2, what the key spent on replica 3.
curl -sSf -H 'Authorization: Bearer sk-demo' -o "$TMP/generation.json" "$(api 2)/generation?id=$GEN_ID"
echo "replica-2 found it: $(json "$TMP/generation.json" 'b.data.id') (cost $(json "$TMP/generation.json" 'b.data.total_cost') USD)"
curl -sSf -H 'Authorization: Bearer sk-demo' -o "$TMP/key.json" "$(api 3)/key"
echo "replica-3 counts it: usage $(json "$TMP/key.json" 'b.data.usage') USD of $(json "$TMP/key.json" 'b.data.limit')"

# One journal: any replica lists every replica's entries, each naming the replica that answered.
curl -sSf -o "$TMP/requests.json" "$(admin 1)/requests"
json "$TMP/requests.json" 'b.requests.map((r) => `#${r.seq} ${r.operation} ${r.status} by ${r.replica}`).join("\n")'
