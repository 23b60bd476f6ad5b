// Picks the histories to commit from a recording run (scripts/record-workflow-histories.sh): one per workflow type
// and scenario (test/helpers/workflow-histories.ts scenarioOf), the shortest, scrubbed (stack traces, worker
// identities), refused if it holds a secret. Histories in which no workflow task completed are skipped (nothing to
// replay). Adds histories of scenarios not yet committed; an existing file is replaced only with --replace.
// Usage: tsx test/tools/select-workflow-histories.ts <recorded dir> [--replace]
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as workflows from '../../workflows/index.js';
import {
  hasWorkflowCode,
  HISTORIES_DIR,
  readHistories,
  scenarioOf,
  scrubbed,
  secretsIn,
  workflowTypeOf,
  type HistoryJson,
} from '../helpers/workflow-histories.js';

const args = process.argv.slice(2);
const recorded = args.find((a) => !a.startsWith('--'));
const replace = args.includes('--replace');
if (!recorded) {
  console.error('usage: tsx test/tools/select-workflow-histories.ts <recorded dir> [--replace]');
  process.exit(2);
}

const chosen = new Map<string, { workflowType: string; scenario: string; history: HistoryJson; from: string }>();
for (const { workflowType, file, history } of readHistories(recorded)) {
  if (workflowTypeOf(history) !== workflowType) throw new Error(`${file}: starts a ${workflowTypeOf(history)}`);
  if (!hasWorkflowCode(history)) continue;
  const scenario = scenarioOf(history);
  const key = `${workflowType}/${scenario}`;
  const best = chosen.get(key);
  if (!best || history.events.length < best.history.events.length)
    chosen.set(key, { workflowType, scenario, history, from: file });
}

let problems = 0;
const written: string[] = [];
const kept: string[] = [];
for (const [key, { workflowType, scenario, history, from }] of [...chosen].sort(([a], [b]) => a.localeCompare(b))) {
  const clean = scrubbed(history);
  const secrets = secretsIn(clean);
  if (secrets.length > 0) {
    console.error(`refused ${key} (from ${from}): it holds ${secrets.join(', ')}`);
    problems++;
    continue;
  }
  const target = join(HISTORIES_DIR, workflowType, `${scenario}.json`);
  if (existsSync(target) && !replace) {
    kept.push(key);
    continue;
  }
  mkdirSync(join(HISTORIES_DIR, workflowType), { recursive: true });
  writeFileSync(target, `${JSON.stringify(clean, null, 2)}\n`);
  written.push(`${relative(process.cwd(), target)} (${history.events.length} events)`);
}

const exported = Object.entries(workflows)
  .filter(([, v]) => typeof v === 'function')
  .map(([name]) => name);
const committed = new Set(readHistories(HISTORIES_DIR).map((h) => h.workflowType));
const missing = exported.filter((t) => !committed.has(t));

for (const w of written) console.log(`wrote ${w}`);
if (kept.length > 0) console.log(`already committed (left as they are; --replace overwrites): ${kept.join(', ')}`);
if (missing.length > 0) {
  console.error(`no history of ${missing.join(', ')}: add a test that runs it to scripts/record-workflow-histories.sh`);
  problems++;
}
process.exit(problems > 0 ? 1 : 0);
