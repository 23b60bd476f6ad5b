import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  analyseAudio,
  extractChunk,
  planChunks,
  type AudioChunk,
  type ChunkingOptions,
} from '../../../../adapters/providers/transcription/chunking.js';
import { defaultEngineLayout } from '../../../../adapters/providers/transcription/install-layout.js';
import { OfflineWhisperProvider } from '../../../../adapters/providers/transcription/offline-whisper.provider.js';
import { stitchTranscripts } from '../../../../adapters/providers/transcription/stitch.js';
import type { Transcript } from '../../../../adapters/providers/transcription/transcription-provider.js';
import { SENTENCES, speak, wavDuration } from '../../../../support/speech-corpus.js';
import { wordErrorRate } from '../../../../support/wer.js';
import { TEST_SPEECH_ENGINE } from '../../../helpers/speech-engine.js';

const run = promisify(execFile);

/**
 * Chunking on real audio: 12 espeak-ng sentences (two voices) separated by 1 to 2 s of silence, cut with a small
 * target so it splits into several chunks; then (when the offline engine is installed) each chunk transcribed and
 * the transcripts stitched, against the whole file transcribed at once.
 */
const SMALL: ChunkingOptions = { targetSeconds: 9, minSeconds: 4, maxSeconds: 14, overlapSeconds: 1.5 };
const GAPS = [1, 1.5, 2, 1.2, 1.8, 1, 1.6, 2, 1.3, 1.7, 1.1];
/**
 * Chunked WER may exceed the whole file's by this much. Measured with the tests' portable kernels (the same at 1 and 2
 * threads and on every run): whole file 0.041 (5/122); 6 chunks of ~9 s cut on silence 0.074 (9/122); 5 hard-cut
 * chunks with 1.5 s overlaps 0.098 (12/122). Spread over kernel families on one AMD EPYC: native (oneDNN, AVX-512)
 * 0.033 / 0.074 / 0.098; Intel MKL 0.057 / 0.098 / 0.090 (and there the whole file's first sentence ran into the second
 * without a segment break, and "Please" was timed at 3.55 s, inside the gap). A chunk starts without the text before it,
 * so chunks of two sentences lose a few words to acoustic confusions ("brown" → "round", "finance team" → "fire and
 * steam") that the whole file gets right. Chunks of minutes (the default target is 5 min) lose it only at their cuts.
 *
 * Before the engine decoded each 30 s window on its own audio (engines/transcription/README.md, "Same audio, same
 * transcript"), the whole file was decoded conditioned on the text before, with sampled fallbacks from an unseeded
 * generator: the second voice's half came out as invented sentences ("It's a massive upgrade", "Thank you for your
 * time") on some runs and machines, WER up to 0.467, and words timed in the gaps failed this test.
 */
const WER_MARGIN = 0.06;
const WINDOW_SLACK = 0.3;

const layout = defaultEngineLayout();
const engineInstalled = [layout.python, join(layout.modelDir, 'model.bin'), layout.workerScript].every((p) =>
  existsSync(p),
);

interface Layout {
  path: string;
  text: string;
  duration: number;
  utterances: { start: number; end: number; text: string }[];
}

async function corpus(dir: string): Promise<Layout> {
  const utterances: Layout['utterances'] = [];
  const parts: string[] = [];
  let t = 0;
  const sentences = [...SENTENCES, ...SENTENCES];
  for (const [i, sentence] of sentences.entries()) {
    const part = join(dir, `s${i}.wav`);
    await speak(sentence, i < SENTENCES.length ? 'en-us' : 'en-gb', 160, part);
    // Each part resampled to 16 kHz mono and padded with its gap, so the layout is exact in samples.
    const d = await wavDuration(part);
    utterances.push({ start: t, end: t + d, text: sentence });
    t += d + (GAPS[i] ?? 0);
    parts.push(part);
  }
  const path = join(dir, 'speech.wav');
  const inputs = parts.flatMap((p) => ['-i', p]);
  const pads = parts.map((_, i) => `[${i}]apad=pad_dur=${GAPS[i] ?? 0}[p${i}];`).join('');
  const filter = `${pads}${parts.map((_, i) => `[p${i}]`).join('')}concat=n=${parts.length}:v=0:a=1[out]`;
  await run('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    ...inputs,
    '-filter_complex',
    filter,
    '-map',
    '[out]',
    '-c:a',
    'pcm_s16le',
    path,
  ]);
  return { path, text: sentences.join(' '), duration: await wavDuration(path), utterances };
}

