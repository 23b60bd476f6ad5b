// Prebuilds the workflow bundle so workers start without bundling (set TEMPORAL_WORKFLOW_BUNDLE to the output).
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowsPath } from '../workers/worker.js';

const out = resolve(process.argv[2] ?? 'dist/workflow-bundle.js');
const { code } = await bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: undefined });
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, code);
process.stderr.write(`[paycore] workflow bundle written to ${out} (${Math.round(code.length / 1024)} KiB)\n`);
