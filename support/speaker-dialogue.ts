import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SENTENCES } from './speech-corpus.js';
import { seededRandom } from './random.js';

export { seededRandom };

const run = promisify(execFile);

/** An espeak-ng voice: a voice with a variant (`en-us+m3`), a base pitch (0–99) and a speed (words per minute). */
export interface DialogueVoice {
  voice: string;
  pitch: number;
  speed: number;
}

/**
 * Voices far enough apart for the Resemblyzer encoder (engines/transcription/README.md, "Speakers": pairs of
 * espeak-ng voices measured 0.53–0.70 apart here, where en-us against en-gb+f3 measured 0.89, as similar as one
 * voice to itself). The first two, three or four make the test dialogues.
 */
export const DIALOGUE_VOICES: readonly DialogueVoice[] = [
  { voice: 'en-us+m3', pitch: 30, speed: 160 },
  { voice: 'en+f2', pitch: 70, speed: 150 },
  { voice: 'en-029+f4', pitch: 60, speed: 170 },
  { voice: 'en-us+klatt', pitch: 50, speed: 150 },
];

/** A true speech stretch of a dialogue: seconds on the file's timeline, espeak-ng's silent lead-in and tail trimmed. */
export interface TruthTurn {
  start: number;
  end: number;
  speaker: number;
  text: string;
}

export interface Dialogue {
  path: string;
  duration: number;
  turns: TruthTurn[];
}

const WORDS = SENTENCES.join(' ').replace(/[.,]/g, '').split(/\s+/);

/** Samples of a 16-bit mono PCM WAV file and its rate. */
async function readPcm(path: string): Promise<{ samples: Int16Array; rate: number }> {
  const buf = await readFile(path);
  let offset = 12;
  let rate = 0;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    if (id === 'fmt ') rate = buf.readUInt32LE(offset + 12);
    if (id === 'data') {
      const bytes = Math.min(size, buf.length - offset - 8) & ~1;
      const samples = new Int16Array(bytes / 2);
      for (let i = 0; i < samples.length; i++) samples[i] = buf.readInt16LE(offset + 8 + 2 * i);
      return { samples, rate };
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error(`${path}: no data chunk`);
}

/** A 16-bit mono PCM WAV file of the samples. */
export function wavFile(samples: Int16Array, rate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length * 2, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.length * 2, 40);
  return Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)]);
}

export interface DialogueSpec {
  voices: readonly DialogueVoice[];
  turns: number;
  seed: number;
  /** Spoken length of a turn, drawn uniformly (seconds, roughly: the word count is drawn from it). Default 1–10. */
  minTurnSeconds?: number;
  maxTurnSeconds?: number;
  /** Silence between turns, drawn uniformly. Default 0.3–0.8 s. */
  minPauseSeconds?: number;
  maxPauseSeconds?: number;
}

/**
 * A dialogue of espeak-ng voices (22.05 kHz 16-bit WAV): turns of random length (words from SENTENCES), never the
 * same voice twice in a row, short pauses between them; with the true speech window of each turn.
 */
export async function makeDialogue(dir: string, name: string, spec: DialogueSpec): Promise<Dialogue> {
  const random = seededRandom(spec.seed);
  const [minTurn, maxTurn] = [spec.minTurnSeconds ?? 1, spec.maxTurnSeconds ?? 10];
  const [minPause, maxPause] = [spec.minPauseSeconds ?? 0.3, spec.maxPauseSeconds ?? 0.8];
  const pieces: Int16Array[] = [];
  const turns: TruthTurn[] = [];
  let rate = 0;
  let length = 0;
  let previous = -1;
  let cursor = Math.floor(random() * WORDS.length);
  for (let t = 0; t < spec.turns; t++) {
    let speaker = Math.floor(random() * spec.voices.length);
    if (speaker === previous)
      speaker = (speaker + 1 + Math.floor(random() * (spec.voices.length - 1))) % spec.voices.length;
    if (t < spec.voices.length && spec.voices.length > 1) speaker = t; // every voice speaks early on
    previous = speaker;
    const v = spec.voices[speaker]!;
    const seconds = minTurn + random() * (maxTurn - minTurn);
    const count = Math.max(1, Math.round((seconds * v.speed) / 60));
    const words = Array.from({ length: count }, (_, k) => WORDS[(cursor + k) % WORDS.length]!);
    cursor = (cursor + count) % WORDS.length;
    const part = join(dir, `${name}-part.wav`);
    await run('espeak-ng', ['-v', v.voice, '-p', String(v.pitch), '-s', String(v.speed), '-w', part, words.join(' ')]);
    const pcm = await readPcm(part);
    await rm(part, { force: true });
    rate ||= pcm.rate;
    if (pcm.rate !== rate) throw new Error('espeak-ng voices at different rates');
    let first = 0;
    let last = pcm.samples.length - 1;
    while (first < last && Math.abs(pcm.samples[first]!) < 300) first++;
    while (last > first && Math.abs(pcm.samples[last]!) < 300) last--;
    const speech = pcm.samples.subarray(first, last + 1);
    const pause = t === 0 ? 0.5 : minPause + random() * (maxPause - minPause);
    const silence = new Int16Array(Math.round(pause * rate));
    pieces.push(silence, speech);
    const start = (length + silence.length) / rate;
    length += silence.length + speech.length;
    turns.push({ start, end: length / rate, speaker, text: words.join(' ') });
  }
  const tail = new Int16Array(Math.round(0.5 * rate));
  pieces.push(tail);
  length += tail.length;
  const all = new Int16Array(length);
  let at = 0;
  for (const p of pieces) {
    all.set(p, at);
    at += p.length;
  }
  const path = join(dir, `${name}.wav`);
  await writeFile(path, wavFile(all, rate));
  return { path, duration: length / rate, turns };
}
