#!/usr/bin/env bash
# Compatibility runs: the test suite again on each supported Node.js major (22 and 24, from the npm `node`
# package, into a temporary folder), first with the locked msw 2, then with msw 3 where msw 3 runs on that
# Node.js (the rule of src/msw/compat.ts, read from dist/, which `npm test` built). At most four runs.
# msw 3 is installed with --no-save, so package.json and package-lock.json stay as they are (checked below);
# the locked msw is put back afterwards, whatever happens. Needs dist/ built (run after `npm test`).
# These runs are where test/openai7-clients.test.ts (the openai client 7.x, which needs Node.js 22) runs: on the
# machine's Node.js 20 it is skipped.
# Env: COMPAT_NODES (default "22 24"), FUZZ_RUNS (default 2000), LOAD_SECONDS (default 4): those of `npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."

tools=$(mktemp -d)
locked_msw=$(node -p "require('./package-lock.json').packages['node_modules/msw'].version")
restore() {
  rm -rf "$tools"
  npm install --no-save --no-audit --no-fund --loglevel=error "msw@$locked_msw" >/dev/null 2>&1 || true
}
trap restore EXIT

lock_unchanged() {
  git diff --exit-code --quiet -- package.json package-lock.json || { echo "ci-compat: the lock file changed" >&2; exit 1; }
}

# The load layer (the fuzz suites at full size, the load, soak and memory tests at full size, the store
# measurements) already ran in `npm run test:load`; here the suite runs at the sizes of `npm test`
# (test/support/load-layer.ts), which these two defaults repeat so the header line shows them.
export FUZZ_RUNS="${FUZZ_RUNS:-2000}" LOAD_SECONDS="${LOAD_SECONDS:-4}"

# node_for MAJOR: installs that Node.js major from the npm `node` package; prints the path of its binary.
node_for() {
  npm install --prefix "$tools/node$1" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node@$1" >/dev/null
  echo "$tools/node$1/node_modules/.bin/node"
}

# suite NODE: the whole suite on that Node.js, which is also the `node` of every process the tests start (the CI
# recipe's npx and node -e included), with the msw installed now. Prints the combination's header line first.
suite() {
  local node=$1 msw started
  msw=$("$node" -p "require('msw/package.json').version")
  echo "ci-compat: Node $("$node" --version), msw $msw (FUZZ_RUNS=$FUZZ_RUNS, LOAD_SECONDS=$LOAD_SECONDS)"
  started=$SECONDS
  PATH="$(dirname "$node"):$PATH" MOCKROUTER_COMPAT="node$("$node" -p 'process.versions.node')-msw$msw" \
    "$node" node_modules/vitest/vitest.mjs run
  echo "ci-compat: Node $("$node" --version), msw $msw: passed in $((SECONDS - started)) s"
}

nodes=()
for major in ${COMPAT_NODES:-22 24}; do nodes+=("$(node_for "$major")"); done

for node in "${nodes[@]}"; do suite "$node"; done

npm install --no-save --no-audit --no-fund --loglevel=error msw@3 >/dev/null
lock_unchanged
for node in "${nodes[@]}"; do
  problem=$("$node" --input-type=module -e "
    const { mswCompatibilityProblem } = await import('./dist/msw/compat.js');
    const msw = (await import('msw/package.json', { with: { type: 'json' } })).default.version;
    console.log(mswCompatibilityProblem({ node: process.versions.node, msw }) ?? '')")
  if [ -n "$problem" ]; then echo "ci-compat: skipped: $problem"; continue; fi
  suite "$node"
done
lock_unchanged
