/**
 * Chunked transcription (the API's path: chunking.ts's planner, one engine request per chunk, stitch.ts) against
 * the engine on the whole file, on conversations with overlapping speech (issue 30 items 4 and 5). Per mode, WER over
 * all turns and over the overlapped turns only (a turn that overlaps another), and the chunked path's errors split
 * by kind and place: insertions within SEAM_SECONDS of a seam or elsewhere, deletions in short turns (at most
 * SHORT_TURN_WORDS words) or longer ones, substitutions.
 *
 *   npx tsx bench/speech-corpus/wer-chunked.ts [--chunk-seconds 10] [--out DIR]          # TUNE voices only
 *   npx tsx bench/speech-corpus/wer-chunked.ts --held-out                               # held-out: totals only
 *
 * Modes (`-s11`: the same chunks stitched as before session 12, `dropUnplacedWords: false`, so one run gives both):
 * `whole` (one request per file, what the API does below 10 minutes), `silences` (the planner with
 * TRANSCRIPTION_CHUNK_SECONDS = --chunk-seconds, the smallest allowed by default, so these short conversations have
 * seams: each seam then behaves as one of a long recording's), `hard` (the same lengths with no silence found: hard
 * cuts every max seconds with the 2 s overlap, as on a recording whose background noise never falls under
 * silencedetect's level, e.g. a meeting room).
 *
 * Tune (default): wer-causes.ts's five conversations of the tune split's English voices (Common Voice, LibriSpeech,
 * codec2 radio voices: a piece without a transcript is referenced by the engine's transcript of that piece alone)
 * and the corpus's tune WER file; per-file rows. --held-out: the corpus's held-out WER files, aggregates only (run
 * once, at a final commit; never tuned on).
 * The engine's answers are cached in --out by the SHA-256 of the WAV and of worker.py and the model's lock, so a
 * change to the stitcher or the planner only re-runs what it changes.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chunkLengths } from '../../domain/speech.js';
import {
  extractChunk,
  planAudioChunks,
  planChunks,
  type AudioChunk,
} from '../../adapters/providers/transcription/chunking.js';
import { OfflineWhisperProvider } from '../../adapters/providers/transcription/offline-whisper.provider.js';
import { stitchTranscripts, type ChunkTranscript } from '../../adapters/providers/transcription/stitch.js';
import type { Transcript } from '../../adapters/providers/transcription/transcription-provider.js';
import { alignWords, scoringWords } from '../../support/wer.js';
import { loadSpeechCorpus, mix, wav16k } from './corpus.js';
import { availableSpecs, tuneEnglishPieces } from './tune-conversations.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ENGINE = join(HERE, '../../engines/transcription');
const { values } = parseArgs({
  options: {
    out: { type: 'string', default: '/tmp/paycore-wer-chunked' },
    'chunk-seconds': { type: 'string', default: '10' },
    'held-out': { type: 'boolean', default: false },
    show: { type: 'string' },
  },
});
const out = values.out!;
const heldOut = values['held-out']!;
const lengths = chunkLengths(Number(values['chunk-seconds']));
await mkdir(out, { recursive: true });

/** An insertion this close to a seam (seconds) counts as the seam's. */
const SEAM_SECONDS = 1.5;
/** A turn of at most this many reference words is short. */
const SHORT_TURN_WORDS = 3;

const engineKey = createHash('sha256')
  .update(await readFile(join(ENGINE, 'worker.py')))
  .update(await readFile(join(ENGINE, 'model.lock.json')))
  .digest('hex')
  .slice(0, 10);
const provider = new OfflineWhisperProvider({ timeoutMs: 900_000, cpuThreads: 2, cpuKernels: 'portable' });
let engineSeconds = 0;
let engineAudio = 0;

/** The engine's transcript of a WAV, cached by content. */
async function transcribe(path: string): Promise<Transcript> {
  const key = createHash('sha256')
    .update(await readFile(path))
    .update(engineKey)
    .digest('hex')
    .slice(0, 16);
  const cache = join(out, `answer-${key}.json`);
  if (existsSync(cache)) return JSON.parse(await readFile(cache, 'utf8')) as Transcript;
  const t0 = performance.now();
  const t = await provider.transcribe({ path, language: 'en' });
  engineSeconds += (performance.now() - t0) / 1000;
  engineAudio += t.duration;
  await writeFile(cache, JSON.stringify(t));
  return t;
}

