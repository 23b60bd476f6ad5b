import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InvalidSourceError, ProviderUnavailableError } from '../../../../adapters/providers/provider-errors.js';
import { createTranscriptionProvider } from '../../../../adapters/providers/transcription/create-transcription-provider.js';
import { OfflineWhisperProvider } from '../../../../adapters/providers/transcription/offline-whisper.provider.js';
import {
  OpenAiCompatibleTranscriptionProvider,
  TranscriptionAnswerError,
  type OpenAiCompatibleOptions,
} from '../../../../adapters/providers/transcription/openai-compatible.provider.js';
import { joinWords } from '../../../../domain/transcript-words.js';
import { parseVerboseTranscription } from '../../../../adapters/providers/transcription/openai-compatible.response.js';
import { TranscriptionProviderConfigError } from '../../../../adapters/providers/transcription/transcription-provider.js';
import { normalizeLanguage } from '../../../../adapters/providers/transcription/whisper-languages.js';
import { capturingLogger } from '../../../helpers/logs.js';
import { hang, json, standIn, thrownErrors } from '../../../helpers/openai-stand-in.js';
import { startBlackHole, startConnectionDropper } from '../../../helpers/tcp-fault.js';

const run = promisify(execFile);

/**
 * The OpenAI-compatible transcription client against a scripted HTTP stand-in on a free port, used only to inject
 * failures (429, 500, a hang, malformed and schema-violating answers, 400, 401) plus one happy path that checks the
 * mapping of a realistic verbose_json answer and the multipart request the client sent.
 */

const API_KEY = 'sk-test-9f3c1e7a2b4d6e8f0a1c3e5g7i9k';

/** A realistic OpenAI verbose_json answer (whisper-1 with word and segment timestamps). */
const VERBOSE_JSON = {
  task: 'transcribe',
  language: 'english',
  duration: 4.2,
  text: 'The quick brown fox. Jumps over.',
  segments: [
    {
      id: 0,
      seek: 0,
      start: 0.0,
      end: 2.1,
      text: ' The quick brown fox.',
      tokens: [50364, 440, 1702, 3699, 21283, 13],
      temperature: 0.0,
      avg_logprob: -0.2231435513,
      compression_ratio: 0.8,
      no_speech_prob: 0.01,
    },
    {
      id: 1,
      seek: 0,
      start: 2.4,
      end: 3.9,
      text: ' Jumps over.',
      tokens: [50484, 508, 8099, 670, 13],
      temperature: 0.0,
      avg_logprob: -0.5108256238,
      compression_ratio: 0.7,
      no_speech_prob: 0.02,
    },
  ],
  words: [
    { word: 'The', start: 0.0, end: 0.32 },
    { word: 'quick', start: 0.32, end: 0.7 },
    { word: 'brown', start: 0.7, end: 1.1 },
    { word: 'fox', start: 1.1, end: 2.1 },
    { word: 'Jumps', start: 2.4, end: 3.0 },
    { word: 'over', start: 3.0, end: 3.9 },
  ],
  usage: { type: 'duration', seconds: 5 },
};

