import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidSourceError } from '../../../../adapters/providers/provider-errors.js';
import { createTranscriptionProvider } from '../../../../adapters/providers/transcription/create-transcription-provider.js';
import type {
  Transcript,
  TranscriptionProvider,
} from '../../../../adapters/providers/transcription/transcription-provider.js';
import {
  SENTENCES,
  encodeAs,
  ffprobeDurations,
  fileCache,
  garbageFile,
  musicFile,
  silenceFile,
  spokenClip,
  telephone,
  truncatedCopy,
  videoOnlyFile,
  withNoise,
  type SpokenClip,
} from '../../../../support/speech-corpus.js';
import { wordErrorRate } from '../../../../support/wer.js';
import { TEST_SPEECH_ENGINE } from '../../../helpers/speech-engine.js';

/**
 * The offline engine (through createTranscriptionProvider, as the pipeline builds it) on degraded and repackaged
 * copies of one espeak-ng recording: noise, telephone bandwidth, other speaking rates, other containers; and on
 * files without speech (silence, music), without audio (video only) or broken. Per variant: WER, word timestamps
 * in order and inside the audio and their sentence windows, and the reported duration against ffprobe's.
 * Measured figures: engines/transcription/README.md ("Measured: robustness corpus"). The ceilings below sit a
 * little above them (the engine gives the same transcript of a given file on every machine in the tests).
 */

/** Three sentences, about 10 s at 165 wpm: the base recording every variant but the speed ones is made from. */
const TEXT = SENTENCES.slice(1, 4);
const VOICE = 'en-us';
const SPEED = 165;

/**
 * WER ceilings per variant: the measured WER plus about one word (30 reference words each, so one word is 0.033).
 * The tests run the engine with portable CPU kernels (test/helpers/speech-engine.ts), which give the same transcript on
 * every x86-64 CPU and at 1 or 2 threads; the comment gives that figure, then the spread over the kernel families
 * measured on one AMD EPYC (Zen 4) machine: native (oneDNN up to AVX-512 VNNI) and Intel MKL (what Intel CPUs use
 * natively). White noise at 10 dB once failed a ceiling of 0.17 set from the native figure on a CI machine that
 * computed as the portable kernels do. Whisper is not monotonic in the noise level on so few words: each figure is one
 * file, not a curve.
 */
const WER_CEILING: Record<string, number> = {
  clean: 0.14, // 0.100 (3/30); native 0.100, MKL 0.100
  'white noise 20 dB': 0.27, // 0.233 (7/30); native 0.233, MKL 0.233
  'white noise 10 dB': 0.24, // 0.200 (6/30); native 0.133, MKL 0.133
  'pink noise 20 dB': 0.07, // 0.033 (1/30); native 0.033, MKL 0.033
  'pink noise 10 dB': 0.3, // 0.267 (8/30); native 0.167, MKL 0.267
  // Portable kernels gave 0.300 (9/30) on a second machine (an AMD EPYC with AVX-VNNI and AVX-512 VP2INTERSECT, a
  // newer generation than the Zen 4 one; every other variant the same there): portable is the same on most CPUs, not
  // all, so this ceiling is the highest portable figure plus about one word.
  'telephone 8 kHz': 0.34, // 0.233 (7/30), 0.300 on the second machine; native 0.333, MKL 0.333
  'speed 0.8x (132 wpm)': 0.1, // 0.067 (2/30); native 0.067, MKL 0.067
  'speed 1.3x (215 wpm)': 0.1, // 0.067 (2/30); native 0.067, MKL 0.133
  mp3: 0.14, // 0.100 (3/30); native 0.100, MKL 0.100
  m4a: 0.17, // 0.133 (4/30); native 0.100, MKL 0.133
  'mp4 (video + AAC)': 0.17, // 0.133 (4/30); native 0.100, MKL 0.133
  'ogg (Vorbis)': 0.1, // 0.067 (2/30); native 0.067, MKL 0.067
};
/** Ceiling of the WER of all speech variants together: measured 0.136 (49/360); native 0.125 (45/360), MKL 0.144 (52/360). */
const WER_CEILING_ALL = 0.15;
/** A word's middle lies inside its sentence's true window, give or take this much (seconds). */
const WINDOW_SLACK = 0.3;
/**
 * The reported duration against ffprobe's audio stream duration, less its start time when positive: MP3's encoder
 * delay, which ffprobe counts and decoders drop (seconds).
 */