function checkOnTimeline(t: Transcript, speech: Layout, which: string): void {
  let previous = 0;
  for (const w of t.words) {
    expect(w.start).toBeGreaterThanOrEqual(previous);
    expect(w.end).toBeGreaterThanOrEqual(w.start);
    expect(w.end).toBeLessThanOrEqual(speech.duration + 1e-6);
    const middle = (w.start + w.end) / 2;
    expect(
      speech.utterances.some((u) => middle >= u.start - WINDOW_SLACK && middle <= u.end + WINDOW_SLACK),
      `${which}: "${w.word}" at ${middle.toFixed(2)} s is outside every sentence`,
    ).toBe(true);
    previous = w.start;
  }
}

describe('chunked transcription on espeak-ng speech', () => {
  let dir: string;
  let speech: Layout;
  let chunks: AudioChunk[];
  let hardChunks: AudioChunk[];
  const chunkFiles: string[] = [];
  const hardFiles: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paycore-sttchunk-'));
    speech = await corpus(dir);
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('finds the gaps with one ffmpeg pass and cuts inside them; the extracted chunks add up to the source', async () => {
    const analysis = await analyseAudio(speech.path, { noiseDb: -40, minSilenceSeconds: 0.7 });
    expect(Math.abs(analysis.duration - speech.duration)).toBeLessThan(0.002);
    // Every gap between sentences is found (each detected silence lies around a known gap or at the file's edges).
    for (let i = 0; i + 1 < speech.utterances.length; i++) {
      const gap = { start: speech.utterances[i]!.end, end: speech.utterances[i + 1]!.start };
      expect(
        analysis.silences.some((s) => s.start <= gap.start + 0.05 && s.end >= gap.end - 0.05),
        `gap ${i}`,
      ).toBe(true);
    }
    chunks = planChunks(analysis.duration, analysis.silences, SMALL);
    console.log(
      `[sttchunk] ${speech.duration.toFixed(3)} s, ${analysis.silences.length} silences; chunks ${chunks.map((c) => `${c.start}-${c.end}`).join(', ')}`,
    );
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    for (const c of chunks.slice(0, -1)) {
      const inGap = speech.utterances.some(
        (u, i) => i + 1 < speech.utterances.length && c.end > u.end && c.end < speech.utterances[i + 1]!.start,
      );
      expect(inGap, `cut at ${c.end}`).toBe(true);
    }
    let sum = 0;
    for (const c of chunks) {
      const out = join(dir, `chunk-${c.index}.wav`);
      await extractChunk(speech.path, c, out);
      const d = await wavDuration(out);
      expect(Math.abs(d - (c.end - c.start))).toBeLessThan(1 / 16000 + 1e-9);
      sum += d;
      chunkFiles.push(out);
    }
    console.log(`[sttchunk] extracted chunks sum ${sum.toFixed(4)} s vs source ${speech.duration.toFixed(4)} s`);
    expect(Math.abs(sum - speech.duration)).toBeLessThan(0.01);

    // A plan without silences: hard cuts with overlaps.
    hardChunks = planChunks(analysis.duration, [], SMALL);
    expect(hardChunks.some((c, i) => i > 0 && c.start < hardChunks[i - 1]!.end)).toBe(true);
    for (const c of hardChunks) {
      const out = join(dir, `hard-${c.index}.wav`);
      await extractChunk(speech.path, c, out);
      hardFiles.push(out);
    }
  });

  it.skipIf(!engineInstalled)(
    'transcribed chunk by chunk and stitched: words in order inside their sentences, WER no worse than the whole file',
    async () => {
      const provider = new OfflineWhisperProvider({ ...TEST_SPEECH_ENGINE, timeoutMs: 240_000 });
      try {
        const whole = await provider.transcribe({ path: speech.path, language: 'en' });
        const wholeWer = wordErrorRate(speech.text, whole.words.map((w) => w.word).join(' '));
        const stitchOf = async (plan: AudioChunk[], files: string[]) => {
          const parts = [];
          for (const [i, c] of plan.entries())
            parts.push({ chunk: c, transcript: await provider.transcribe({ path: files[i]!, language: 'en' }) });
          return stitchTranscripts(parts, speech.duration);
        };
        const onSilence = await stitchOf(chunks, chunkFiles);
        const hard = await stitchOf(hardChunks, hardFiles);
        const silenceWer = wordErrorRate(speech.text, onSilence.words.map((w) => w.word).join(' '));
        const hardWer = wordErrorRate(speech.text, hard.words.map((w) => w.word).join(' '));
        console.log(
          `[sttchunk] WER whole ${wholeWer.wer.toFixed(3)} (${wholeWer.errors}/${wholeWer.referenceWords}); ` +
            `${chunks.length} chunks cut on silence ${silenceWer.wer.toFixed(3)} (${silenceWer.errors}); ` +
            `${hardChunks.length} hard-cut chunks with ${SMALL.overlapSeconds} s overlaps ${hardWer.wer.toFixed(3)} (${hardWer.errors})`,
        );
        console.log(`[sttchunk] whole file: ${whole.words.map((w) => w.word).join('')}`);
        console.log(`[sttchunk] stitched on silence: ${onSilence.words.map((w) => w.word).join('')}`);
        console.log(`[sttchunk] stitched hard cuts: ${hard.words.map((w) => w.word).join('')}`);
        checkOnTimeline(whole, speech, 'whole file');
        checkOnTimeline(onSilence, speech, 'stitched on silence');
        expect(onSilence.language).toBe('en');
        expect(silenceWer.wer).toBeLessThanOrEqual(wholeWer.wer + WER_MARGIN);
        // Every sentence's words sit in that sentence's window: the stitched words per sentence match its text.
        for (const u of speech.utterances) {
          const words = onSilence.words.filter(
            (w) => (w.start + w.end) / 2 >= u.start - WINDOW_SLACK && (w.start + w.end) / 2 <= u.end + WINDOW_SLACK,
          );
          expect(wordErrorRate(u.text, words.map((w) => w.word).join(' ')).wer, u.text).toBeLessThanOrEqual(0.35);
        }
        for (const s of onSilence.segments) expect(s.end).toBeLessThanOrEqual(speech.duration + 1e-6);
        // Hard cuts cut words; the overlap keeps them whole in one chunk, and no word is counted twice.
        expect(hardWer.wer).toBeLessThanOrEqual(wholeWer.wer + WER_MARGIN + 0.02);
        let previous = 0;
        for (const w of hard.words) {
          expect(w.start).toBeGreaterThanOrEqual(previous);
          previous = w.start;
        }
      } finally {
        await provider.close();
      }
    },
  );

  /**
   * The engine's sampler (Whisper decodes a window again by sampling when it fails its checks) drew from a generator
   * seeded at random in each worker and advancing with every sample, so the same file got a different transcript every
   * time. This noisy copy of the two voices makes some windows sample (measured: the worker notes it); the same file
   * after another request must give the same words at the same times. Before the worker seeded the sampler and began
   * every request from the same state, the two transcripts of the noisy copy differed.
   */
  it.skipIf(!engineInstalled)(
    'gives the same transcript of the same audio again, after a request that sampled',
    async () => {
      const noisy = join(dir, 'noisy.wav');
      await run('ffmpeg', [
        '-nostdin',
        '-loglevel',
        'error',
        '-y',
        '-i',
        speech.path,
        '-f',
        'lavfi',
        '-i',
        `anoisesrc=color=white:amplitude=0.12:seed=7:sample_rate=16000:duration=${speech.duration.toFixed(3)}`,
        '-filter_complex',
        '[0]aresample=16000,volume=0.5[a];[a][1]amix=inputs=2:duration=first[o]',
        '-map',
        '[o]',
        '-ac',
        '1',
        '-c:a',
        'pcm_s16le',
        noisy,
      ]);
      const provider = new OfflineWhisperProvider({ ...TEST_SPEECH_ENGINE, timeoutMs: 240_000 });
      try {
        const first = await provider.transcribe({ path: noisy, language: 'en' });
        await provider.transcribe({ path: speech.path, language: 'en' });
        const again = await provider.transcribe({ path: noisy, language: 'en' });
        console.log(`[sttchunk] noisy copy: ${first.words.map((w) => w.word).join('')}`);
        expect(first.words.length).toBeGreaterThan(20);
        expect(again.words).toEqual(first.words);
        expect(again.segments).toEqual(first.segments);
      } finally {
        await provider.close();
      }
    },
  );
});
