import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Known sentences (no digits, so the truth has one spelling) spoken by espeak-ng in the speech tests. */
export const SENTENCES = [
  'The quick brown fox jumps over the lazy dog.',
  'Please send the invoice to the finance team before Friday.',
  'She opened the window and the cold air filled the room.',
  'We agreed to review the budget again next week.',
  'The train was late, so everyone waited on the platform.',
  'Our new office is close to the river and the old market.',
];

/** Two espeak-ng voices at two speeds (words per minute). */
export const VOICES = [
  { voice: 'en-us', speed: 165 },
  { voice: 'en-gb+f3', speed: 135 },
] as const;

export interface SpokenClip {
  path: string;
  text: string;
  voice: string;
  speed: number;
  /** Seconds; the whole file. */
  duration: number;
  /** Where each sentence's audio lies in the file (espeak-ng's own short lead-in and tail silence included). */
  utterances: { start: number; end: number; text: string }[];
}

/** Duration of a PCM WAV file from its `fmt ` and `data` chunks. */
export async function wavDuration(path: string): Promise<number> {
  const buf = await readFile(path);
  let offset = 12;
  let byteRate = 0;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    if (id === 'fmt ') byteRate = buf.readUInt32LE(offset + 16);
    if (id === 'data') return Math.min(size, buf.length - offset - 8) / byteRate;
    offset += 8 + size + (size % 2);
  }
  throw new Error(`${path}: no data chunk`);
}

export async function speak(text: string, voice: string, speed: number, out: string): Promise<void> {
  await run('espeak-ng', ['-v', voice, '-s', String(speed), '-w', out, text]);
}

/**
 * One clip: the given sentences spoken one after the other with `gapSeconds` of silence between them, as a
 * 16-bit PCM WAV at espeak-ng's rate (22.05 kHz), with the true window of each sentence.
 */
export async function spokenClip(dir: string, name: string, sentences: string[], voice: string, speed: number, gapSeconds = 0.8): Promise<SpokenClip> {
  const parts: string[] = [];
  const utterances: SpokenClip['utterances'] = [];
  let t = 0;
  for (const [i, sentence] of sentences.entries()) {
    const part = join(dir, `${name}-${i}.wav`);
    await speak(sentence, voice, speed, part);
    const d = await wavDuration(part);
    utterances.push({ start: t, end: t + d, text: sentence });
    t += d + gapSeconds;
    parts.push(part);
  }
  const path = join(dir, `${name}.wav`);
  const inputs = parts.flatMap((p) => ['-i', p]);
  const pads = parts.map((_, i) => (i < parts.length - 1 ? `[${i}]apad=pad_dur=${gapSeconds}[p${i}];` : `[${i}]anull[p${i}];`)).join('');
  const filter = `${pads}${parts.map((_, i) => `[p${i}]`).join('')}concat=n=${parts.length}:v=0:a=1[out]`;
  await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', ...inputs, '-filter_complex', filter, '-map', '[out]', '-c:a', 'pcm_s16le', path]);
  return { path, text: sentences.join(' '), voice, speed, duration: await wavDuration(path), utterances };
}