const DURATION_TOLERANCE = 0.05;
/** Words the engine may invent on a file without speech. */
const MAX_INVENTED_WORDS = 0;

interface SpeechVariant {
  name: string;
  clip: SpokenClip;
  path: string;
}

interface Row {
  name: string;
  seconds: number;
  wer: number;
  errors: number;
  words: number;
  /** Reported duration − ffprobe's stream duration as is, − the corrected reference, − the source WAV's (seconds). */
  rawDelta: number;
  durationDelta: number;
  sourceDelta: number;
  tookMs: number;
  text: string;
}

const ms = (seconds: number) => (seconds * 1000).toFixed(0);

function probeReference(probe: Awaited<ReturnType<typeof ffprobeDurations>>): number {
  return (probe.audio ?? probe.format) - Math.max(0, probe.audioStart ?? 0);
}

function checkTimestamps(t: Transcript, clip: SpokenClip, name: string): void {
  let previousStart = 0;
  for (const w of t.words) {
    expect(w.start, `${name}: "${w.word}" starts before the previous word`).toBeGreaterThanOrEqual(previousStart);
    expect(w.end, `${name}: "${w.word}" ends before it starts`).toBeGreaterThanOrEqual(w.start);
    expect(w.start, name).toBeGreaterThanOrEqual(0);
    expect(w.end, `${name}: "${w.word}" ends after the audio`).toBeLessThanOrEqual(t.duration + 0.01);
    const middle = (w.start + w.end) / 2;
    expect(
      clip.utterances.some((u) => middle >= u.start - WINDOW_SLACK && middle <= u.end + WINDOW_SLACK),
      `${name}: "${w.word}" at ${middle}s is outside every utterance`,
    ).toBe(true);
    previousStart = w.start;
  }
}

