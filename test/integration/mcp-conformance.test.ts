import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { node22Binary } from '../helpers/node22.js';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, pinned) against /mcp, run from the
 * test command with the Node 22 it needs (scripts/setup.sh --tests installs it into the tool cache; the project
 * stays on Node 20). EVERY server scenario of the suite runs, each on its own, and the test fails on any failed
 * check, with one exception only: the scenarios that call fixtures of the suite's reference "everything" server
 * (tools named test_simple_text, test_sampling..., prompts, resources, completions) that a production server does
 * not have; there every failed check must be the absence of that fixture (nothing else may go wrong).
 */
export const APPLICABLE_SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'logging-set-level',
  'dns-rebinding-protection',
] as const;
/**
 * Stream-resumption scenarios (SEP-1699) need a session; a stateless server gives none, and the suite then only
 * warns "Server provides session ID" and checks nothing else. No check may fail.
 */
export const SESSION_SCENARIOS = ['server-sse-polling', 'server-sse-multiple-streams'] as const;
/** Scenarios that call fixtures of the suite's reference server (test_* tools, prompts, resources, completions). */
export const FIXTURE_SCENARIOS = [
  'completion-complete',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-with-logging',
  'tools-call-error',
  'tools-call-with-progress',
  'tools-call-sampling',
  'tools-call-elicitation',
  'json-schema-2020-12',
  'elicitation-sep1034-defaults',
  'elicitation-sep1330-enums',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'resources-subscribe',
  'resources-unsubscribe',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
] as const;
/**
 * How this server answers a call of a fixture it does not have (the only failed checks allowed, whole messages): an
 * unknown tool (JSON-RPC -32602), a method of a capability it does not declare (-32601: completions, resources,
 * prompts), or a fixture tool the suite looks for in tools/list, where it finds this server's four tools.
 */
const FIXTURE_ABSENT = [
  /^[\w-]+: Failed: MCP error -32602: (?:MCP error -32602: )?Unknown tool: test_\w+$/,
  /^[\w-]+: Failed: MCP error -32601: Method not found$/,
  /^[\w-]+: Tool '\w+' not found\. Available tools: verify_native_usdc, match_native_usdc_payment, usdc_transfer_evidence_pdf, domain_dns_tls_audit$/,
];

const run = promisify(execFile);
const cli = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist/index.js',
);

let tdb: TestDatabase;
let app: Awaited<ReturnType<typeof startTestApp>>;
let workDir: string;
let node22: string;

beforeAll(async () => {
  node22 = node22Binary();
  tdb = await createTestDatabase();
  app = await startTestApp({
    db: tdb.db,
    logger: capturingLogger().logger,
    config: testConfig({ RATE_LIMIT_X402_PER_IP_PER_MINUTE: '10000' }),
  });
  workDir = await mkdtemp(path.join(tmpdir(), 'mcp-conformance-'));
});
afterAll(async () => {
  await app?.close();
  await tdb?.drop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
  details?: unknown;
}
interface Outcome {
  checks: Check[];
  failures: Check[];
  passed: number;
  output: string;
}

/** Runs one scenario with the suite's CLI under Node 22 and reads the checks it saved (checks.json). */
async function runScenario(scenario: string): Promise<Outcome> {
  const outDir = await mkdtemp(path.join(workDir, `${scenario}-`));
  const out = await run(
    node22,
    [cli, 'server', '--url', `${app.url}/mcp`, '--scenario', scenario, '--output-dir', outDir],
    { cwd: workDir, timeout: 120_000 },
  ).catch((err: { stdout?: string; stderr?: string }) => {
    // The CLI exits non-zero when a check fails; its saved checks say which.
    if (err.stdout === undefined) throw err;
    return { stdout: err.stdout, stderr: err.stderr ?? '' };
  });
  const [resultDir] = await readdir(outDir);
  if (!resultDir)
    throw new Error(`the conformance suite saved no results for ${scenario}:\n${out.stdout}\n${out.stderr}`);
  const checks = JSON.parse(await readFile(path.join(outDir, resultDir, 'checks.json'), 'utf8')) as Check[];
  // eslint-disable-next-line no-control-regex
  const output = out.stdout.replace(/\u001b\[[0-9;]*m/g, '');
  return {
    checks,
    failures: checks.filter((c) => c.status === 'FAILURE'),
    passed: checks.filter((c) => c.status === 'SUCCESS').length,
    output,
  };
}

const describeFailures = (o: Outcome) =>
  o.failures.map((c) => `${c.id}: ${c.errorMessage ?? JSON.stringify(c.details)}`);

describe('MCP conformance suite, every server scenario (Node 22)', () => {
  it('runs on Node 22 and accounts for every server scenario of the suite (a new one must be sorted into a list above)', async () => {
    const { stdout: version } = await run(node22, ['--version']);
    expect(version.trim()).toMatch(/^v22\./);
    const { stdout } = await run(node22, [cli, 'list', '--server'], { cwd: workDir });
    const server = stdout
      .split('\n')
      .map((l) => /^\s*-\s+(\S+)/.exec(l)?.[1])
      .filter((n): n is string => !!n);
    expect([...server].sort()).toEqual([...APPLICABLE_SCENARIOS, ...SESSION_SCENARIOS, ...FIXTURE_SCENARIOS].sort());
  });

  it.each(APPLICABLE_SCENARIOS)('%s passes', async (scenario) => {
    const outcome = await runScenario(scenario);
    expect(describeFailures(outcome)).toEqual([]);
    expect(outcome.passed).toBeGreaterThan(0);
  });

  it.each(SESSION_SCENARIOS)('%s finds nothing wrong with a stateless server', async (scenario) => {
    const outcome = await runScenario(scenario);
    expect(describeFailures(outcome)).toEqual([]);
    const warnings = outcome.checks.filter((c) => c.status === 'WARNING');
    expect(warnings.length).toBeGreaterThan(0);
    for (const w of warnings) expect(`${w.id} ${w.errorMessage ?? ''}`).toMatch(/session/i);
  });

  it.each(FIXTURE_SCENARIOS)(
    "%s fails only for the reference server's fixture this server does not have",
    async (scenario) => {
      const outcome = await runScenario(scenario);
      expect(outcome.checks.length).toBeGreaterThan(0);
      for (const failure of describeFailures(outcome))
        expect(
          FIXTURE_ABSENT.some((re) => re.test(failure)),
          failure,
        ).toBe(true);
    },
  );
});