describe('OpenAI-compatible transcription provider', () => {
  let dir: string;
  let audio: string;
  const log = capturingLogger();
  const thrown = thrownErrors();
  const failure = thrown.failure;
  let stub: Awaited<ReturnType<typeof standIn>> | null = null;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stt-api-test-'));
    audio = join(dir, 'tone.wav');
    await run('ffmpeg', [
      '-nostdin',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=2:sample_rate=44100',
      '-ac',
      '2',
      audio,
    ]);
  });

  afterEach(async () => {
    await stub?.close();
    stub = null;
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    // No thrown error and no logged line carried the key, however it failed.
    thrown.expectNoneHolds(API_KEY, 6);
    expect(log.lines.length).toBeGreaterThan(5);
    expect(log.text()).not.toContain(API_KEY.slice(0, 12));
  });

  function provider(baseUrl: string, extra: Partial<OpenAiCompatibleOptions> = {}) {
    return new OpenAiCompatibleTranscriptionProvider({
      baseUrl,
      apiKey: API_KEY,
      model: 'whisper-1',
      timeoutMs: 10_000,
      logger: log.logger,
      ...extra,
    });
  }

  it('uploads 16 kHz mono Opus as multipart with the documented fields and maps verbose_json onto the Transcript', async () => {
    stub = await standIn([json(200, VERBOSE_JSON)]);
    const t = await provider(stub.baseUrl).transcribe({ path: audio, language: 'en' });

    expect(stub.requests).toHaveLength(1);
    const req = stub.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/audio/transcriptions');
    expect(req.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Request('http://stand-in/', {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type']! },
      body: req.raw,
    }).formData();
    expect(form.get('model')).toBe('whisper-1');
    expect(form.get('response_format')).toBe('verbose_json');
    expect(form.getAll('timestamp_granularities[]')).toEqual(['word', 'segment']);
    expect(form.get('language')).toBe('en');
    const file = form.get('file') as File;
    expect(file.name).toBe('audio.ogg');
    expect(file.type).toBe('audio/ogg');
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('OggS');
    const uploaded = join(dir, 'uploaded.ogg');
    await writeFile(uploaded, bytes);
    const probe = JSON.parse(
      (await run('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', uploaded])).stdout,
    ) as {
      streams: { codec_name: string; channels: number }[];
      format: { duration: string };
    };
    expect(probe.streams).toHaveLength(1);
    expect(probe.streams[0]).toMatchObject({ codec_name: 'opus', channels: 1 });
    expect(Number(probe.format.duration)).toBeCloseTo(2, 1);
    expect(bytes.length).toBeLessThan(12_000); // ~24 kbit/s: 2 s is about 6 KB (the WAV was 350 KB)

    expect(t.language).toBe('en');
    expect(t.duration).toBe(4.2);
    expect(t.segments).toEqual([
      { start: 0, end: 2.1, text: 'The quick brown fox.' },
      { start: 2.4, end: 3.9, text: 'Jumps over.' },
    ]);
    // No per-word probability from OpenAI: each word gets exp(avg_logprob) of its segment (0.8 and 0.6 here). Each is
    // found in the answer's text after a space (or at its start): spaced.
    expect(t.words).toEqual([
      { start: 0, end: 0.32, word: 'The', confidence: 0.8, spaced: true },
      { start: 0.32, end: 0.7, word: 'quick', confidence: 0.8, spaced: true },
      { start: 0.7, end: 1.1, word: 'brown', confidence: 0.8, spaced: true },
      { start: 1.1, end: 2.1, word: 'fox', confidence: 0.8, spaced: true },
      { start: 2.4, end: 3, word: 'Jumps', confidence: 0.6, spaced: true },
      { start: 3, end: 3.9, word: 'over', confidence: 0.6, spaced: true },
    ]);
  });

  it('429 is a temporary outage carrying Retry-After (seconds, an HTTP date, or Retry-After-Ms), without retrying inside the call', async () => {
    stub = await standIn([
      json(
        429,
        { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
        { 'retry-after': '7' },
      ),
      json(429, {}, { 'retry-after': 'Wed, 21 Oct 2026 07:28:30 GMT' }),
      json(429, {}, { 'retry-after-ms': '1500', 'retry-after': '9' }),
      json(429, {}),
    ]);
    const now = () => Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    const p = provider(stub.baseUrl, { now });
    for (const expected of [7000, 30_000, 1500, undefined]) {
      const e = await failure(p.transcribe({ path: audio }));
      expect(e).toBeInstanceOf(ProviderUnavailableError);
      expect((e as ProviderUnavailableError).retryAfterMs).toBe(expected);
      expect(e.message).toMatch(/429/);
    }
    expect(stub.requests).toHaveLength(4);
  });

  it('500 and 503 are temporary outages', async () => {
    stub = await standIn([
      json(500, { error: { message: 'internal', type: 'server_error' } }),
      json(503, 'upstream down', { 'retry-after': '2' }),
    ]);
    const p = provider(stub.baseUrl);
    const e500 = await failure(p.transcribe({ path: audio }));
    expect(e500).toBeInstanceOf(ProviderUnavailableError);
    expect((e500 as ProviderUnavailableError).retryAfterMs).toBeUndefined();
    const e503 = await failure(p.transcribe({ path: audio }));
    expect(e503).toBeInstanceOf(ProviderUnavailableError);
    expect((e503 as ProviderUnavailableError).retryAfterMs).toBe(2000);
    expect(stub.requests).toHaveLength(2);
  });

  it('a request that hangs past its time limit is a temporary outage; so are a silent host and a dropped connection', async () => {
    stub = await standIn([hang]);
    const e = await failure(
      provider(stub.baseUrl, { timeoutMs: 300, encodeTimeoutMs: 120_000 }).transcribe({ path: audio }),
    );
    expect(e).toBeInstanceOf(ProviderUnavailableError);
    expect(e.message).toMatch(/did not answer within 300 ms/);
    expect(stub.requests).toHaveLength(1);

    const blackHole = await startBlackHole();
    const dropper = await startConnectionDropper();
    try {
      const silent = await failure(
        provider(`http://127.0.0.1:${blackHole.port}/v1`, { timeoutMs: 300, encodeTimeoutMs: 120_000 }).transcribe({
          path: audio,
        }),
      );
      expect(silent).toBeInstanceOf(ProviderUnavailableError);
      const dropped = await failure(provider(`http://127.0.0.1:${dropper.port}/v1`).transcribe({ path: audio }));
      expect(dropped).toBeInstanceOf(ProviderUnavailableError);
      expect(dropped.message).toMatch(/could not be reached/);
    } finally {
      await blackHole.close();
      await dropper.close();
    }
  });

  it("honours the request's AbortSignal mid-request, and close() ends requests in flight as temporary", async () => {
    stub = await standIn([hang]);
    const p = provider(stub.baseUrl);
    const controller = new AbortController();
    const pending = failure(p.transcribe({ path: audio, signal: controller.signal }));
    await until(() => stub!.requests.length === 1);
    controller.abort();
    expect((await pending).name).toBe('AbortError');

    const inFlight = failure(p.transcribe({ path: audio }));
    await until(() => stub!.requests.length === 2);
    await p.close();
    expect(await inFlight).toBeInstanceOf(ProviderUnavailableError);
    expect(await failure(p.transcribe({ path: audio }))).toBeInstanceOf(ProviderUnavailableError);
  });

  it('tries a malformed or schema-violating answer again a bounded number of times, then fails clearly', async () => {
    stub = await standIn([json(200, '{"language": "english", "duration": 4.2, "segm'), json(200, VERBOSE_JSON)]);
    const t = await provider(stub.baseUrl).transcribe({ path: audio });
    expect(t.words).toHaveLength(6);
    expect(stub.requests).toHaveLength(2);
    await stub.close();

    const violating = { ...VERBOSE_JSON, words: [{ word: 'The', start: 'soon', end: 0.3 }] };
    stub = await standIn([json(200, violating)]);
    const e = await failure(provider(stub.baseUrl, { attempts: 3 }).transcribe({ path: audio }));
    expect(e).toBeInstanceOf(TranscriptionAnswerError);
    expect(e.message).toMatch(/no usable answer in 3 attempts.*words\.0\.start/);
    expect(stub.requests).toHaveLength(3);
    await stub.close();

    stub = await standIn([json(200, { ...VERBOSE_JSON, padding: 'x'.repeat(5000) }), json(200, VERBOSE_JSON)]);
    expect((await provider(stub.baseUrl, { maxAnswerBytes: 4000 }).transcribe({ path: audio })).language).toBe('en');
    expect(stub.requests).toHaveLength(2); // the oversized answer was not read to its end, and tried again
    await stub.close();

    stub = await standIn([json(200, '<html>gateway</html>')]);
    const html = await failure(provider(stub.baseUrl, { attempts: 2 }).transcribe({ path: audio }));
    expect(html).toBeInstanceOf(TranscriptionAnswerError);
    expect(html.message).toMatch(/not JSON/);
    expect(stub.requests).toHaveLength(2);
  });

  it('400/413 for a bad file are permanent InvalidSourceErrors with a safe message; a refused model is a configuration error', async () => {
    stub = await standIn([
      json(400, {
        error: {
          message: `Invalid file format. Key ${API_KEY}`,
          type: 'invalid_request_error',
          param: 'file',
          code: null,
        },
      }),
      json(413, { error: { message: 'Maximum content size limit exceeded', type: 'invalid_request_error' } }),
      json(400, { error: { message: 'model not supported', type: 'invalid_request_error', param: 'model' } }),
    ]);
    const p = provider(stub.baseUrl);
    const bad = await failure(p.transcribe({ path: audio }));
    expect(bad).toBeInstanceOf(InvalidSourceError);
    expect(bad.message).toBe('the transcription provider could not process the audio (HTTP 400)');
    const big = await failure(p.transcribe({ path: audio }));
    expect(big).toBeInstanceOf(InvalidSourceError);
    expect(big.message).toBe('the audio is too large for the transcription provider');
    const model = await failure(p.transcribe({ path: audio }));
    expect(model).toBeInstanceOf(TranscriptionProviderConfigError);
    expect(stub.requests).toHaveLength(3);
  });

  it('refuses a source without audio, or one whose encoding exceeds the upload limit, before sending anything', async () => {
    stub = await standIn([json(200, VERBOSE_JSON)]);
    const text = join(dir, 'notes.txt');
    await writeFile(text, 'not audio at all');
    expect(await failure(provider(stub.baseUrl).transcribe({ path: text }))).toBeInstanceOf(InvalidSourceError);
    const tooLong = await failure(provider(stub.baseUrl, { maxUploadBytes: 1000 }).transcribe({ path: audio }));
    expect(tooLong).toBeInstanceOf(InvalidSourceError);
    expect(tooLong.message).toMatch(/too long for one request/);
    expect(stub.requests).toHaveLength(0);
  });

  it('401 and 403 are configuration errors naming the variable, never the key the provider echoes', async () => {
    const echo = {
      error: {
        message: `Incorrect API key provided: ${API_KEY.slice(0, 12)}****${API_KEY.slice(-4)}. Full: ${API_KEY}`,
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      },
    };
    stub = await standIn([json(401, echo), json(403, echo)]);
    const p = provider(stub.baseUrl);
    for (const status of [401, 403]) {
      const e = await failure(p.transcribe({ path: audio }));
      expect(e).toBeInstanceOf(TranscriptionProviderConfigError);
      expect(e.message).toBe(
        `the transcription API refused the credentials (HTTP ${status}): check TRANSCRIPTION_API_KEY`,
      );
    }
    expect(log.text()).toContain('invalid_api_key');
  });

  it('the key and URLs are scrubbed from any error leaving the client', async () => {
    stub = await standIn([json(200, VERBOSE_JSON)]);
    const missing = join(dir, `${API_KEY}.wav`); // a path holding the key: nothing that echoes it leaves unscrubbed
    const e = await failure(provider(stub.baseUrl).transcribe({ path: missing }));
    expect(e).toBeInstanceOf(InvalidSourceError);
  });
});