describe('offline engine robustness corpus (noise, telephone, speaking rate, containers, no speech, no audio)', () => {
  let dir: string;
  let provider: TranscriptionProvider;
  const cached = fileCache();

  const base = () => cached('base', () => spokenClip(dir, 'base', TEXT, VOICE, SPEED));
  const file = (name: string, make: (out: string) => Promise<string>) => cached(name, () => make(join(dir, name)));

  async function speechVariants(): Promise<SpeechVariant[]> {
    const clip = await base();
    const slow = await cached('slow', () => spokenClip(dir, 'slow', TEXT, VOICE, Math.round(SPEED * 0.8)));
    const fast = await cached('fast', () => spokenClip(dir, 'fast', TEXT, VOICE, Math.round(SPEED * 1.3)));
    const on = (name: string, path: Promise<string>, c: SpokenClip = clip) =>
      path.then((p) => ({ name, clip: c, path: p }));
    return Promise.all([
      on('clean', Promise.resolve(clip.path)),
      on(
        'white noise 20 dB',
        file('white-20.wav', (out) => withNoise(clip, 'white', 20, out)),
      ),
      on(
        'white noise 10 dB',
        file('white-10.wav', (out) => withNoise(clip, 'white', 10, out)),
      ),
      on(
        'pink noise 20 dB',
        file('pink-20.wav', (out) => withNoise(clip, 'pink', 20, out)),
      ),
      on(
        'pink noise 10 dB',
        file('pink-10.wav', (out) => withNoise(clip, 'pink', 10, out)),
      ),
      on(
        'telephone 8 kHz',
        file('telephone.wav', (out) => telephone(clip, out)),
      ),
      on(`speed 0.8x (${slow.speed} wpm)`, Promise.resolve(slow.path), slow),
      on(`speed 1.3x (${fast.speed} wpm)`, Promise.resolve(fast.path), fast),
      on(
        'mp3',
        file('clip.mp3', (out) => encodeAs(clip, 'mp3', out)),
      ),
      on(
        'm4a',
        file('clip.m4a', (out) => encodeAs(clip, 'm4a', out)),
      ),
      on(
        'mp4 (video + AAC)',
        file('clip.mp4', (out) => encodeAs(clip, 'mp4', out)),
      ),
      on(
        'ogg (Vorbis)',
        file('clip.ogg', (out) => encodeAs(clip, 'ogg', out)),
      ),
    ]);
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paycore-stt-corpus-'));
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

  it('keeps WER under each variant’s ceiling, word timestamps in order inside the audio and their sentences, the duration within 50 ms of ffprobe’s', async () => {
    const variants = await speechVariants();
    expect(Object.keys(WER_CEILING).sort()).toEqual(variants.map((v) => v.name).sort());
    const rows: Row[] = [];
    for (const { name, clip, path } of variants) {
      const started = performance.now();
      const t = await provider.transcribe({ path });
      const tookMs = performance.now() - started;
      const text = t.segments.map((s) => s.text).join(' ');
      const w = wordErrorRate(clip.text, text);
      const probe = await ffprobeDurations(path);
      const reference = probeReference(probe);
      rows.push({
        name,
        seconds: reference,
        wer: w.wer,
        errors: w.errors,
        words: w.referenceWords,
        rawDelta: t.duration - (probe.audio ?? probe.format),
        durationDelta: t.duration - reference,
        sourceDelta: t.duration - clip.duration,
        tookMs,
        text,
      });
      expect(t.language, name).toBe('en');
      checkTimestamps(t, clip, name);
    }
    const errors = rows.reduce((n, r) => n + r.errors, 0);
    const words = rows.reduce((n, r) => n + r.words, 0);
    console.log(
      [
        '[stt-corpus] | Variant | Audio (s) | WER | Duration − ffprobe as is / corrected / − source WAV (ms) | Engine (s) | Transcript |',
        ...rows.map(
          (r) =>
            `[stt-corpus] | ${r.name} | ${r.seconds.toFixed(2)} | ${r.wer.toFixed(3)} (${r.errors}/${r.words}) | ${ms(r.rawDelta)} / ${ms(r.durationDelta)} / ${ms(r.sourceDelta)} | ${(r.tookMs / 1000).toFixed(2)} | ${r.text} |`,
        ),
        `[stt-corpus] all speech variants: WER ${(errors / words).toFixed(3)} (${errors}/${words}); engine ${(rows.reduce((s, r) => s + r.tookMs, 0) / 1000).toFixed(1)} s for ${rows.reduce((s, r) => s + r.seconds, 0).toFixed(1)} s of audio`,
      ].join('\n'),
    );
    for (const r of rows) {
      expect(r.wer, r.name).toBeLessThanOrEqual(WER_CEILING[r.name]!);
      expect(Math.abs(r.durationDelta), `${r.name}: duration`).toBeLessThanOrEqual(DURATION_TOLERANCE);
      expect(Math.abs(r.sourceDelta), `${r.name}: duration against the source`).toBeLessThanOrEqual(DURATION_TOLERANCE);
    }
    expect(errors / words).toBeLessThanOrEqual(WER_CEILING_ALL);
  });

  it('invents no words on silence or on music, and reports their duration', async () => {
    for (const [name, path] of [
      ['silence', await file('silence.wav', (out) => silenceFile(out, 6))],
      ['music', await file('music.wav', (out) => musicFile(out))],
    ] as const) {
      const started = performance.now();
      const t = await provider.transcribe({ path });
      const probe = await ffprobeDurations(path);
      console.log(
        `[stt-corpus] ${name}: ${t.words.length} words ("${t.words.map((w) => w.word).join(' ')}"), duration ${t.duration} s (ffprobe ${probe.audio}), ${((performance.now() - started) / 1000).toFixed(2)} s`,
      );
      expect(t.words.length, `${name}: invented words`).toBeLessThanOrEqual(MAX_INVENTED_WORDS);
      expect(Math.abs(t.duration - probeReference(probe)), `${name}: duration`).toBeLessThanOrEqual(DURATION_TOLERANCE);
    }
  });

  it('refuses a video without an audio stream and corrupt files with InvalidSourceError', async () => {
    const m4a = await file('clip.m4a', async (out) => encodeAs(await base(), 'm4a', out));
    for (const [name, path] of [
      ['video only', await file('video-only.mp4', videoOnlyFile)],
      ['m4a cut before its index', await file('truncated.m4a', (out) => truncatedCopy(m4a, 0.6, out))],
      ['random bytes named .mp3', await file('garbage.mp3', (out) => garbageFile(out))],
      ['random bytes named .wav', await file('garbage.wav', (out) => garbageFile(out))],
    ] as const) {
      await expect(provider.transcribe({ path }), name).rejects.toBeInstanceOf(InvalidSourceError);
    }
  });
});
