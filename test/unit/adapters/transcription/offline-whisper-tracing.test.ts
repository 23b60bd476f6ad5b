import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { activeTracing, inSpan, startTracing } from '../../../../adapters/tracing/tracing.js';
import { InvalidSourceError } from '../../../../adapters/providers/provider-errors.js';
import { OfflineWhisperProvider } from '../../../../adapters/providers/transcription/offline-whisper.provider.js';
import { spokenClip, type SpokenClip } from '../../../../support/speech-corpus.js';
import { TEST_SPEECH_ENGINE } from '../../../helpers/speech-engine.js';

/*
 * The offline speech engine is a long-lived Python child process (engines/transcription), so it cannot take the
 * trace from its environment per run as ffmpeg or Tesseract do (adapters/infra/tool-process.ts): each request to it is
 * an `engine speech` span of the caller's trace (the activity's), from the wait for a worker to its answer.
 */
const exporter = new InMemorySpanExporter();
let dir: string;
let provider: OfflineWhisperProvider;
let clip: SpokenClip;

beforeAll(async () => {
  startTracing({ serviceName: 'paycore-test', env: {}, spanProcessor: new SimpleSpanProcessor(exporter) });
  dir = await mkdtemp(join(tmpdir(), 'paycore-stt-trace-'));
  clip = await spokenClip(dir, 'traced', ['The invoice was paid on Monday.'], 'en-us', 165);
  provider = new OfflineWhisperProvider({ ...TEST_SPEECH_ENGINE, timeoutMs: 240_000 });
}, 120_000);

afterAll(async () => {
  await provider?.close();
  await activeTracing()?.shutdown();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const childrenOf = (parent: ReadableSpan) =>
  exporter
    .getFinishedSpans()
    .filter((s) => s.parentSpanId === parent.spanContext().spanId && s.name === 'engine speech');
const span = (name: string) => exporter.getFinishedSpans().find((s) => s.name === name)!;

describe('offline speech engine traces', () => {
  it('a transcription and a speaker embedding are each an `engine speech` span under the caller’s span', async () => {
    await inSpan('caller', {}, async () => {
      const t = await provider.transcribe({ path: clip.path });
      expect(t.words.length).toBeGreaterThan(2);
      const regions = await provider.embedSpeakers({ path: clip.path });
      expect(regions.regions.length).toBeGreaterThan(0);
    });
    const engine = childrenOf(span('caller'));
    expect(engine.map((s) => s.attributes)).toEqual([
      { 'engine.name': 'speech', 'engine.request': 'transcribe' },
      { 'engine.name': 'speech', 'engine.request': 'speakers' },
    ]);
    expect(engine.every((s) => s.status.code !== SpanStatusCode.ERROR)).toBe(true);
  }, 300_000);

  it('a request the engine refuses ends its span with an error status', async () => {
    const text = join(dir, 'notes.txt');
    await writeFile(text, 'not audio at all\n');
    await inSpan('refused caller', {}, async () => {
      await expect(provider.transcribe({ path: text })).rejects.toBeInstanceOf(InvalidSourceError);
    });
    const [engine] = childrenOf(span('refused caller'));
    expect(engine?.status.code).toBe(SpanStatusCode.ERROR);
  }, 300_000);
});
