import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crashTestHarness, killHeld, spawnWorkerProcess, until } from '../helpers/worker-process.js';
import { corpusPage, scannedPdf, wordAccuracy } from '../../support/ocr-corpus.js';

/**
 * A worker (workers/main.ts, a real OS process) is SIGKILLed in the middle of a 4-page OCR job, after pages 1 and 2
 * are done and saved; a second worker finishes the job from the checkpoint: it reads pages 3 and 4 only. One charge,
 * one complete result.
 *
 * "In the middle" is made certain rather than timed: the first worker's Tesseract (a wrapper that logs each page it is
 * given and then runs the real one) holds on page 3; the test kills the worker once the server has that attempt's
 * checkpoint of pages 1 and 2 (its heartbeat details).
 */
const dir = mkdtempSync(join(tmpdir(), 'ocr-crash-'));
const held: number[] = [];
const { h, workers } = crashTestHarness(() => {
  killHeld(held);
  rmSync(dir, { recursive: true, force: true });
});

function wrapper(name: string, holdOn?: string): string {
  const path = join(dir, `tesseract-${name}.sh`);
  const hold = holdOn
    ? `if [ "$(basename "$1")" = "${holdOn}" ]; then echo "held $$" >> "${dir}/${name}.log"; exec sleep 600; fi\n`
    : '';
  writeFileSync(path, `#!/bin/sh\necho "start $(basename "$1")" >> "${dir}/${name}.log"\n${hold}exec tesseract "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}
/** The pages the wrapper was given (the worker's start-up language check, `tesseract --list-langs`, left out). */
const logOf = (name: string) =>
  existsSync(join(dir, `${name}.log`))
    ? readFileSync(join(dir, `${name}.log`), 'utf8')
        .trim()
        .split('\n')
        .filter((l) => /page-\d+\.png$|^held /.test(l))
    : [];

describe('a worker dies in the middle of an OCR document', () => {
  it('another worker resumes at the next page: finished pages are not read again, one charge, one result', async () => {
    const env = {
      DATABASE_URL: h.tdb.url,
      TEMPORAL_TASK_QUEUE: h.taskQueue,
      SECRETS_KEY: h.secretsKey,
      STORAGE_DIR: h.storageDir,
      OCR_CONCURRENCY: '1',
    };
    const acme = await h.company('OcrCrash');
    const pages = [
      await corpusPage('serif-10pt'),
      await corpusPage('sans-11pt'),
      await corpusPage('two-column'),
      await corpusPage('invoice'),
    ];
    const upload = await h.upload(acme.key, 'four.pdf', Buffer.from(await scannedPdf(pages)));
    const before = await h.wallet(acme.id);

    workers.push(await spawnWorkerProcess({ ...env, TESSERACT_PATH: wrapper('first', 'page-3.png') }));
    const job = await h.submitOk(acme.key, { operation: 'ocr-text', upload_ids: [upload] });
    const handle = h.gateway.client.workflow.getHandle(`job:${job.id}`);
    held.push(
      Number(
        await until('page 3 to be held', () =>
          logOf('first')
            .find((l) => l.startsWith('held '))
            ?.slice(5),
        ),
      ),
    );
    // The server has the checkpoint of pages 1 and 2 (the heartbeat of the running attempt).
    const checkpoint = await until('the checkpoint of pages 1 and 2', async () => {
      const pending = (await handle.describe()).raw.pendingActivities ?? [];
      for (const a of pending) {
        const payload = a.heartbeatDetails?.payloads?.[0];
        // A heartbeat without details (the first, before any page is done) is an empty binary/null payload, not JSON.
        const encoding = Buffer.from(payload?.metadata?.['encoding'] ?? new Uint8Array()).toString('utf8');
        if (!payload?.data || encoding !== 'json/plain') continue;
        const details = JSON.parse(Buffer.from(payload.data).toString('utf8')) as { checkpoint?: { pages?: number[] } };
        if (details.checkpoint?.pages?.length === 2) return details;
      }
      return undefined;
    });
    expect(checkpoint).toMatchObject({ fraction: 0.5, checkpoint: { ocr: 'ocr-text', pages: [1, 2] } });
    expect(await workers[0]!.kill('SIGKILL')).toBeNull();
    expect(logOf('first')).toEqual(['start page-1.png', 'start page-2.png', 'start page-3.png', `held ${held[0]}`]);

    workers.push(await spawnWorkerProcess({ ...env, TESSERACT_PATH: wrapper('second') }));
    const done = await h.waitForJob(acme.key, job.id, 240_000);
    expect(done).toMatchObject({ status: 'completed', charged_credits: 12 });
    // The second worker read pages 3 and 4 only, and said it resumed.
    expect(logOf('second')).toEqual(['start page-3.png', 'start page-4.png']);
    expect(workers[1]!.output()).toMatch(/"reused":\[1,2\].*OCR resumed from its checkpoint/);

    const text = await (await h.download(acme.key, done.result!.files[0]!.download_path)).text();
    const texts = text.split('\f');
    expect(texts).toHaveLength(4);
    for (const [i, p] of pages.entries())
      expect(wordAccuracy(p.truth, texts[i]!).recall, p.name).toBeGreaterThanOrEqual(0.95);

    const ledger = await h.tdb
      .db('credit_ledger')
      .join('credit_reservations', 'credit_reservations.id', 'credit_ledger.reservation_id')
      .where({ job_id: job.id })
      .orderBy('credit_ledger.id')
      .select('kind', 'credit_ledger.amount');
    expect(ledger.map((r) => [r.kind, Number(r.amount)])).toEqual([
      ['reserve', 12],
      ['charge', 12],
    ]);
    expect(await h.wallet(acme.id)).toEqual({ available: before.available - 12, reserved: before.reserved });
    // The checkpoint folder went with the job.
    expect(readdirSync(join(h.storageDir, 'tmp')).filter((n) => !n.startsWith('.'))).toEqual([]);
  });
});
