import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProviderUnavailableError } from '../../../../adapters/providers/provider-errors.js';
import { defaultEngineLayout } from '../../../../adapters/providers/transcription/install-layout.js';
import { transcriptOfWorkerResult } from '../../../../adapters/providers/transcription/offline-whisper.provider.js';
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

describe("speech worker's words", () => {
  /** A transcribe answer as the stand-in writes it, read by the adapter and made the provider's transcript. */
  async function transcriptOf(answer: object) {
    const worker = new WhisperWorkerProcess({
      python: process.execPath,
      workerScript: standIn(JSON.stringify(answer)),
      cpuThreads: 1,
      cpuKernels: 'portable',
      startTimeoutMs: 60_000,
    });
    await worker.start();
    try {
      const result = await worker.request({ path: '/nonexistent.wav' });
      if ('error' in result) throw new Error(result.error);
      return transcriptOfWorkerResult(result);
    } finally {
      worker.kill();
    }
  }
  const word = (w: string, start: number, spaced?: boolean) => ({
    start,
    end: start + 0.4,
    word: w,
    probability: 0.9,
    ...(spaced === undefined ? {} : { spaced }),
  });
  const answer = (words: object[]) => ({
    id: 'r1',
    language: 'en',
    language_probability: 0.99,
    duration: 5,
    segments: [{ start: 0, end: 5, text: 'It is -5 on the USB-C port.' }],
    words,
  });

  it('keeps a word the engine began with a space (" is", " -5") apart, and joins a piece without one (" USB", "-C")', async () => {
    // faster-whisper's words [" It", " is", " -5", " on", " the", " USB", "-C", " port."], as worker.py sends them:
    // the text without its leading space, and whether it had one (spaced).
    const spaced = ['It', 'is', '-5', 'on', 'the', 'USB'].map((w, i) => word(w, i * 0.5, true));
    const transcript = await transcriptOf(answer([...spaced, word('-C', 3, false), word('port.', 3.5, true)]));
    expect(transcript.words.map((w) => w.word)).toEqual(['It', 'is', '-5', 'on', 'the', 'USB-C', 'port.']);
    expect(transcript.words.every((w) => w.spaced === true)).toBe(true);
  });

  it('reads an answer without spaced (a worker before it) with the hyphen rule alone', async () => {
    const words = ['It', 'is', '-5', 'on', 'the', 'USB', '-C', 'port.'].map((w, i) => word(w, i * 0.5));
    const transcript = await transcriptOf(answer(words));
    expect(transcript.words.map((w) => w.word)).toEqual(['It', 'is-5', 'on', 'the', 'USB-C', 'port.']);
    expect(transcript.words.some((w) => 'spaced' in w)).toBe(false);
  });
});

describe("worker.py's words", () => {
  it('sends each word without its leading space and whether it had one (spaced)', () => {
    // worker.py's transcribe() with a stand-in for the model that gives faster-whisper's own words: " is", " -5" (a
    // minus number, a word of its own) and " USB", "-C" (one word in two pieces).
    const script = `
import json, sys
sys.path.insert(0, sys.argv[1])
import worker
class W:
    def __init__(self, word, start):
        self.word, self.start, self.end, self.probability = word, start, start + 0.4, 0.9
class S:
    start, end, text = 0.0, 4.0, " It is -5 on the USB-C port."
    words = [W(w, i * 0.5) for i, w in enumerate([" It", " is", " -5", " on", " the", " USB", "-C", " port."])]
class Info:
    language, language_probability, duration = "en", 0.99, 4.0
class Model:
    def transcribe(self, path, language, vad):
        return [S()], Info()
print(json.dumps(worker.transcribe(Model(), "r1", "/nonexistent.wav", "en", True)["words"]))
`;
    const words = JSON.parse(
      execFileSync(defaultEngineLayout().python, ['-c', script, join(process.cwd(), 'engines', 'transcription')], {
        encoding: 'utf8',
      }),
    ) as { word: string; spaced: boolean }[];
    expect(words.map((w) => [w.word, w.spaced])).toEqual([
      ['It', true],
      ['is', true],
      ['-5', true],
      ['on', true],
      ['the', true],
      ['USB', true],
      ['-C', false],
      ['port.', true],
    ]);
  });
});
