#!/usr/bin/env bash
# Starts the whole platform on embedded defaults: PostgreSQL and a Temporal dev server (unless DATABASE_URL /
# TEMPORAL_ADDRESS are set), the worker and the HTTP API, in one process. Ctrl-C or SIGTERM stops it cleanly.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec node --import tsx cli/all-in-one.ts
