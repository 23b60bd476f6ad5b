import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { createExtractionRunner } from '../../../../adapters/extraction/extraction-runner.js';
import type { ExtractionProvider } from '../../../../adapters/extraction/extraction-provider.js';
import { OfflineExtractionEngine } from '../../../../adapters/extraction/offline-engine.js';
import { createOcrEngine } from '../../../../adapters/media/ocr/ocr-engine.js';
import { ProviderUnavailableError } from '../../../../adapters/providers/provider-errors.js';
import { ExtractionJson } from '../../../../adapters/documents/extraction-exports.js';
import type { RunnerProgress } from '../../../../adapters/media/runner-contract.js';

/**
 * The flow-extract runner on its own: documents in input order, each saved whole in the checkpoint folder as it is
 * finished, so a run that fails (a worker that dies, a provider outage) resumes at the next document; and a value the
 * engine gives with evidence that is not in the source is kept, flagged, and makes the document need review.
 */
let dir: string;
const docs: Array<{ path: string; filename: string; uploadId: string }> = [];
const real = new OfflineExtractionEngine();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'extraction-runner-'));
  const texts = [
    'Invoice No: A-100\nTotal: 10.00 EUR\n',
    'Invoice No: B-200\nTotal: 20.00 EUR\n',
    'Invoice No: C-300\nTotal: 30.00 EUR\n',
  ];
  for (const [i, text] of texts.entries()) {
    const path = join(dir, `doc-${i}.txt`);
    await writeFile(path, text);
    docs.push({ path, filename: `doc-${i}.txt`, uploadId: `upl_${String(i).padStart(20, 'D')}` });
  }
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const workDirOf = async () => mkdtemp(join(dir, 'work-'));

describe('flow-extract runner', () => {
  it('saves each finished document; after a failure on the second, the next run reads only the second and third', async () => {
    const checkpointDir = await mkdtemp(join(dir, 'ckpt-'));
    const asked: string[] = [];
    let fail = true;
    const provider: ExtractionProvider = {
      name: 'counting',
      extract(request) {
        const first = request.document.pages[0]!.text.split('\n')[0]!;
        asked.push(first);
        if (fail && first.includes('B-200'))
          return Promise.reject(new ProviderUnavailableError('the engine is temporarily unavailable'));
        return real.extract(request);
      },
    };
    const runner = createExtractionRunner(createOcrEngine(), { provider });
    const progress: RunnerProgress[] = [];
    const input = {
      sources: docs,
      options: { fields: ['invoice_number', 'total'] },
      checkpointDir,
      progress: (p: RunnerProgress) => progress.push(p),
    };
    await expect(runner({ ...input, workDir: await workDirOf() })).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(await readdir(checkpointDir)).toEqual(['document-0.json']);
    fail = false;
    const outputs = await runner({ ...input, workDir: await workDirOf() });
    expect(asked).toEqual(['Invoice No: A-100', 'Invoice No: B-200', 'Invoice No: B-200', 'Invoice No: C-300']);
    expect(progress.map((p) => p.detail)).toEqual(['1 of 3 documents', '2 of 3 documents', '3 of 3 documents']);
    expect(outputs.map((o) => o.format)).toEqual(['xlsx', 'zip', 'json']);
    const json = ExtractionJson.parse(
      JSON.parse(Buffer.from((outputs[2] as { data: Uint8Array }).data).toString('utf8')),
    );
    expect(json.documents.map((d) => [d.document, d.upload_id, d.fields])).toEqual([
      ['doc-0.txt', docs[0]!.uploadId, { invoice_number: 'A-100', total: '10.00' }],
      ['doc-1.txt', docs[1]!.uploadId, { invoice_number: 'B-200', total: '20.00' }],
      ['doc-2.txt', docs[2]!.uploadId, { invoice_number: 'C-300', total: '30.00' }],
    ]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((outputs[0] as { data: Uint8Array }).data as unknown as ArrayBuffer);
    expect(book.getWorksheet('Documents')!.getRow(4).getCell(1).value).toBe('doc-2.txt');
  });

  it('keeps a value whose evidence is not in the source, flags it, and the document needs review', async () => {
    const lying: ExtractionProvider = {
      name: 'lying',
      async extract(request) {
        const result = await real.extract(request);
        const total = result.fields['total']!;
        return {
          ...result,
          fields: {
            ...result.fields,
            total: { ...total, value: '99.00', evidence: { ...total.evidence!, snippet: 'Total: 99.00 EUR' } },
          },
        };
      },
    };
    const runner = createExtractionRunner(createOcrEngine(), { provider: lying });
    const outputs = await runner({
      sources: [docs[0]!],
      options: { fields: ['invoice_number', 'total'] },
      workDir: await workDirOf(),
    });
    const json = ExtractionJson.parse(
      JSON.parse(Buffer.from((outputs[2] as { data: Uint8Array }).data).toString('utf8')),
    );
    const doc = json.documents[0]!;
    expect(doc.fields['total']).toBe('99.00');
    expect(doc.review_required).toBe(true);
    expect(doc.review_reasons.join(' ')).toContain('total');
    expect(doc.evidence.fields['total']).toMatchObject({ flagged: true });
    expect(doc.evidence.fields['invoice_number']).toMatchObject({ flagged: false });
  });
});
