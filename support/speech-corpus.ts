import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
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
export async function spokenClip(
  dir: string,
  name: string,
  sentences: string[],
  voice: string,
  speed: number,
  gapSeconds = 0.8,
): Promise<SpokenClip> {
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
  const pads = parts
    .map((_, i) => (i < parts.length - 1 ? `[${i}]apad=pad_dur=${gapSeconds}[p${i}];` : `[${i}]anull[p${i}];`))
    .join('');
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
  return { path, text: sentences.join(' '), voice, speed, duration: await wavDuration(path), utterances };
}

// ---- Robustness variants (test/unit/adapters/transcription/robustness-corpus.test.ts) ----
// Everything is made with ffmpeg's own sources and filters (anoisesrc with a fixed seed, aevalsrc, aresample), so a
// variant is the same file on every run and no other tool is needed.

const FFMPEG = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'];

async function ffmpeg(args: string[]): Promise<string> {
  const { stderr } = await run('ffmpeg', [...FFMPEG, ...args], { maxBuffer: 16 * 1024 * 1024 });
  return stderr;
}

/** The RMS level of a whole file in dBFS (ffmpeg volumedetect's `mean_volume`). */
export async function meanVolumeDb(path: string): Promise<number> {
  const { stderr } = await run(
    'ffmpeg',
    ['-nostdin', '-hide_banner', '-i', path, '-af', 'volumedetect', '-f', 'null', '-'],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const match = /mean_volume:\s*(-?[\d.]+|-inf) dB/.exec(stderr);
  if (!match) throw new Error(`${path}: no mean_volume in ffmpeg's output`);
  return match[1] === '-inf' ? -Infinity : Number(match[1]);
}

/**
 * What ffprobe says about a file: its container duration, and the duration and start time of its first audio stream
 * (seconds; null without one). For MP3 the stream's duration counts whole frames from its start time, i.e. with the
 * encoder's delay (`start_time`, about 50 ms for LAME) and padding, which decoders drop (LAME's gapless header).
 */
export async function ffprobeDurations(
  path: string,
): Promise<{ format: number; audio: number | null; audioStart: number | null }> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration:stream=codec_type,duration,start_time',
    '-of',
    'json',
    path,
  ]);
  const parsed = JSON.parse(stdout) as {
    format?: { duration?: string };
    streams?: { codec_type?: string; duration?: string; start_time?: string }[];
  };
  const audio = parsed.streams?.find((s) => s.codec_type === 'audio');
  const num = (v: string | undefined) => (v === undefined || v === 'N/A' ? null : Number(v));
  return { format: Number(parsed.format?.duration), audio: num(audio?.duration), audioStart: num(audio?.start_time) };
}

/**
 * The clip with white or pink noise mixed in at `snrDb` (the noise's RMS that many dB under the clip's overall RMS,
 * pauses included). Both are lowered by 6 dB first so the mix cannot clip. Fixed seed: the same noise every run.
 */