async function chunked(path: string, chunks: AudioChunk[], duration: number, before: boolean): Promise<Transcript> {
  const work = await mkdtemp(join(out, 'chunks-'));
  try {
    const parts: ChunkTranscript[] = [];
    for (const chunk of chunks) {
      const wav = join(work, `chunk-${chunk.index}.wav`);
      await extractChunk(path, chunk, wav);
      parts.push({ chunk, transcript: await transcribe(wav) });
    }
    return stitchTranscripts(parts, duration, { dropUnplacedWords: !before });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

interface Turn {
  start: number;
  end: number;
  text: string;
}
interface File {
  id: string;
  path: string;
  turns: Turn[];
}

const files: File[] = [];
if (heldOut) {
  for (const c of await loadSpeechCorpus())
    if (c.split === 'held-out' && c.text !== null)
      files.push({ id: c.id, path: c.path, turns: c.turns.map((t) => ({ ...t, text: t.text! })) });
} else {
  for (const c of await loadSpeechCorpus())
    if (c.split === 'tune' && c.text !== null)
      files.push({ id: c.id, path: c.path, turns: c.turns.map((t) => ({ ...t, text: t.text! })) });
  // wer-causes.ts's conversations (same specs and seeds).
  const pieces = await tuneEnglishPieces(out);
  const specs = availableSpecs(pieces);
  for (const spec of specs) {
    const m = mix(spec, pieces);
    const path = join(out, `${spec.id}.wav`);
    await writeFile(path, wav16k(m.samples));
    const turns: Turn[] = [];
    for (const [i, t] of m.turns.entries()) {
      const piece = m.pieceOfTurn[i]!;
      let text = piece.text;
      if (text === null) {
        const file = join(out, `piece-${createHash('sha256').update(piece.samples).digest('hex').slice(0, 12)}.wav`);
        await writeFile(file, wav16k(piece.samples));
        text = (await transcribe(file)).words.map((w) => w.word).join(' ');
      }
      turns.push({ start: t.start, end: t.end, text });
    }
    files.push({ id: spec.id, path, turns });
  }
}

// `…-s11`: the same chunks' answers stitched as before session 12 (a repetition loop piled at a chunk's end kept).
// `api`: the API at the default TRANSCRIPTION_CHUNK_SECONDS (300): these files are one chunk each, whose transcript
// (the whole file's: the same samples) still goes through the stitcher.
type Mode = 'whole' | 'api' | 'silences' | 'hard' | 'silences-s11' | 'hard-s11';
const MODES: Mode[] = ['whole', 'api', 'silences-s11', 'silences', 'hard-s11', 'hard'];
interface Tally {
  words: number;
  edits: number;
  overlapWords: number;
  overlapEdits: number;
  S: number;
  D: number;
  I: number;
  seamI: number;
  shortD: number;
  shortTurns: number;
  shortTurnsLost: number;
  seams: number;
}
const tally = (): Tally => ({
  words: 0,
  edits: 0,
  overlapWords: 0,
  overlapEdits: 0,
  S: 0,
  D: 0,
  I: 0,
  seamI: 0,
  shortD: 0,
  shortTurns: 0,
  shortTurnsLost: 0,
  seams: 0,
});
const totals = new Map<Mode, Tally>(MODES.map((m) => [m, tally()]));

function score(file: File, t: Transcript, seams: number[], into: Tally): Tally {
  const mine = tally();
  const ref: { word: string; turn: number }[] = [];
  file.turns.forEach((turn, i) => {
    for (const word of scoringWords(turn.text)) ref.push({ word, turn: i });
  });
  const overlapped = file.turns.map((t1, i) =>
    file.turns.some((t2, k) => k !== i && t2.start < t1.end && t2.end > t1.start),
  );
  const words = t.words.flatMap((w) => scoringWords(w.word).map((word) => ({ word, middle: (w.start + w.end) / 2 })));
  const steps = alignWords(
    ref.map((r) => r.word),
    words.map((w) => w.word),
  );
  const turnAt = (time: number) => {
    let best = 0;
    let d = Infinity;
    file.turns.forEach((turn, i) => {
      const dist = time < turn.start ? turn.start - time : time > turn.end ? time - turn.end : 0;
      if (dist < d) [best, d] = [i, dist];
    });
    return best;
  };
  const lengthOf = file.turns.map((_, i) => ref.filter((r) => r.turn === i).length);
  const heard = file.turns.map(() => 0);
  for (const s of steps) {
    if (s.op === 'C') heard[ref[s.ref]!.turn]!++;
    if (s.op === 'C') continue;
    mine[s.op]++;
    mine.edits++;
    const turn = s.op === 'I' ? turnAt(words[s.hyp]!.middle) : ref[s.ref]!.turn;
    if (overlapped[turn]) mine.overlapEdits++;
    if (s.op === 'I' && seams.some((x) => Math.abs(words[s.hyp]!.middle - x) <= SEAM_SECONDS)) mine.seamI++;
    if (s.op === 'D' && lengthOf[turn]! <= SHORT_TURN_WORDS) mine.shortD++;
  }
  mine.words = ref.length;
  mine.overlapWords = ref.filter((r) => overlapped[r.turn]).length;
  mine.shortTurns = lengthOf.filter((n) => n > 0 && n <= SHORT_TURN_WORDS).length;
  mine.shortTurnsLost = lengthOf.filter((n, i) => n > 0 && n <= SHORT_TURN_WORDS && heard[i] === 0).length;
  mine.seams = seams.length;
  for (const k of Object.keys(mine) as (keyof Tally)[]) into[k] += mine[k];
  return mine;
}

const row = (name: string, mode: string, f: Tally) =>
  `${name.padEnd(24)} ${mode.padEnd(12)} ${String(f.words).padStart(5)} ${(f.edits / f.words).toFixed(3)} ${String(f.overlapWords).padStart(5)} ${f.overlapWords ? (f.overlapEdits / f.overlapWords).toFixed(3) : '  -  '} ${String(f.S).padStart(3)} ${String(f.D).padStart(3)} ${String(f.I).padStart(3)} ${String(f.seamI).padStart(4)} ${String(f.shortD).padStart(4)} ${`${f.shortTurnsLost}/${f.shortTurns}`.padStart(6)} ${String(f.seams).padStart(5)}`;
const header = `${'file'.padEnd(24)} ${'mode'.padEnd(12)} words   WER  ovl-w ovl-WER   S   D   I seamI shortD lost/short seams`;

try {
  if (!heldOut) console.log(header);
  for (const file of files) {
    const plan = await planAudioChunks(file.path, { chunking: lengths });
    const hard = planChunks(plan.duration, [], lengths);
    for (const mode of MODES) {
      const chunks = mode.startsWith('silences') ? plan.chunks : mode.startsWith('hard') ? hard : null;
      let t: Transcript;
      if (chunks) t = await chunked(file.path, chunks, plan.duration, mode.endsWith('-s11'));
      else if (mode === 'api' && planChunks(plan.duration, plan.silences, chunkLengths(300)).length === 1)
        t = stitchTranscripts(
          [{ chunk: { index: 0, start: 0, end: plan.duration }, transcript: await transcribe(file.path) }],
          plan.duration,
        );
      else if (mode === 'api') throw new Error(`${file.id} is longer than one default chunk`);
      else t = await transcribe(file.path);
      const seams = (chunks ?? []).slice(1).map((c, i) => {
        const prev = chunks![i]!;
        return c.start < prev.end ? (c.start + prev.end) / 2 : c.start;
      });
      const f = score(file, t, seams, totals.get(mode)!);
      if (!heldOut && values.show === file.id) {
        // Tune only: the words with their times, the seams and the reference turns, to see where the errors lie.
        console.log(`-- ${file.id} ${mode}: chunks ${(chunks ?? []).map((c) => `${c.start}–${c.end}`).join(', ')}`);
        for (const turn of file.turns)
          console.log(`   ref ${turn.start.toFixed(2)}–${turn.end.toFixed(2)} ${turn.text}`);
        console.log(`   hyp ${t.words.map((w) => `${w.word}@${w.start.toFixed(2)}`).join(' ')}`);
      }
      if (!heldOut) console.log(row(file.id, mode, f));
    }
  }
} finally {
  await provider.close();
}
console.log(
  `\n${heldOut ? 'HELD-OUT' : 'tune'} totals (${files.length} files; chunk lengths ${lengths.minSeconds}–${lengths.maxSeconds} s, target ${lengths.targetSeconds} s, overlap ${lengths.overlapSeconds} s after a hard cut; seamI: insertions within ${SEAM_SECONDS} s of a seam; shortD: deletions in turns of ≤ ${SHORT_TURN_WORDS} words; lost/short: short turns without a correct word)`,
);
console.log(header);
for (const mode of MODES) console.log(row('all', mode, totals.get(mode)!));
if (engineAudio > 0) console.log(`engine: ${engineAudio.toFixed(0)} s of audio in ${engineSeconds.toFixed(0)} s`);
