/**
 * Where the words of whole-file transcription go wrong on conversations, on the TUNE split's voices only (the
 * held-out split is never looked at here): conversations of the tune split's English voices (Common Voice, LibriSpeech
 * and four 8 kHz codec2 radio voices) built by corpus.ts's mixer, transcribed as the bench and the worker do (one
 * request per file, Silero VAD on, language en), and each error of the word alignment (after the standard scoring
 * normalisation, support/wer.ts) put down to its turn: a turn that overlaps another, a turn Silero's speech chunks
 * mostly miss, or a turn inside them. The reference of a turn is its transcript when the source has one, else the
 * engine's own transcript of that piece alone (so the codec2 voices measure what the conversation costs, not their
 * acoustics).
 *
 *   npx tsx bench/speech-corpus/wer-causes.ts [--out DIR] [--answers FILE]
 *
 * `--answers FILE` scores an earlier run's answers (the engine is not run): how decoding variants were compared
 * without a second engine run of the pieces (their references stay those of the run the file came from).
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { defaultEngineLayout } from '../../adapters/providers/transcription/install-layout.js';
import { alignWords, scoringWords } from '../../support/wer.js';
import { mix, wav16k, type Piece } from './corpus.js';
import { availableSpecs, tuneEnglishPieces } from './tune-conversations.js';

const run = promisify(execFile);
const HERE = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: { out: { type: 'string', default: '/tmp/paycore-wer-causes' }, answers: { type: 'string' } },
});
const out = values.out!;
await mkdir(out, { recursive: true });

const pieces = await tuneEnglishPieces(out);
const SPECS = availableSpecs(pieces);

const pieceFiles = new Map<Piece, string>();
const conversations = [];
for (const spec of SPECS) {
  const m = mix(spec, pieces);
  const path = join(out, `${spec.id}.wav`);
  await writeFile(path, wav16k(m.samples));
  for (const p of m.pieceOfTurn)
    if (!p.text && !pieceFiles.has(p)) {
      const file = join(out, `piece-${p.voice}-${pieceFiles.size}.wav`);
      await writeFile(file, wav16k(p.samples));
      pieceFiles.set(p, file);
    }
  conversations.push({ spec, path, m });
}

const { python, modelDir } = defaultEngineLayout();
const answersPath = values.answers ?? join(out, 'answers.json');
const files = [...pieceFiles.values(), ...conversations.map((c) => c.path)];
const t0 = performance.now();
if (!values.answers)
  await run('nice', ['-n', '10', python, join(HERE, 'wer-causes.py'), modelDir, answersPath, ...files], {
    maxBuffer: 1 << 26,
  });
const answers = JSON.parse(await readFile(answersPath, 'utf8')) as Record<
  string,
  { words: string[]; temperatures: number[]; vad: [number, number][] }
>;
console.log(`engine: ${files.length} files in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);

type Cause = 'overlapped turn' | 'turn mostly outside the VAD' | 'turn inside the VAD';
const byCause = new Map<string, number>();
let [words, edits] = [0, 0];
console.log(`${'conversation'.padEnd(24)} words   S   D   I    WER  sampled`);
for (const { spec, path, m } of conversations) {
  const answer = answers[path]!;
  const ref: { word: string; cause: Cause }[] = [];
  m.turns.forEach((t, i) => {
    const piece = m.pieceOfTurn[i]!;
    const text = piece.text ?? answers[pieceFiles.get(piece)!]!.words.join(' ');
    const overlapped = m.turns.some((o, k) => k !== i && o.start < t.end && o.end > t.start);
    const kept = answer.vad.reduce((a, [s, e]) => a + Math.max(0, Math.min(e, t.end) - Math.max(s, t.start)), 0);
    const cause: Cause = overlapped
      ? 'overlapped turn'
      : kept < 0.5 * (t.end - t.start)
        ? 'turn mostly outside the VAD'
        : 'turn inside the VAD';
    for (const word of scoringWords(text)) ref.push({ word, cause });
  });
  const steps = alignWords(
    ref.map((r) => r.word),
    scoringWords(answer.words.join(' ')),
  );
  const count = { S: 0, D: 0, I: 0 };
  for (const s of steps) {
    if (s.op === 'C') continue;
    count[s.op]++;
    const key = `${s.op} ${s.op === 'I' ? '-' : ref[s.ref]!.cause}`;
    byCause.set(key, (byCause.get(key) ?? 0) + 1);
  }
  const e = count.S + count.D + count.I;
  [words, edits] = [words + ref.length, edits + e];
  console.log(
    `${spec.id.padEnd(24)} ${String(ref.length).padStart(5)} ${String(count.S).padStart(3)} ${String(count.D).padStart(3)} ${String(count.I).padStart(3)}  ${(e / ref.length).toFixed(3)}  ${answer.temperatures.some((x) => x > 0) ? 'yes' : 'no'}`,
  );
}
console.log(`${'all'.padEnd(24)} ${String(words).padStart(5)}               ${(edits / words).toFixed(3)}\n`);
console.log('errors by kind (S substitution, D deletion, I insertion) and the turn they fall in:');
for (const [k, v] of [...byCause].sort((a, b) => b[1] - a[1])) console.log(`  ${k.padEnd(36)} ${v}`);