describe('verbose_json mapping', () => {
  it('normalises Whisper language names to ISO 639-1', () => {
    expect(normalizeLanguage('english')).toBe('en');
    expect(normalizeLanguage('English')).toBe('en');
    expect(normalizeLanguage('haitian creole')).toBe('ht');
    expect(normalizeLanguage('castilian')).toBe('es');
    expect(normalizeLanguage('javanese')).toBe('jv');
    expect(normalizeLanguage('hawaiian')).toBe('haw');
    expect(normalizeLanguage('de')).toBe('de');
    expect(normalizeLanguage('pt-BR')).toBe('pt');
    expect(normalizeLanguage('klingon')).toBeNull();
  });

  it("takes a word's own probability, nested segment words, numeric strings, and falls back to 1 without any estimate", () => {
    const t = parseVerboseTranscription(
      JSON.stringify({
        language: 'german',
        duration: '3.5',
        segments: [
          {
            start: 0,
            end: 3.5,
            text: ' Guten Tag. ',
            words: [
              { word: ' Guten', start: 0.1, end: 0.5, probability: 0.93 },
              { word: ' Tag.', start: 0.6, end: 0.55 },
            ],
          },
        ],
      }),
    );
    expect(t).toEqual({
      language: 'de',
      duration: 3.5,
      segments: [{ start: 0, end: 3.5, text: 'Guten Tag.' }],
      // The server keeps the words' leading spaces: each word says it had one (spaced).
      words: [
        { start: 0.1, end: 0.5, word: 'Guten', confidence: 0.93, spaced: true },
        { start: 0.6, end: 0.6, word: 'Tag.', confidence: 1, spaced: true },
      ],
    });
  });

  it('gives a hyphenated word given in pieces as one word; a piece after a space stays a word of its own', () => {
    // A faster-whisper server keeps each word's leading space (" USB", "-C"); whisper-1 gives words without spaces.
    const words = (list: [string, number][]) =>
      parseVerboseTranscription(
        JSON.stringify({
          language: 'en',
          duration: 5,
          segments: [{ start: 0, end: 5, text: 'x' }],
          words: list.map(([word, start], i) => ({ word, start, end: list[i + 1]?.[1] ?? 2, probability: 0.9 })),
        }),
      ).words.map((w) => [w.word, w.start, w.end]);
    expect(
      words([
        [' USB', 0],
        ['-C', 0.2],
        [' to', 0.4],
        [' is', 0.6],
        [' -5', 0.8],
      ]),
    ).toEqual([
      ['USB-C', 0, 0.4],
      ['to', 0.4, 0.6],
      ['is', 0.6, 0.8],
      ['-5', 0.8, 2],
    ]);
    expect(
      words([
        ['state', 0],
        ['-of', 0.2],
        ['-the', 0.4],
        ['-art', 0.6],
        ['-', 0.8],
        ['yes', 1],
      ]),
    ).toEqual([
      ['state-of-the-art', 0, 0.8],
      ['-', 0.8, 1],
      ['yes', 1, 2],
    ]);
  });

  it('gives each word whether the server began it with a space (spaced), so later joins keep " -5" apart', () => {
    const parse = (list: string[]) =>
      parseVerboseTranscription(
        JSON.stringify({
          language: 'en',
          duration: 5,
          segments: [{ start: 0, end: 5, text: 'x' }],
          words: list.map((word, i) => ({ word, start: i * 0.5, end: i * 0.5 + 0.4, probability: 0.9 })),
        }),
      ).words;
    // A faster-whisper server keeps the spaces: every word says whether it had one.
    const spaced = parse([' It', ' is', ' -5', ' on', ' USB', '-C']);
    expect(spaced.map((w) => [w.word, w.spaced])).toEqual([
      ['It', true],
      ['is', true],
      ['-5', true],
      ['on', true],
      ['USB-C', true],
    ]);
    expect(joinWords(spaced, 'en')).toBe('It is -5 on USB-C');
    // whisper-1 gives no word a space and no text to find them in: the words carry no spaced (the hyphen rule guesses).
    expect(parse(['It', 'is', 'USB', '-C']).map((w) => [w.word, 'spaced' in w])).toEqual([
      ['It', false],
      ['is', false],
      ['USB-C', false],
    ]);
  });

  it("whisper-1: a word with no space of its own is found in the answer's text, which says whether a space came before it", () => {
    const answer = (text: string, list: string[]) =>
      parseVerboseTranscription(
        JSON.stringify({
          language: 'english',
          duration: 5,
          text,
          segments: [{ start: 0, end: 5, text: ` ${text}` }],
          words: list.map((word, i) => ({ word, start: i * 0.5, end: i * 0.5 + 0.4 })),
        }),
      ).words;
    const words = answer('It is -5 on USB-C.', ['It', 'is', '-5', 'on', 'USB', '-C']);
    expect(words.map((w) => [w.word, w.spaced])).toEqual([
      ['It', true],
      ['is', true],
      ['-5', true],
      ['on', true],
      ['USB-C', true],
    ]);
    expect(joinWords(words, 'en')).toBe('It is -5 on USB-C');
    // A text that does not hold the words in order says nothing: from there on the hyphen rule guesses, as before.
    const lost = answer('something else entirely', ['It', 'is', '-5']);
    expect(lost.map((w) => [w.word, 'spaced' in w])).toEqual([
      ['It', false],
      ['is-5', false],
    ]);
  });

  it('an answer with speech but no word timestamps is a configuration error; silence is an empty transcript', () => {
    expect(() =>
      parseVerboseTranscription(
        JSON.stringify({ language: 'english', duration: 2, segments: [{ start: 0, end: 2, text: 'Hello there' }] }),
      ),
    ).toThrow(TranscriptionProviderConfigError);
    expect(
      parseVerboseTranscription(
        JSON.stringify({ language: 'english', duration: 5, text: '', segments: [], words: [] }),
      ),
    ).toEqual({ language: 'en', duration: 5, segments: [], words: [] });
    expect(parseVerboseTranscription(JSON.stringify({ duration: 5, segments: [], words: [] }), 'fr').language).toBe(
      'fr',
    );
    expect(() =>
      parseVerboseTranscription(JSON.stringify({ language: 'klingon', duration: 5, segments: [], words: [] })),
    ).toThrow(TranscriptionAnswerError);
  });
});

describe('createTranscriptionProvider', () => {
  it('picks the offline engine by default and the HTTP client for openai', async () => {
    const base = { concurrency: 1, timeoutMs: 1000 };
    const offline = createTranscriptionProvider({ provider: 'offline', ...base });
    expect(offline).toBeInstanceOf(OfflineWhisperProvider);
    await offline.close();
    const api = createTranscriptionProvider({
      provider: 'openai',
      ...base,
      api: { baseUrl: 'https://api.example.com/v1', apiKey: API_KEY, model: 'whisper-1', timeoutMs: 1000 },
    });
    expect(api).toBeInstanceOf(OpenAiCompatibleTranscriptionProvider);
    expect(JSON.stringify(api)).not.toContain(API_KEY);
    expect((await import('node:util')).inspect(api, { depth: 5 })).not.toContain(API_KEY);
    expect(() => createTranscriptionProvider({ provider: 'openai', ...base })).toThrow(/TRANSCRIPTION_API_BASE_URL/);
  });
});

async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the condition');
    await new Promise((r) => setTimeout(r, 10));
  }
}
