import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../domain/errors.js';
import { quoteCredits, type OperationId, type SourceMeasure } from '../../domain/pricing.js';
import { ALL_OPERATIONS, parseJobRequest } from '../../domain/validation/processing-request.js';
import { requestSchemaName } from '../../api/shared/processing/openapi.schemas.js';
import { LIMITS } from '../../domain/accounts.js';
import { issueCompanyKey } from '../../services/company/memberships.js';
import { testConfig } from '../helpers/app.js';
import { Conformance, obj, type Obj } from '../helpers/openapi-conformance.js';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';
import { sampleMedia, samplePdf, samplePng } from '../../support/sample-files.js';

/**
 * GET /v1/capabilities cannot drift from what the server does: every operation the validator knows is listed, as
 * available exactly when the validator runs it; its options schema accepts what the validator accepts; its source
 * kinds are those the quote takes; its price rule gives the quote's answer, on sample measures and on real uploads
 * through POST /v1/estimate.
 */

interface Price {
  class: string;
  credits_per_unit: number;
  units: Array<{ measure: 'bytes' | 'pages' | 'duration_seconds'; per: number }>;
  minimum_units: number;
  description: string;
}
interface Capability {
  id: string;
  available: boolean;
  summary: string;
  source_kinds: string[];
  sources: { min: number; max: number } | null;
  options: Obj | null;
  options_required: boolean;
  output_formats: string[] | null;
  price: Price;
}
interface Capabilities {
  operations: Capability[];
  limits: Record<string, number>;
  ocr: { languages: string[]; default_language: string; max_languages_per_request: number };
}

const h = new ProcessingHarness();
let acme: TestCompany;
let caps: Capabilities;
let c: Conformance;

/** The quote of one source under an advertised price rule. */
const byRule = (p: Price, m: SourceMeasure) =>
  p.credits_per_unit *
  Math.max(
    p.minimum_units,
    ...p.units.map((u) =>
      Math.ceil((u.measure === 'duration_seconds' ? (m.durationSeconds ?? 0) : m[u.measure]) / u.per),
    ),
  );

const samplePdfId = 'upl_AAAAAAAAAAAAAAAAAAAA';
const ids = (n: number) => Array.from({ length: n }, (_, i) => `upl_${String(i).padStart(20, 'B')}`);

/** Whether the validator refuses the body because of its operation (unknown or not available), or for its options. */
function validatorSays(body: unknown): { operation: boolean; options: boolean } {
  try {
    parseJobRequest(body);
    return { operation: true, options: true };
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    const paths = ((e.details['issues'] as Array<{ path: string }> | undefined) ?? []).map((i) => i.path);
    return {
      operation: !paths.includes('operation'),
      options: !paths.some((p) => p === 'options' || p.startsWith('options.')),
    };
  }
}

/** Minimal valid options of each available operation, and what each source kind is (a sample upload). */
const VALID_OPTIONS: Record<string, Obj> = {
  'pdf-extract': { pages: '1' },
  'pdf-delete': { pages: '1' },
  'pdf-rotate': { angle: 90 },
  'pdf-protect': { password: 'pw' },
  'pdf-unlock': { password: 'pw' },
  'pdf-watermark': { text: 'DRAFT' },
  'pdf-number': {},
  'pdf-merge': {},
  'image-edit': { angle: 90 },
  'image-compress': {},
  webp: {},
  'ocr-text': {},
  'ocr-docx': { language: 'eng' },
  'ocr-pdf': {},
  'audio-trim': { end: 0.5 },
  'video-trim': { start: 0.25, end: 0.5 },
  'video-rotate': { angle: 270 },
  'video-resize': { height: 240 },
  'audio-compress': {},
  'video-compress': { level: 'balanced' },
  transcribe: { output_format: 'SRT' },
  meeting: {},
  'flow-extract': {},
};
/** Body fields an operation needs beside its options (flow-extract: the fields to extract). */
const EXTRA_BODY: Record<string, Obj> = { 'flow-extract': { fields: ['total'] } };
/** Option objects tried against every available operation's schema and the validator. */
const OPTION_SAMPLES: Obj[] = [
  {},
  { pages: '1-2' },
  { pages: '' },
  { pages: 'x' },
  { angle: 90 },
  { angle: 45 },
  { angle: 180, pages: '2' },
  { password: 'secret' },
  { password: '' },
  { text: 'DRAFT' },
  { text: '' },
  { text: 'a\nb' },
  { start: 3 },
  { start: -1 },
  { width: 10, height: 10 },
  { width: 10 },
  { flip: 'both' },
  { format: 'png' },
  { format: 'gif' },
  { level: 'strong' },
  { level: 'max' },
  { crop: [0, 0, 5, 5] },
  { crop: [0, 0, 5] },
  { colour: 'red' },
  { language: 'eng' },
  { language: 'eng+deu' },
  { language: 'chi_sim' },
  { language: 'English' },
  { language: 'eng+' },
  { language: 'eng+deu+fra+ita' },
  { language: 7 },
  { end: 1 },
  { start: 0.5, end: 1.25 },
  { end: 0.05 },
  { start: -0.5, end: 2 },
  { end: 7201 },
  { end: '2' },
  { height: 480 },
  { height: 500 },
  { height: 2160 },
  { level: 'balanced' },
  { output_format: 'json' },
  { output_format: 'VTT' },
  { output_format: 'Vtt' },
  { output_format: 'pdf' },
  { language: 'en' },
  { language: 'EN' },
  { output_format: 'txt', language: 'de' },
];

