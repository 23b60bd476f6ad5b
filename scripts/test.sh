#!/usr/bin/env bash
# Runs every check: typecheck, lint (including the architecture's import rules) and all tests (unit and
# integration) against a real PostgreSQL and a real Temporal server, started here or reused.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests
setup_s=$SECONDS
say() { printf '[paycore] %s\n' "$*" >&2; }
say "typecheck"
npx --no-install tsc -p tsconfig.json --noEmit
npx --no-install tsc -p web/tsconfig.json --noEmit # the dashboard (its own settings: DOM, JSX, bundler resolution)
say "lint"
npx --no-install eslint --max-warnings 0 .
npx --no-install prettier --check --log-level warn . # formatting (docs/operations.md, "Formatting"): npm run format
npx --no-install tsx scripts/openapi-generate.ts --check # the committed OpenAPI documents: npm run openapi:generate
checks_s=$((SECONDS - setup_s))
say "tests"
tests_started=$SECONDS
report=var/vitest-report.json
mkdir -p var
status=0
npx --no-install vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
# A plain closing line for CI: "N passed, N failed".
# Before it, where the time went: the set-up, the checks, and the ten slowest test files.
if [ -f "$report" ]; then
  node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const files = r.testResults.map((f) => ({ name: f.name.replace(process.cwd() + "/", ""), s: (f.endTime - f.startTime) / 1000 }));
    const total = files.reduce((a, f) => a + f.s, 0);
    console.error(`[paycore] time: set-up ${process.argv[2]} s, typecheck and lint ${process.argv[3]} s, tests ${process.argv[4]} s (${files.length} files, ${total.toFixed(0)} s of file time over the workers); slowest files:`);
    for (const f of files.sort((a, b) => b.s - a.s).slice(0, 10)) console.error(`[paycore]   ${f.s.toFixed(0).padStart(5)} s  ${f.name}`);
    console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (r.numPendingTests ? `, ${r.numPendingTests} skipped` : ""));' \
    "$report" "$setup_s" "$checks_s" "$((SECONDS - tests_started))"
fi
exit "$status"
