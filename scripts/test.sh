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
tests_s=$((SECONDS - tests_started))
# The production topology run (docs/operations.md, "The topology run"): with no arguments (the whole suite) only, after
# the tests (it starts its own servers; the machine has few cores). Cached: it runs again only when what it runs changed,
# i.e. the hash of the app's sources, deploy/, the compose file, the lockfile and the script differs from the one its
# last pass left in var/topology.pass. Its log is var/topology.log; a failure fails the command with its last lines.
topology_s=0
topology="not run (test files named)"
if [ $# -eq 0 ]; then
  topology_started=$SECONDS
  topology_hash=$( { find config domain adapters db services activities workflows workers api cli support deploy \
    scripts/topology test/evm test/helpers/receiver.ts -type f -print | LC_ALL=C sort | xargs sha256sum
    sha256sum docker-compose.yml Dockerfile package-lock.json tsconfig.json; } | sha256sum | cut -c1-64)
  if [ "$(cat var/topology.pass 2>/dev/null || true)" = "$topology_hash" ]; then
    topology="passed before, unchanged"
    say "topology run: nothing it runs changed since its last pass (var/topology.pass)"
  else
    say "topology run (scripts/topology/run.ts; log in var/topology.log)"
    rm -f var/topology.pass
    if npx --no-install tsx scripts/topology/run.ts > var/topology.log 2>&1; then
      printf '%s\n' "$topology_hash" > var/topology.pass
      topology=passed
      say "$(tail -n 1 var/topology.log)"
    else
      status=1
      topology=FAILED
      tail -n 40 var/topology.log >&2
      say "topology run FAILED (whole log: var/topology.log)"
    fi
  fi
  topology_s=$((SECONDS - topology_started))
fi
# A plain closing line for CI: "N passed, N failed; topology run <outcome>".
# Before it, where the time went: the set-up, the checks, the topology run and the ten slowest test files.
if [ -f "$report" ]; then
  node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const files = r.testResults.map((f) => ({ name: f.name.replace(process.cwd() + "/", ""), s: (f.endTime - f.startTime) / 1000 }));
    const total = files.reduce((a, f) => a + f.s, 0);
    console.error(`[paycore] time: set-up ${process.argv[2]} s, typecheck and lint ${process.argv[3]} s, tests ${process.argv[4]} s, topology run ${process.argv[5]} s (${files.length} files, ${total.toFixed(0)} s of file time over the workers); slowest files:`);
    for (const f of files.sort((a, b) => b.s - a.s).slice(0, 10)) console.error(`[paycore]   ${f.s.toFixed(0).padStart(5)} s  ${f.name}`);
    console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (r.numPendingTests ? `, ${r.numPendingTests} skipped` : "") + `; topology run ${process.argv[6]}`);' \
    "$report" "$setup_s" "$checks_s" "$tests_s" "$topology_s" "$topology"
fi
exit "$status"
