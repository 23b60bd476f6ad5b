#!/usr/bin/env bash
# Runs every check: typecheck, lint (including the architecture's import rules) and all tests (unit and
# integration) against a real PostgreSQL and a real Temporal server, started here or reused.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests
say() { printf '[paycore] %s\n' "$*" >&2; }
say "typecheck"
npx --no-install tsc -p tsconfig.json --noEmit
npx --no-install tsc -p web/tsconfig.json --noEmit # the dashboard (its own settings: DOM, JSX, bundler resolution)
say "lint"
npx --no-install eslint --max-warnings 0 .
say "tests"
report=var/vitest-report.json
mkdir -p var
status=0
npx --no-install vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
# A plain closing line for CI: "N passed, N failed".
if [ -f "$report" ]; then
  node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (r.numPendingTests ? `, ${r.numPendingTests} skipped` : ""));' "$report"
fi
exit "$status"
