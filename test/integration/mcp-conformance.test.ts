import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.10, pinned) against /mcp, run from the
 * test command. It runs every server scenario that applies to a server of this shape (tools only, stateless
 * Streamable HTTP). The other server scenarios each call a fixture of the suite's reference "everything" server
 * (tools named test_simple_text, test_image_content, test_sampling, test_reconnection..., prompts and resources
 * this server does not have); docs/x402.md lists them. A scenario passes when no check FAILED and at least one
 * SUCCEEDED.
 */
export const APPLICABLE_SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'logging-set-level'] as const;
/**
 * Stream-resumption scenarios (SEP-1699) need a session; a stateless server gives none, and the suite then only
 * warns "Server provides session ID" and checks nothing else. They run too: no check may fail.
 */
export const SESSION_SCENARIOS = ['server-sse-polling', 'server-sse-multiple-streams'] as const;
/** Scenarios that call fixtures of the suite's reference server (test_* tools, prompts, resources, completions). */
export const FIXTURE_SCENARIOS = [
  'completion-complete', 'tools-call-simple-text', 'tools-call-image', 'tools-call-audio', 'tools-call-embedded-resource',
  'tools-call-mixed-content', 'tools-call-with-logging', 'tools-call-error', 'tools-call-with-progress', 'tools-call-sampling',
  'tools-call-elicitation', 'json-schema-2020-12', 'elicitation-sep1034-defaults', 'elicitation-sep1330-enums', 'resources-list',
  'resources-read-text', 'resources-read-binary', 'resources-templates-read', 'resources-subscribe', 'resources-unsubscribe',
  'prompts-list', 'prompts-get-simple', 'prompts-get-with-args', 'prompts-get-embedded-resource', 'prompts-get-with-image',
] as const;

const run = promisify(execFile);
const cli = path.join(path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js');

let tdb: TestDatabase;
let app: Awaited<ReturnType<typeof startTestApp>>;
let workDir: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  app = await startTestApp({ db: tdb.db, logger: capturingLogger().logger, config: testConfig({ RATE_LIMIT_X402_PER_IP_PER_MINUTE: '10000' }) });
  workDir = await mkdtemp(path.join(tmpdir(), 'mcp-conformance-'));
});
afterAll(async () => {
  await app?.close();
  await tdb?.drop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

interface Outcome { passed: number; total: number; failed: number; failures: string[]; output: string }

/** Runs one scenario with the suite's CLI and reads its report (it prints the checks and a summary line). */
async function runScenario(scenario: string): Promise<Outcome> {
  const out = await run(process.execPath, [cli, 'server', '--url', `${app.url}/mcp`, '--scenario', scenario], { cwd: workDir, timeout: 120_000 })
    .catch((err: { stdout?: string; stderr?: string }) => {
      // The CLI exits non-zero when a check fails; its report says which.
      if (!err.stdout) throw err;
      return { stdout: err.stdout, stderr: err.stderr ?? '' };
    });
  // eslint-disable-next-line no-control-regex
  const output = out.stdout.replace(/\u001b\[[0-9;]*m/g, '');
  const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(output);
  if (!summary) throw new Error(`no summary in the conformance report:\n${output}\n${out.stderr}`);
  return {
    passed: Number(summary[1]), total: Number(summary[2]), failed: Number(summary[3]),
    failures: output.split('\n').filter((l) => /\bFAILURE\b/.test(l)), output,
  };
}

describe('MCP conformance suite, server scenarios', () => {
  it('accounts for every server scenario of the suite (a new one must be sorted into a list above)', async () => {
    const { stdout } = await run(process.execPath, [cli, 'list'], { cwd: workDir });
    const server = stdout.split(/Client scenarios/)[0]!.split('\n').map((l) => /^\s*-\s+(\S+)/.exec(l)?.[1]).filter((n): n is string => !!n);
    expect([...server].sort()).toEqual([...APPLICABLE_SCENARIOS, ...SESSION_SCENARIOS, ...FIXTURE_SCENARIOS].sort());
  });

  it.each(APPLICABLE_SCENARIOS)('%s passes', async (scenario) => {
    const outcome = await runScenario(scenario);
    expect(outcome.failures).toEqual([]);
    expect(outcome.failed).toBe(0);
    expect(outcome.passed).toBeGreaterThan(0);
  });

  it.each(SESSION_SCENARIOS)('%s finds nothing wrong with a stateless server', async (scenario) => {
    const outcome = await runScenario(scenario);
    expect(outcome.failures).toEqual([]);
    expect(outcome.failed).toBe(0);
    const warnings = outcome.output.split('\n').filter((l) => /\bWARNING\b/.test(l));
    expect(warnings.length).toBeGreaterThan(0);
    for (const w of warnings) expect(w).toMatch(/session ID/);
  });
});