const upload: Record<string, string> = {};

beforeAll(async () => {
  await h.start({ startWorkers: false });
  acme = await h.company('CapsCo');
  const res = await fetch(`${h.app.url}/v1/capabilities`, { headers: h.auth(acme.readKey) });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  caps = (await res.json()) as Capabilities;
  c = new Conformance((await (await fetch(`${h.app.url}/v1/openapi.json`)).json()) as Obj);
  upload['pdf'] = await h.upload(acme.key, 'twelve.pdf', await samplePdf(12));
  upload['pdf2'] = await h.upload(acme.key, 'three.pdf', await samplePdf(3));
  upload['image'] = await h.upload(acme.key, 'pic.png', await samplePng(64, 48));
  upload['text'] = await h.upload(acme.key, 'notes.txt', Buffer.from('x'.repeat(9_000)));
  upload['image2'] = await h.upload(acme.key, 'pic2.png', await samplePng(32, 32));
  upload['text2'] = await h.upload(acme.key, 'more.txt', Buffer.from('more notes'));
  upload['audio'] = await h.upload(acme.key, 'tone.wav', sampleMedia('wav'));
  upload['video'] = await h.upload(acme.key, 'clip.mp4', sampleMedia('mp4'));
  upload['audio2'] = await h.upload(acme.key, 'tone2.flac', sampleMedia('flac'));
  upload['video2'] = await h.upload(acme.key, 'clip2.webm', sampleMedia('webm'));
});
afterAll(() => h.stop());

