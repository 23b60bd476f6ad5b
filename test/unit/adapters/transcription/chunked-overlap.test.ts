import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractChunk } from '../../../../adapters/providers/transcription/chunking.js';
import { OfflineWhisperProvider } from '../../../../adapters/providers/transcription/offline-whisper.provider.js';
import { stitchTranscripts, type ChunkTranscript } from '../../../../adapters/providers/transcription/stitch.js';
import type { Transcript } from '../../../../adapters/providers/transcription/transcription-provider.js';
import { TEST_SPEECH_ENGINE } from '../../../helpers/speech-engine.js';
import { normaliseWords, wordEditDistance } from '../../../../support/wer.js';

/**
 * Issue 30 item 5: chunked transcription equals whole-file transcription on overlapping speech. A real two-speaker
 * conversation (test/fixtures/speech-real/real-2sp-en-overlap: a LibriSpeech reader and a Common Voice speaker, tune
 * voices of the bench's split, 23.3 s, 1.3 s where both talk, in four stretches) is
 * cut hard in the middle of every stretch of overlapping speech, as the planner cuts when it finds no silence (the
 * next chunk starting 2 s before the cut, stitch.ts taking the middle of the overlap as the boundary); the chunks'
 * transcripts are stitched and compared with the whole file's.
 *
 * Measured (portable kernels, deterministic): cuts at 6.043, 6.443, 6.485 and 12.736 s; no word doubled at a seam,
 * every turn the whole file transcribes has words after stitching; WER (hesitations not scored) whole 0.068, stitched
 * 0.068 (0.082 before session 7: "curtain", past the boundary in the chunk that heard it, was dropped because the
 * chunk owning that time starts mid-sentence and skipped it; stitch.ts now keeps a word its owner did not hear).
 * The margin is one word of 73.
 * The issue's failure (a word repeated 15 times and two short turns dropped through the API, on a 4-speaker excerpt)
 * did not reproduce on this recording: this test passed on the first run, before any change.
 */
const FIXTURES = join(fileURLToPath(new URL('.', import.meta.url)), '../../../fixtures/speech-real');
const HESITATIONS = new Set(['um', 'uh', 'hm', 'hmm', 'mm', 'er', 'erm', 'ah', 'eh']);
const scored = (text: string) => normaliseWords(text).filter((w) => !HESITATIONS.has(w));

interface Labels {
  duration: number;
  turns: { start: number; end: number; speaker: string; text: string | null }[];
  text: string;
}

describe('chunked transcription on real overlapping speech', () => {
  let dir: string;
  let provider: OfflineWhisperProvider;
  let labels: Labels;
  let whole: Transcript;
  let stitched: Transcript;
  let cuts: number[];
  const source = join(FIXTURES, 'real-2sp-en-overlap.flac');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paycore-chunk-overlap-'));
    provider = new OfflineWhisperProvider({ ...TEST_SPEECH_ENGINE, timeoutMs: 240_000 });
    labels = JSON.parse(await readFile(join(FIXTURES, 'real-2sp-en-overlap.json'), 'utf8')) as Labels;
    // A cut in the middle of each stretch where two turns overlap.
    cuts = [];
    for (let i = 0; i < labels.turns.length; i++) {
      for (let j = i + 1; j < labels.turns.length; j++) {
        const [a, b] = [labels.turns[i]!, labels.turns[j]!];
        const from = Math.max(a.start, b.start);
        const to = Math.min(a.end, b.end);
        if (to > from) cuts.push(Math.round(((from + to) / 2) * 1000) / 1000);
      }
    }
    cuts.sort((x, y) => x - y);
    const bounds = [0, ...cuts, labels.duration];
    const parts: ChunkTranscript[] = [];
    for (let i = 0; i + 1 < bounds.length; i++) {
      const chunk = { index: i, start: i === 0 ? 0 : bounds[i]! - 2, end: bounds[i + 1]! };
      const wav = join(dir, `chunk-${i}.wav`);
      await extractChunk(source, chunk, wav);
      parts.push({ chunk, transcript: await provider.transcribe({ path: wav, language: 'en' }) });
    }
    stitched = stitchTranscripts(parts, labels.duration);
    whole = await provider.transcribe({ path: source, language: 'en' });
  }, 600_000);

  afterAll(async () => {
    await provider?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const text = (t: Transcript) => t.words.map((w) => w.word).join(' ');
  const wer = (t: Transcript) => {
    const ref = scored(labels.text);
    return wordEditDistance(ref, scored(text(t))) / ref.length;
  };

  it('cuts inside the overlapping speech', () => {
    expect(cuts.length).toBeGreaterThanOrEqual(2);
    console.log(
      `cuts at ${cuts.join(', ')} s; WER whole ${wer(whole).toFixed(3)}, stitched ${wer(stitched).toFixed(3)}`,
    );
    console.log(`whole:    ${text(whole)}\nstitched: ${text(stitched)}`);
  });

  it('repeats no word at a seam that the whole file does not repeat', () => {
    // Words within 3 s of a cut, as normalised text in time order: a word said again right after itself (a seam's
    // double) counts; the whole file's own repeats are allowed.
    const repeats = (t: Transcript, cut: number) => {
      const near = t.words.filter((w) => Math.abs((w.start + w.end) / 2 - cut) <= 3).flatMap((w) => scored(w.word));
      return near.filter((w, i) => i > 0 && near[i - 1] === w).length;
    };
    for (const cut of cuts)
      expect(repeats(stitched, cut), `repeated words around ${cut} s`).toBeLessThanOrEqual(repeats(whole, cut));
  });

  it('drops no turn the whole file transcribes, and is as accurate', () => {
    const heard = (t: Transcript, turn: { start: number; end: number }) =>
      t.words.filter((w) => (w.start + w.end) / 2 >= turn.start - 0.2 && (w.start + w.end) / 2 <= turn.end + 0.2)
        .length;
    for (const turn of labels.turns)
      if (heard(whole, turn) > 0)
        expect(
          heard(stitched, turn),
          `words in the turn at ${turn.start}–${turn.end} s ("${turn.text}")`,
        ).toBeGreaterThan(0);
    expect(wer(stitched)).toBeLessThanOrEqual(wer(whole) + 0.015);
  });
});
