import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractChunk } from '../../../../adapters/providers/transcription/chunking.js';
import { OfflineWhisperProvider } from '../../../../adapters/providers/transcription/offline-whisper.provider.js';
import { stitchTranscripts, type ChunkTranscript } from '../../../../adapters/providers/transcription/stitch.js';
import type { Transcript } from '../../../../adapters/providers/transcription/transcription-provider.js';
import { TEST_SPEECH_ENGINE } from '../../../helpers/speech-engine.js';
import { loadRealConversation, type RealConversation } from '../../../helpers/speech-real.js';
import { scoringWords, wordEditDistance } from '../../../../support/wer.js';
import { transcriptToSrt, transcriptToVtt } from '../../../../adapters/documents/transcript-formats.js';

/**
 * Issue 30 item 5: no word repeated at a chunk's seam. A real recording (test/fixtures/speech-real/real-2sp-radio-seam:
 * two 8 kHz codec2 radio voices, 12.6 s, an excerpt of bench/speech-corpus/wer-chunked.ts's causes-2sp-radio-apart) is
 * cut at 9.538 s, in the pause between two turns, where the planner cuts it at TRANSCRIPTION_CHUNK_SECONDS = 10.
 * Whisper ends the first chunk (0.4 s after "I'm using a Logitech headphone USB") with a repetition loop, "USB-C to
 * the USB-C to the …", 14 words every one of which it times at the chunk's last instant (9.51–9.51 s): words it could
 * not place in the audio. The whole excerpt, transcribed at once, has no such loop. wer-chunked.ts on the tune
 * conversations: 19 of the chunked path's 21 insertions at seams were such loops (bench/README.md, session 12).
 */
const SEAM = 9.538;

describe('a chunk ending after speech: no repetition loop at the seam (real-2sp-radio-seam)', () => {
  let dir: string;
  let provider: OfflineWhisperProvider;
  let labels: RealConversation;
  let whole: Transcript;
  let stitched: Transcript;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paycore-seam-loop-'));
    provider = new OfflineWhisperProvider({ ...TEST_SPEECH_ENGINE, timeoutMs: 240_000 });
    labels = await loadRealConversation('real-2sp-radio-seam');
    const parts: ChunkTranscript[] = [];
    for (const chunk of [
      { index: 0, start: 0, end: SEAM },
      { index: 1, start: SEAM, end: labels.duration },
    ]) {
      const wav = join(dir, `chunk-${chunk.index}.wav`);
      await extractChunk(labels.path, chunk, wav);
      parts.push({ chunk, transcript: await provider.transcribe({ path: wav, language: 'en' }) });
    }
    stitched = stitchTranscripts(parts, labels.duration);
    whole = await provider.transcribe({ path: labels.path, language: 'en' });
  }, 600_000);

  afterAll(async () => {
    await provider?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const words = (t: Transcript) => scoringWords(t.words.map((w) => w.word).join(' '));
  /** Word n-grams (n = 1 to 4) said again right after themselves. */
  const repeats = (list: string[]) => {
    let n = 0;
    for (let size = 1; size <= 4; size++)
      for (let i = 2 * size; i <= list.length; i++)
        if (list.slice(i - size, i).join(' ') === list.slice(i - 2 * size, i - size).join(' ')) n++;
    return n;
  };

  it('the seam lies in the pause between two turns', () => {
    const [before, after] = [labels.turns.filter((t) => t.end <= SEAM), labels.turns.filter((t) => t.start >= SEAM)];
    expect(before.length + after.length).toBe(labels.turns.length);
    console.log(
      `whole:    ${whole.words.map((w) => w.word).join(' ')}\nstitched: ${stitched.words.map((w) => `${w.word}@${w.start}`).join(' ')}`,
    );
  });

  /** The words timed within 1.5 s of the seam, where a loop at a chunk's end lands. */
  const nearSeam = (t: Transcript) => ({ ...t, words: t.words.filter((w) => Math.abs(w.start - SEAM) <= 1.5) });

  it('repeats no word at the seam that the whole file does not repeat there, and writes the whole file’s words', () => {
    // Counted near the seam only: elsewhere a repeat is the engine's reading of the radio phrase, and which of the two
    // readings says "a a" depends on the CPU's arithmetic (the whole file on a Zen 4 machine, the chunked path on a
    // newer EPYC with the same portable kernels; engines/transcription/README.md, "Same audio, same transcript").
    expect(repeats(words(nearSeam(stitched)))).toBeLessThanOrEqual(repeats(words(nearSeam(whole))));
    const ref = words(whole);
    // Measured (portable kernels): 0.121, 4 of the whole file's 33 words, where the two readings of one radio
    // phrase differ ("a a large -tec headphone USB" whole, "a The Logitech Headphone USB -C" chunked); 0.667 before
    // the stitcher dropped the loop (14 words inserted).
    expect(wordEditDistance(ref, words(stitched)) / ref.length).toBeLessThanOrEqual(0.15);
    // And nothing is left at the seam that the engine could not place in the audio.
    expect(stitched.words.filter((w) => w.end - w.start < 0.02 && Math.abs(w.start - SEAM) < 0.1)).toEqual([]);
  });
  it('gives hyphenated words whole: the engine\'s "USB", "-C" is one word "USB-C" in words, segments and subtitles', () => {
    // faster-whisper starts a word at a hyphen (" USB", "-C"; " large", "-tec" in the whole file's reading).
    const pieces = (t: Transcript) => t.words.filter((w) => /^[-\u2010\u2011]\p{L}/u.test(w.word)).map((w) => w.word);
    expect(pieces(stitched)).toEqual([]);
    expect(pieces(whole)).toEqual([]);
    // Whether a reading hears the "-C" at all depends on the CPU's arithmetic too (the chunked one did on a Zen 4
    // machine, neither did on a newer EPYC): a hyphenated word that is there is whole in the subtitles as well. The
    // joining itself is tested on the engine's pieces in test/unit/domain/transcript-words.test.ts.
    const hyphenated = (t: Transcript) =>
      t.words.map((w) => w.word).filter((w) => /\p{L}[-\u2010\u2011]\p{L}/u.test(w));
    for (const t of [stitched, whole]) {
      const texts = [
        ...t.segments.map((s) => s.text),
        ...transcriptToSrt(t).split('\n'),
        ...transcriptToVtt(t).split('\n'),
      ];
      for (const text of texts) expect(text, text).not.toMatch(/\s[-\u2010\u2011]\p{L}/u);
    }
    for (const t of [stitched, whole])
      for (const w of hyphenated(t)) expect(transcriptToSrt(t)).toContain(w.replace(/[,.]$/u, ''));
    // The worker says which words faster-whisper began with a space: every whole word here did (the join used it).
    for (const t of [stitched, whole]) expect(t.words.filter((w) => w.spaced !== true)).toEqual([]);
  });
});