describe('GET /v1/capabilities', () => {
  it('lists every operation the validator knows, available exactly when the validator runs it', () => {
    expect(caps.operations.map((o) => o.id)).toEqual([...ALL_OPERATIONS]);
    for (const op of caps.operations) {
      const min = op.sources?.min ?? 1;
      expect(
        validatorSays({
          operation: op.id,
          upload_ids: ids(min),
          options: VALID_OPTIONS[op.id] ?? {},
          ...EXTRA_BODY[op.id],
        }).operation,
        op.id,
      ).toBe(op.available);
    }
    // Anything not listed is refused as an operation.
    expect(validatorSays({ operation: 'pdf-shred', upload_ids: [samplePdfId] }).operation).toBe(false);
    const unavailable = caps.operations.filter((o) => !o.available).map((o) => o.id);
    expect(unavailable).toEqual([]);
    for (const id of [
      'ocr-text',
      'ocr-docx',
      'ocr-pdf',
      'transcribe',
      'meeting',
      'flow-extract',
      'audio-trim',
      'video-trim',
      'video-rotate',
      'video-resize',
      'audio-compress',
      'video-compress',
    ])
      expect(unavailable).not.toContain(id);
    for (const op of caps.operations.filter((o) => !o.available)) {
      expect(op).toMatchObject({
        summary: expect.stringContaining('Not available yet'),
        sources: null,
        options: null,
        output_formats: null,
      });
      expect(op.source_kinds.length).toBeGreaterThan(0);
    }
    for (const op of caps.operations.filter((o) => o.available))
      expect(VALID_OPTIONS, `a sample of ${op.id} in this test`).toHaveProperty([op.id]);
  });

  it('states options, source counts and output formats as the request schema the validator is held to does', () => {
    for (const op of caps.operations.filter((o) => o.available)) {
      const variant = c.deref(obj(obj(c.doc['components'])['schemas'])[requestSchemaName(op.id as never)]);
      const props = obj(variant['properties']);
      expect(op.options, op.id).toEqual(props['options']);
      expect(op.options_required, op.id).toBe((variant['required'] as string[]).includes('options'));
      expect(op.sources, op.id).toEqual({
        min: obj(props['upload_ids'])['minItems'],
        max: obj(props['upload_ids'])['maxItems'],
      });
      expect(op.output_formats?.length, op.id).toBeGreaterThan(0);
      // Its options schema says yes exactly when the validator does.
      const validate = c.validator(op.options);
      for (const options of OPTION_SAMPLES) {
        const body = { operation: op.id, upload_ids: ids(op.sources!.min), options, ...EXTRA_BODY[op.id] };
        expect(validate(options), `${op.id} ${JSON.stringify(options)}`).toBe(validatorSays(body).options);
      }
      // The source counts: one fewer and one more than allowed are refused naming upload_ids.
      for (const n of [op.sources!.min - 1, op.sources!.max + 1].filter((x) => x > 0)) {
        expect(
          () =>
            parseJobRequest({
              operation: op.id,
              upload_ids: ids(n),
              options: VALID_OPTIONS[op.id],
              ...EXTRA_BODY[op.id],
            }),
          `${op.id} with ${n}`,
        ).toThrow();
      }
    }
  });

  it('states source kinds the quote accepts: each kind is accepted or refused by POST /v1/estimate as listed', async () => {
    let key = acme.key;
    for (const [i, op] of caps.operations.filter((o) => o.available).entries()) {
      // A key per four operations: together these estimates pass the 120 requests a minute one key may make.
      if (i % 4 === 0)
        key = (
          await issueCompanyKey(
            h.tdb.db,
            { companyId: acme.id, memberId: acme.ownerId, name: `estimates ${i}`, scopes: ['read', 'write'] },
            new Date(),
          )
        ).secret;
      for (const kind of ['pdf', 'image', 'text', 'audio', 'video']) {
        const sources = op.sources!.min === 1 ? [upload[kind]!] : [upload[kind]!, upload[`${kind}2`]!];
        const res = await fetch(`${h.app.url}/v1/estimate`, {
          method: 'POST',
          headers: { ...h.auth(key), 'content-type': 'application/json' },
          body: JSON.stringify({
            operation: op.id,
            upload_ids: sources,
            options: VALID_OPTIONS[op.id],
            ...EXTRA_BODY[op.id],
          }),
        });
        const body = (await res.json()) as { issues?: Array<{ message: string }> };
        const refusedForKind = res.status === 422 && (body.issues ?? []).some((i) => i.message.includes(' needs '));
        expect(refusedForKind, `${op.id} on ${kind}: ${JSON.stringify(body)}`).toBe(!op.source_kinds.includes(kind));
      }
    }
  });

  it('states each price rule as the quote computes it: on sample measures for every operation, and on real uploads', async () => {
    const measures: SourceMeasure[] = [
      { bytes: 1, pages: 0, durationSeconds: null },
      { bytes: 25_000_000, pages: 10, durationSeconds: null },
      { bytes: 25_000_001, pages: 3, durationSeconds: null },
      { bytes: 1000, pages: 11, durationSeconds: null },
      { bytes: 80_000_000, pages: 100, durationSeconds: null },
      { bytes: 5000, pages: 0, durationSeconds: 59.5 },
      { bytes: 5000, pages: 0, durationSeconds: 60 },
      { bytes: 5000, pages: 0, durationSeconds: 61 },
      { bytes: 9_000_000, pages: 0, durationSeconds: 36_000 },
    ];
    for (const op of caps.operations) {
      for (const m of measures)
        expect(byRule(op.price, m), `${op.id} ${JSON.stringify(m)}`).toBe(quoteCredits(op.id as OperationId, [m]));
      expect(op.price.description).toMatch(new RegExp(`^${op.price.credits_per_unit} credits per started`));
    }
    expect(caps.operations.find((o) => o.id === 'pdf-rotate')!.price).toMatchObject({
      class: 'file',
      credits_per_unit: 2,
      units: [
        { measure: 'bytes', per: 25_000_000 },
        { measure: 'pages', per: 10 },
      ],
    });
    expect(caps.operations.find((o) => o.id === 'transcribe')!.price).toMatchObject({
      class: 'transcribe',
      credits_per_unit: 8,
      units: [{ measure: 'duration_seconds', per: 60 }],
    });

    // Real uploads: the estimate equals the rule applied to what GET /v1/uploads/{id} says was measured.
    for (const [op, sources] of [
      ['pdf-rotate', [upload['pdf']!]],
      ['pdf-merge', [upload['pdf']!, upload['pdf2']!]],
      ['webp', [upload['image']!]],
    ] as const) {
      const cap = caps.operations.find((o) => o.id === op)!;
      const res = await fetch(`${h.app.url}/v1/estimate`, {
        method: 'POST',
        headers: { ...h.auth(acme.key), 'content-type': 'application/json' },
        body: JSON.stringify({ operation: op, upload_ids: sources, options: VALID_OPTIONS[op] }),
      });
      expect(res.status).toBe(200);
      const estimate = (await res.json()) as { estimated_credits: number };
      let expected = 0;
      for (const id of sources) {
        const u = (await (await fetch(`${h.app.url}/v1/uploads/${id}`, { headers: h.auth(acme.key) })).json()) as {
          bytes: number;
          pages: number;
          duration_seconds: number | null;
        };
        expected += byRule(cap.price, { bytes: u.bytes, pages: u.pages, durationSeconds: u.duration_seconds });
      }
      expect(estimate.estimated_credits, op).toBe(expected);
    }
  });

  it('states the limits the server enforces', () => {
    const config = testConfig();
    expect(caps.limits).toEqual({
      upload_files_per_request: config.storage.maxFilesPerUpload,
      upload_bytes_per_request: config.storage.maxUploadBytes,
      company_source_bytes: config.storage.companyQuotaBytes,
      pdf_pages: 100,
      media_seconds: 36_000,
      text_bytes: 20_000_000,
      image_pixels: 16383 * 16383,
      video_pixel_frames: config.media.videoMaxPixelFrames,
      pending_jobs_per_company: 100,
      processing_jobs_per_company: 1,
      processing_jobs_platform: 3,
      retention_days: LIMITS.retentionDays,
      requests_per_minute_per_key: config.rateLimits.v1PerKeyPerMinute,
    });
  });

  it('lists the OCR languages installed here, the default first, each accepted by the quote of every OCR operation', async () => {
    expect(caps.ocr).toEqual({
      languages: ['eng', 'deu', 'fra', 'spa', 'ita', 'por', 'nld'],
      default_language: 'eng',
      max_languages_per_request: 3,
    });
    const installed = execFileSync('tesseract', ['--list-langs'])
      .toString('utf8')
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
    expect(caps.ocr.languages.filter((l) => !installed.includes(l))).toEqual([]);
    for (const operation of ['ocr-text', 'ocr-docx', 'ocr-pdf']) {
      for (const language of [
        ...caps.ocr.languages,
        caps.ocr.languages.slice(0, caps.ocr.max_languages_per_request).join('+'),
      ]) {
        const res = await fetch(`${h.app.url}/v1/estimate`, {
          method: 'POST',
          headers: { ...h.auth(acme.key), 'content-type': 'application/json' },
          body: JSON.stringify({ operation, upload_ids: [upload['image']], options: { language } }),
        });
        expect(res.status, `${operation} ${language}`).toBe(200);
      }
    }
  });

  it('needs a key like every /v1 route (read scope is enough)', async () => {
    expect((await fetch(`${h.app.url}/v1/capabilities`)).status).toBe(401);
    expect((await fetch(`${h.app.url}/v1/capabilities`, { headers: h.auth(acme.key) })).status).toBe(200);
  });
});
