#!/usr/bin/env bash
# Runs every check: typecheck, lint (including the architecture's import rules) and all tests (unit and
# integration) against a real PostgreSQL and a real Temporal server, started here or reused.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
say() { printf '[paycore] %s\n' "$*" >&2; }
say "typecheck"
npx --no-install tsc -p tsconfig.json --noEmit
say "lint"
npx --no-install eslint --max-warnings 0 .
say "tests"
npx --no-install vitest run "$@"