export async function withNoise(
  clip: SpokenClip,
  color: 'white' | 'pink',
  snrDb: number,
  out: string,
): Promise<string> {
  const noise = `${out}.noise.wav`;
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=color=${color}:amplitude=0.1:seed=16:sample_rate=22050:duration=${clip.duration.toFixed(3)}`,
    '-ac',
    '1',
    '-c:a',
    'pcm_s16le',
    noise,
  ]);
  const gainDb = (await meanVolumeDb(clip.path)) - snrDb - (await meanVolumeDb(noise)) - 6;
  await ffmpeg([
    '-i',
    clip.path,
    '-i',
    noise,
    '-filter_complex',
    `[0:a]volume=-6dB[s];[1:a]volume=${gainDb.toFixed(2)}dB[n];[s][n]amix=inputs=2:normalize=0:duration=first[out]`,
    '-map',
    '[out]',
    '-c:a',
    'pcm_s16le',
    out,
  ]);
  return out;
}

/** Telephone quality: resampled to 8 kHz (everything above 4 kHz gone) and back to the clip's 22.05 kHz. */
export async function telephone(clip: SpokenClip, out: string): Promise<string> {
  await ffmpeg(['-i', clip.path, '-af', 'aresample=8000,aresample=22050', '-c:a', 'pcm_s16le', out]);
  return out;
}

export type Container = 'mp3' | 'm4a' | 'mp4' | 'ogg';

/**
 * The clip in another container: MP3 (LAME 64 kbit/s), M4A (AAC 64 kbit/s), MP4 (AAC beside a still grey H.264
 * video track as long as the audio), Ogg (Vorbis). `out` gets the matching extension.
 */
export async function encodeAs(clip: SpokenClip, container: Container, out: string): Promise<string> {
  const codec: Record<Container, string[]> = {
    mp3: ['-c:a', 'libmp3lame', '-b:a', '64k'],
    m4a: ['-c:a', 'aac', '-b:a', '64k'],
    mp4: ['-c:a', 'aac', '-b:a', '64k'],
    ogg: ['-c:a', 'libvorbis', '-q:a', '3'],
  };
  const video =
    container === 'mp4' ? ['-f', 'lavfi', '-i', `color=c=gray:s=160x120:r=10:d=${clip.duration.toFixed(3)}`] : [];
  const maps =
    container === 'mp4'
      ? ['-map', '1:a:0', '-map', '0:v:0', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']
      : [];
  await ffmpeg([...video, '-i', clip.path, ...maps, ...codec[container], out]);
  return out;
}

/** Digital silence, 16 kHz mono. */
export async function silenceFile(out: string, seconds: number): Promise<string> {
  await ffmpeg(['-f', 'lavfi', '-i', `anullsrc=r=16000:cl=mono`, '-t', String(seconds), '-c:a', 'pcm_s16le', out]);
  return out;
}

/**
 * Music without speech, 22.05 kHz mono: four plucked-sounding major/minor chords of 1.5 s (three notes with two
 * overtones each, decaying), then a 440/660 Hz two-tone beep pattern of 2 s: 8 s in all.
 */
export async function musicFile(out: string): Promise<string> {
  const chords = [
    [261.63, 329.63, 392.0], // C major
    [220.0, 261.63, 329.63], // A minor
    [174.61, 220.0, 261.63], // F major
    [196.0, 246.94, 293.66], // G major
  ];
  const note = (f: number) => `sin(2*PI*${f}*t)+0.5*sin(4*PI*${f}*t)+0.25*sin(6*PI*${f}*t)`;
  const inputs = chords.flatMap((c) => [
    '-f',
    'lavfi',
    '-i',
    `aevalsrc=0.12*(${c.map(note).join('+')})*exp(-2*t):s=22050:d=1.5`,
  ]);
  inputs.push(
    '-f',
    'lavfi',
    '-i',
    `aevalsrc=0.3*sin(2*PI*if(lt(mod(t\\,0.5)\\,0.25)\\,440\\,660)*t)*lt(mod(t\\,0.25)\\,0.2):s=22050:d=2`,
  );
  const n = chords.length + 1;
  await ffmpeg([
    ...inputs,
    '-filter_complex',
    `${Array.from({ length: n }, (_, i) => `[${i}:a]`).join('')}concat=n=${n}:v=0:a=1[out]`,
    '-map',
    '[out]',
    '-ac',
    '1',
    '-c:a',
    'pcm_s16le',
    out,
  ]);
  return out;
}

/** An MP4 with a 3 s H.264 video track and no audio stream. */
export async function videoOnlyFile(out: string): Promise<string> {
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'testsrc=s=160x120:r=10:d=3',
    '-an',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    out,
  ]);
  return out;
}

/** The first `fraction` of another file's bytes (an M4A cut before its index, the `moov` box ffmpeg writes last). */
export async function truncatedCopy(source: string, fraction: number, out: string): Promise<string> {
  const bytes = await readFile(source);
  await writeFile(out, bytes.subarray(0, Math.floor(bytes.length * fraction)));
  return out;
}

/** Bytes that are no media at all (a fixed pseudo-random pattern), under an audio file name. */
export async function garbageFile(out: string, size = 64 * 1024): Promise<string> {
  const bytes = Buffer.alloc(size);
  let x = 0x2545f491;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  await writeFile(out, bytes);
  return out;
}

/**
 * Memoises the files a test generates in its temporary folder: the first call for a name makes the file, later
 * calls (and concurrent ones) get the same promise, so variants share one base recording and nothing is made twice.
 */
export function fileCache(): <T>(name: string, make: () => Promise<T>) => Promise<T> {
  const made = new Map<string, Promise<unknown>>();
  return <T>(name: string, make: () => Promise<T>) => {
    let p = made.get(name) as Promise<T> | undefined;
    if (!p) {
      p = make();
      made.set(name, p);
    }
    return p;
  };
}
