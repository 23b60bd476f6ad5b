#!/usr/bin/env bash
# Records workflow histories for the replay test (test/unit/workflows/workflow-replay.test.ts): runs the integration
# tests below with RECORD_WORKFLOW_HISTORIES set, so every test worker writes the histories of its task queue when it
# stops, then commits-to-be one history per workflow type and scenario under test/fixtures/workflow-histories/.
# Scenarios already there are left alone unless `--replace` is given. See docs/operations.md ("Changing a workflow").
# Usage: bash scripts/record-workflow-histories.sh [--replace] [more test files…]
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf '[paycore] %s\n' "$*" >&2; }
replace=()
extra=()
for arg in "$@"; do
  if [ "$arg" = "--replace" ]; then replace=(--replace); else extra+=("$arg"); fi
done
# Every workflow type in workflows/index.ts and its important branches:
tests=(
  test/integration/jobs.test.ts                # processingJobWorkflow: completed, failed (permanent error)
  test/integration/jobs-lifecycle.test.ts      # processingJobWorkflow: provider outage waits; maintenanceWorkflow; retentionWorkflow
  test/integration/webhook-delivery.test.ts    # webhookDeliveryWorkflow: delivered, delivered after retries, failed
  test/integration/payment-watcher.test.ts     # paymentWatcherWorkflow (base): scans, deliveries, continue-as-new
  test/integration/solana-watcher.test.ts      # paymentWatcherWorkflow (solana): scans, continue-as-new
  test/integration/invoice-lifecycle.test.ts   # invoiceLifecycleWorkflow: voided, paid (signal), already paid; watcher signalling
  test/integration/invoice-mail.test.ts        # invoiceMailWorkflow: sent, retried then sent, failed permanent/temporary
  test/integration/maintenance.test.ts         # maintenanceWorkflow: purges, restarted deliveries
  test/integration/batches.test.ts             # processingBatchWorkflow: completed, partial, failed; processingJobWorkflow as its child (search attributes)
  test/integration/v1-transcribe.test.ts       # speechJobWorkflow: chunks, continue-as-new, outage, failures; processingJobWorkflow with the speech child
)
bash scripts/setup.sh --tests
recorded=var/workflow-histories
rm -rf "$recorded"
mkdir -p "$recorded"
say "running ${#tests[@]} integration test files, recording their workflow histories in $recorded"
RECORD_WORKFLOW_HISTORIES="$PWD/$recorded" npx --no-install vitest run "${tests[@]}" "${extra[@]}"
say "selecting histories for test/fixtures/workflow-histories"
npx --no-install tsx test/tools/select-workflow-histories.ts "$recorded" "${replace[@]}"
