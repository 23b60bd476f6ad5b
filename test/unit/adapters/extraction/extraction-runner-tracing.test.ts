import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { activeTracing, inSpan, startTracing } from '../../../../adapters/tracing/tracing.js';
import { createExtractionRunner } from '../../../../adapters/extraction/extraction-runner.js';
import { OfflineExtractionEngine } from '../../../../adapters/extraction/offline-engine.js';
import { createOcrEngine } from '../../../../adapters/media/ocr/ocr-engine.js';

/*
 * flow-extract's own steps in the trace of the job's activity: per document, reading its text (`extraction read`, with
 * the OCR child processes under it when the pages are images), the extraction engine (`engine extraction`, in process or
 * the language-model provider's HTTP call under it) and the document's checks (`extraction check`).
 */
const exporter = new InMemorySpanExporter();
let dir: string;

beforeAll(async () => {
  startTracing({ serviceName: 'paycore-test', env: {}, spanProcessor: new SimpleSpanProcessor(exporter) });
  dir = await mkdtemp(join(tmpdir(), 'extraction-trace-'));
});
afterAll(async () => {
  await activeTracing()?.shutdown();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('flow-extract traces', () => {
  it('each document is read, extracted and checked in spans under the caller', async () => {
    const sources: Array<{ path: string; filename: string }> = [];
    for (const [i, text] of [
      'Invoice No: A-100\nTotal: 10.00 EUR\n',
      'Invoice No: B-200\nTotal: 20.00 EUR\n',
    ].entries()) {
      const path = join(dir, `doc-${i}.txt`);
      await writeFile(path, text);
      sources.push({ path, filename: `doc-${i}.txt` });
    }
    const runner = createExtractionRunner(createOcrEngine(), { provider: new OfflineExtractionEngine() });
    const workDir = await mkdtemp(join(dir, 'work-'));
    await inSpan('activity', {}, () => runner({ sources, options: { fields: ['invoice_number', 'total'] }, workDir }));

    const spans = exporter.getFinishedSpans();
    const parent = spans.find((s) => s.name === 'activity')!;
    const under = (p: ReadableSpan) => spans.filter((s) => s.parentSpanId === p.spanContext().spanId);
    expect(under(parent).map((s) => [s.name, s.attributes])).toEqual([
      ['extraction read', { 'extraction.document': 0 }],
      [
        'engine extraction',
        { 'engine.name': 'extraction', 'extraction.provider': 'offline', 'extraction.document': 0 },
      ],
      ['extraction check', { 'extraction.document': 0 }],
      ['extraction read', { 'extraction.document': 1 }],
      [
        'engine extraction',
        { 'engine.name': 'extraction', 'extraction.provider': 'offline', 'extraction.document': 1 },
      ],
      ['extraction check', { 'extraction.document': 1 }],
    ]);
  });
});
