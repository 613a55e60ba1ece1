#!/usr/bin/env bash
# Saves the real gateway's catalog (every model, with its voices and prices) into a folder that
# `mockrouter --fixtures <folder>` serves, so your tests see the models and voices your app will meet.
#   OPENROUTER_API_KEY=sk-or-... ./save-catalog.sh && npx mockrouter --fixtures catalog
# Env: UPSTREAM (default https://openrouter.ai), OUT (default catalog).
set -euo pipefail
: "${OPENROUTER_API_KEY:?set OPENROUTER_API_KEY to your key}"

UPSTREAM="${UPSTREAM:-https://openrouter.ai}"
OUT="${OUT:-catalog}"
mkdir -p "$OUT"

# The answer as it came ({"data": [...]}), written whole or not at all: to a temporary file, then renamed.
curl -sSf --compressed -H "Authorization: Bearer $OPENROUTER_API_KEY" \
  "$UPSTREAM/api/v1/models?output_modalities=all" -o "$OUT/models.json.tmp"
mv "$OUT/models.json.tmp" "$OUT/models.json"
node -e 'const { data } = require(process.argv[1]); console.log(`saved ${data.length} models`)' "$(cd "$OUT" && pwd)/models.json"
