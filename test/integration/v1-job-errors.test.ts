import { writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { terminalEventId } from '../../db/repositories/v1-events.repo.js';
import { createEndpoint } from '../../db/repositories/webhooks.repo.js';
import { ProcessingHarness, type JobJson, type TestCompany } from '../helpers/processing.js';
import { startReceiver } from '../helpers/receiver.js';
import { samplePdf } from '../../support/sample-files.js';
import { testAudio } from '../helpers/av-media.js';

/**
 * What a client reads of a failed job (issue 28 item D20): `error` and `error_code` on the job and in its `job.failed`
 * event are this service's stable words, never an engine's own text ("vipspng: libpng read error", ffmpeg's "Decoder
 * (codec none) not found…", pdf-lib's "Failed to parse PDF document…"), which may name internals or server paths. The
 * engine's text goes to the log, with the job's id, for an operator. One case per operation family whose engine can
 * fail on a source that was measured at upload: image (sharp), PDF (pdf-lib), audio/video (ffmpeg), OCR and
 * extraction (poppler, Tesseract).
 */
const h = new ProcessingHarness();
let acme: TestCompany;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let webhookId: string;

beforeAll(async () => {
  await h.start();
  acme = await h.company('Errors');
  receiver = await startReceiver(() => 204);
  const endpoint = await createEndpoint(h.tdb.db, {
    interface: 'v1',
    tenantId: acme.id,
    url: receiver.url,
    events: [],
    secretSealed: h.secretBox.seal('whsec_errors_test'),
  });
  webhookId = endpoint.id;
});
afterAll(async () => {
  await h.stop();
  await receiver?.close();
});

/** A PNG whose header measures (64×64) but whose image data stops half-way: sharp fails to decode it. */
async function truncatedPng(): Promise<Buffer> {
  const raw = Buffer.alloc(64 * 64 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919) % 251;
  const png = await sharp(raw, { raw: { width: 64, height: 64, channels: 3 } })
    .png()
    .toBuffer();
  return png.subarray(0, Math.floor(png.length / 2));
}

/** A WAV that measures (2 s of audio) but whose format tag names no codec: ffmpeg finds no decoder for it. */
function wavWithoutDecoder(): Buffer {
  const wav = Buffer.from(testAudio(2, 'wav'));
  wav.writeUInt16LE(0x1234, 20);
  return wav;
}

/** Runs the job with the company's webhook and returns it once failed, with the `job` of its recorded `job.failed` event. */
async function failed(
  body: Record<string, unknown>,
): Promise<{ job: JobJson; event: { error: string; error_code: string } }> {
  const job = await h.waitForJob(acme.key, (await h.submitOk(acme.key, { ...body, webhook_id: webhookId })).id);
  expect(job.status, JSON.stringify(job)).toBe('failed');
  const [delivery] = await h.tdb.db('webhook_deliveries').where({ event_id: terminalEventId({ jobId: job.id }) });
  const event = JSON.parse(Buffer.from(delivery.body).toString()) as {
    type: string;
    job: { error: string; error_code: string };
  };
  expect(event.type).toBe('job.failed');
  return { job, event: event.job };
}

/** Words of the engines (and the server's storage path) that must not reach a client. */
const ENGINE_WORDS =
  /vips|libpng|Decoder|codec none|stream #|Failed to parse|PDF header|line:\d|offset|pdftoppm|pdftotext|tesseract|ffmpeg|ffprobe|file:|\//i;

describe('a failed job tells the client a stable message and code; the engine text goes to the log', () => {
  it('image (sharp): a PNG that stops half-way', async () => {
    const id = await h.upload(acme.key, 'photo.png', await truncatedPng());
    const { job, event } = await failed({ operation: 'image-compress', upload_ids: [id], options: { format: 'png' } });
    expect(job).toMatchObject({
      error_code: 'invalid_source',
      error: 'the image could not be processed: it is damaged or in a form this operation does not support',
    });
    expect(event).toMatchObject({ error: job.error, error_code: 'invalid_source' });
    expect(job.error).not.toMatch(ENGINE_WORDS);
    expect(h.logs.lines.some((l) => l.includes(job.id) && l.includes('libpng read error'))).toBe(true);
  });

  it('audio and video (ffmpeg): a WAV whose codec has no decoder', async () => {
    const id = await h.upload(acme.key, 'tone.wav', wavWithoutDecoder());
    const { job, event } = await failed({ operation: 'audio-compress', upload_ids: [id] });
    expect(job).toMatchObject({
      error_code: 'invalid_source',
      error: 'the media could not be processed: a stream is damaged or in a codec this service cannot decode',
    });
    expect(event).toMatchObject({ error: job.error, error_code: 'invalid_source' });
    expect(job.error).not.toMatch(ENGINE_WORDS);
    expect(h.logs.lines.some((l) => l.includes(job.id) && l.includes('Decoder (codec none) not found'))).toBe(true);
  });

  it('PDF (pdf-lib), OCR and extraction: a stored PDF that no longer parses', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { operation: 'pdf-rotate', options: { angle: 90 } },
        'the PDF could not be processed: it is damaged or in a form this operation does not support',
      ],
      [{ operation: 'ocr-text' }, 'the PDF could not be read'],
      [{ operation: 'flow-extract', fields: ['total'] }, 'the PDF could not be read'],
    ];
    for (const [body, message] of cases) {
      const id = await h.upload(acme.key, 'letter.pdf', await samplePdf(1));
      // The bytes change after measuring (as a PDF only its engine cannot read would be): `%PDF-` and nothing after it.
      writeFileSync(h.store.pathOf(id), '%PDF-1.7\n%%EOF\n');
      const { job, event } = await failed({ ...body, upload_ids: [id] });
      expect(job, String(body['operation'])).toMatchObject({ error_code: 'invalid_source', error: message });
      expect(event).toMatchObject({ error: job.error, error_code: 'invalid_source' });
      expect(job.error).not.toMatch(ENGINE_WORDS);
    }
  });
});
