import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProviderUnavailableError } from '../../../../adapters/providers/provider-errors.js';
import { WhisperWorkerProcess } from '../../../../adapters/providers/transcription/whisper-worker-process.js';
import { until } from '../../../helpers/until.js';

/**
 * A speech worker that answers a request outside its protocol (a line that is not JSON, or JSON of another shape:
 * e.g. an embedding of a length the adapter does not know) fails that request at once, and the worker is replaced;
 * the request never waits for a time-out. A scripted stand-in (Node, not the engine) writes the bad answers.
 */
const dir = mkdtempSync(join(tmpdir(), 'paycore-worker-protocol-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function standIn(answer: string): string {
  const script = join(dir, `worker-${Math.random().toString(36).slice(2)}.cjs`);
  writeFileSync(
    script,
    `process.stdout.write(JSON.stringify({ ready: true }) + '\\n');
require('readline').createInterface({ input: process.stdin }).on('line', () => process.stdout.write(${JSON.stringify(answer)} + '\\n'));
setInterval(() => {}, 1000);
`,
  );
  return script;
}

async function ask(answer: string) {
  const worker = new WhisperWorkerProcess({
    python: process.execPath,
    workerScript: standIn(answer),
    cpuThreads: 1,
    cpuKernels: 'portable',
    startTimeoutMs: 60_000,
  });
  await worker.start();
  try {
    const started = Date.now();
    const outcome = await Promise.race([
      worker.request({ kind: 'speakers', path: '/nonexistent.wav' }).then(
        () => 'answered',
        (e: unknown) => e,
      ),
      // A hang guard for the test only: a correct worker process fails the request as soon as the line arrives.
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 30 s'), 30_000)),
    ]);
    // The worker is ended (SIGKILL): it is gone once its exit is seen.
    const ended =
      outcome instanceof Error ? await until('the worker to end', () => (worker.alive ? undefined : true)) : false;
    return { outcome, ms: Date.now() - started, ended };
  } finally {
    worker.kill();
  }
}

describe('speech worker answers outside the protocol', () => {
  it('a line that is not JSON fails the request in flight at once and ends the worker', async () => {
    const { outcome, ended } = await ask('Traceback (most recent call last): oops');
    expect(outcome).toBeInstanceOf(ProviderUnavailableError);
    expect((outcome as Error).message).toMatch(/outside its protocol/);
    expect(ended).toBe(true);
  });

  it('an answer of the wrong shape (an embedding of an unknown length) fails it the same way', async () => {
    const { outcome } = await ask(
      JSON.stringify({ id: 'r1', duration: 1, regions: [{ start: 0, end: 1, embedding: [0.5, 0.5] }] }),
    );
    expect(outcome).toBeInstanceOf(ProviderUnavailableError);
    expect((outcome as Error).message).toMatch(/outside its protocol/);
  });
});
