import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidSourceError } from '../../../../adapters/providers/provider-errors.js';
import { createTranscriptionProvider } from '../../../../adapters/providers/transcription/create-transcription-provider.js';
import { OpenAiCompatibleTranscriptionProvider } from '../../../../adapters/providers/transcription/openai-compatible.provider.js';
import type { TranscriptionProvider } from '../../../../adapters/providers/transcription/transcription-provider.js';
import { requestedLanguage } from '../../../../adapters/providers/transcription/whisper-languages.js';
import { SENTENCES, spokenClip, type SpokenClip } from '../../../../support/speech-corpus.js';
import { wordErrorRate } from '../../../../support/wer.js';
import { TEST_SPEECH_ENGINE } from '../../../helpers/speech-engine.js';

/**
 * Languages on the offline path, the same as on the OpenAI-compatible one (whisper-languages.ts): a requested
 * language may be an ISO 639-1 code, a Whisper name or alias, any case, with a region; it reaches the engine as
 * Whisper's code; an unknown one is refused before any work with InvalidSourceError; the answer's language is
 * always the ISO code (Whisper's `jw` → `jv`).
 */
describe('requested and reported languages', () => {
  it('normalises a requested language to its ISO 639-1 code or refuses it', () => {
    expect(requestedLanguage('en')).toBe('en');
    expect(requestedLanguage('EN')).toBe('en');
    expect(requestedLanguage('en-US')).toBe('en');
    expect(requestedLanguage('English')).toBe('en');
    expect(requestedLanguage('castilian')).toBe('es');
    expect(requestedLanguage('jw')).toBe('jv');
    expect(requestedLanguage('javanese')).toBe('jv');
    expect(requestedLanguage('haw')).toBe('haw');
    for (const bad of ['klingon', 'xx', '', '  ', 'en; rm -rf', 'e'.repeat(300)]) {
      expect(() => requestedLanguage(bad), bad).toThrow(InvalidSourceError);
      expect(() => requestedLanguage(bad), bad).toThrow(
        'the transcription provider does not support the requested language',
      );
    }
  });

  describe('offline engine', () => {
    let dir: string;
    let provider: TranscriptionProvider;
    let clip: SpokenClip;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'paycore-stt-lang-'));
      clip = await spokenClip(dir, 'one', SENTENCES.slice(0, 1), 'en-us', 165);
      provider = createTranscriptionProvider({
        ...TEST_SPEECH_ENGINE,
        provider: 'offline',
        concurrency: 1,
        timeoutMs: 240_000,
      });
    });

    afterAll(async () => {
      await provider?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('accepts a language by name, in any case or with a region, and answers the ISO code', async () => {
      for (const language of ['English', 'en-US']) {
        const t = await provider.transcribe({ path: clip.path, language });
        expect(t.language, language).toBe('en');
        expect(wordErrorRate(clip.text, t.segments.map((s) => s.text).join(' ')).wer, language).toBeLessThanOrEqual(
          0.25,
        );
      }
    });

    it('gives Whisper its own code for Javanese and answers the ISO one (jv)', async () => {
      const t = await provider.transcribe({ path: clip.path, language: 'jv' });
      expect(t.language).toBe('jv');
    });

    it('refuses an unknown language with InvalidSourceError, as the HTTP provider does, and goes on', async () => {
      await expect(provider.transcribe({ path: clip.path, language: 'klingon' })).rejects.toBeInstanceOf(
        InvalidSourceError,
      );
      await expect(provider.transcribe({ path: clip.path, language: 'klingon' })).rejects.toThrow(
        'the transcription provider does not support the requested language',
      );
      expect((await provider.transcribe({ path: clip.path })).language).toBe('en');
    });
  });

  describe('OpenAI-compatible provider (a stand-in that records the form)', () => {
    let dir: string;
    let clip: SpokenClip;
    let server: http.Server;
    const forms: FormData[] = [];
    let baseUrl: string;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'paycore-stt-lang-api-'));
      clip = await spokenClip(dir, 'one', SENTENCES.slice(0, 1), 'en-us', 165);
      server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          void new Request('http://stand-in/', {
            method: 'POST',
            headers: { 'content-type': req.headers['content-type'] ?? '' },
            body: Buffer.concat(chunks),
          })
            .formData()
            .then((form) => {
              forms.push(form);
              res.writeHead(200, { 'content-type': 'application/json' });
              res.end(JSON.stringify({ language: 'javanese', duration: 1, text: '', segments: [], words: [] }));
            });
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    });

    afterAll(async () => {
      server?.closeAllConnections();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('sends the ISO code of a named language, refuses an unknown one before sending anything', async () => {
      const api = new OpenAiCompatibleTranscriptionProvider({
        baseUrl,
        apiKey: 'sk-test-language',
        model: 'whisper-1',
        timeoutMs: 10_000,
      });
      const t = await api.transcribe({ path: clip.path, language: 'English' });
      expect(forms.at(-1)?.get('language')).toBe('en');
      expect(t.language).toBe('jv'); // the answer's "javanese"
      await expect(api.transcribe({ path: clip.path, language: 'klingon' })).rejects.toThrow(
        new InvalidSourceError('the transcription provider does not support the requested language'),
      );
      expect(forms).toHaveLength(1);
      await api.close();
    });
  });
});
