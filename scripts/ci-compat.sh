#!/usr/bin/env bash
# Compatibility run: the test suite again on Node 22 with msw 3, the newest versions users may have.
# Node 22 comes from the npm `node` package (into a temporary folder); msw 3 is installed with --no-save,
# so package.json and package-lock.json stay as they are (checked below). msw is put back afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

tools=$(mktemp -d)
locked_msw=$(node -p "require('./package-lock.json').packages['node_modules/msw'].version")
restore() {
  rm -rf "$tools"
  npm install --no-save --no-audit --no-fund --loglevel=error "msw@$locked_msw" >/dev/null 2>&1 || true
}
trap restore EXIT

npm install --prefix "$tools" --no-save --no-package-lock --no-audit --no-fund --loglevel=error node@22 >/dev/null
node22="$tools/node_modules/.bin/node"
npm install --no-save --no-audit --no-fund --loglevel=error msw@3 >/dev/null
git diff --exit-code --quiet -- package.json package-lock.json || { echo "ci-compat: the lock file changed" >&2; exit 1; }

echo "ci-compat: Node $("$node22" --version), msw $("$node22" -p "require('msw/package.json').version")"
# The property-based and load tests already ran at full size on Node 20; here they run smaller.
FUZZ_RUNS=2000 LOAD_SECONDS=4 MOCKROUTER_COMPAT=node22-msw3 "$node22" node_modules/vitest/vitest.mjs run
