import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs ffmpeg with `args` (inputs and codecs) writing `out.<ext>` in a fresh folder; returns the bytes. */
export function ffmpegMake(ext: string, args: string[]): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'av-'));
  try {
    const out = join(dir, `out.${ext}`);
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args, out], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A VBR MP3 without a Xing header whose container duration lies: 10 s of silence (small frames) then `noiseSeconds`
 * of loud noise (large frames). ffprobe times it from the first frame's bitrate and states far more than it holds.
 */
export const lyingMp3 = (noiseSeconds = 40) =>
  ffmpegMake('mp3', [
    '-f',
    'lavfi',
    '-i',
    'anullsrc=r=44100:cl=mono:d=10',
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=r=44100:d=${noiseSeconds}:a=0.5`,
    '-filter_complex',
    '[0][1]concat=n=2:v=0:a=1',
    '-c:a',
    'libmp3lame',
    '-q:a',
    '2',
    '-write_xing',
    '0',
  ]);

/** A test video: testsrc pictures (`size`, `fps`) with a sine tone, `seconds` long, H.264 + AAC in MP4 unless `codec` says otherwise. */
export const testVideo = (
  seconds: number,
  o: { size?: string; fps?: number; ext?: string; codec?: string[]; extra?: string[] } = {},
) =>
  ffmpegMake(o.ext ?? 'mp4', [
    '-f',
    'lavfi',
    '-i',
    `testsrc=d=${seconds}:s=${o.size ?? '320x240'}:r=${o.fps ?? 25}`,
    '-f',
    'lavfi',
    '-i',
    `sine=f=440:d=${seconds}`,
    ...(o.codec ?? [
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-crf',
      '18',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '192k',
    ]),
    ...(o.extra ?? []),
    '-shortest',
  ]);

/** A sine tone of `seconds` in the format of `ext` (mp3, wav, m4a, flac, ogg). */
export const testAudio = (seconds: number, ext: string, codec: string[] = []) =>
  ffmpegMake(ext, ['-f', 'lavfi', '-i', `sine=f=440:d=${seconds}:sample_rate=44100`, ...codec]);

/** ffprobe's JSON of a file's format and streams. */
export function ffprobe(
  bytes: Uint8Array,
  ext: string,
): {
  format: { duration?: string; format_name?: string };
  streams: Array<
    Record<string, unknown> & {
      codec_type: string;
      width?: number;
      height?: number;
      duration?: string;
      side_data_list?: Array<{ rotation?: number }>;
    }
  >;
} {
  const dir = mkdtempSync(join(tmpdir(), 'av-probe-'));
  try {
    const path = join(dir, `in.${ext}`);
    writeFileSync(path, bytes);
    return JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', path]).toString(),
    ) as ReturnType<typeof ffprobe>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Decodes every audio and video frame of a file (fails on a broken stream); returns the decoded duration in seconds. */
export function decodeAll(bytes: Uint8Array, ext: string): number {
  const dir = mkdtempSync(join(tmpdir(), 'av-decode-'));
  try {
    const path = join(dir, `in.${ext}`);
    writeFileSync(path, bytes);
    const out = execFileSync(
      'ffmpeg',
      ['-nostdin', '-v', 'error', '-xerror', '-i', path, '-f', 'null', '-progress', 'pipe:1', '-nostats', '-'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    ).toString();
    const times = [...out.matchAll(/out_time_us=(\d+)/g)].map((m) => Number(m[1]));
    return Math.max(0, ...times) / 1e6;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same MP4 remuxed (no re-encode) with a display rotation flag of `degrees`, as a phone records it. */
export function withRotationFlag(mp4: Buffer, degrees: number): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'av-rot-'));
  try {
    const input = join(dir, 'in.mp4');
    writeFileSync(input, mp4);
    return ffmpegMake('mp4', ['-i', input, '-map', '0', '-c', 'copy', '-metadata:s:v:0', `rotate=${degrees}`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Where silence ends (seconds) in a file, by ffmpeg's silencedetect (-50 dB, 0.5 s); null when it never does. */
export function silenceEnds(bytes: Uint8Array, ext: string): number[] {
  const dir = mkdtempSync(join(tmpdir(), 'av-silence-'));
  try {
    const path = join(dir, `in.${ext}`);
    writeFileSync(path, bytes);
    const r = spawnSync(
      'ffmpeg',
      ['-nostdin', '-hide_banner', '-i', path, '-af', 'silencedetect=n=-50dB:d=0.5', '-f', 'null', '-'],
      { encoding: 'utf8' },
    );
    return [...r.stderr.matchAll(/silence_end: ([\d.]+)/g)].map((m) => Number(m[1]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A video of solid colours, one after the other: `[['red', 1], ['lime', 1]]`, 25 fps, with a tone, H.264 + AAC in MP4. */
export function colourVideo(parts: Array<[string, number]>): Buffer {
  const total = parts.reduce((s, [, d]) => s + d, 0);
  const inputs = parts.flatMap(([c, d]) => ['-f', 'lavfi', '-i', `color=c=${c}:s=160x120:r=25:d=${d}`]);
  const chain = `${parts.map((_, i) => `[${i}:v]`).join('')}concat=n=${parts.length}:v=1:a=0[v]`;
  return ffmpegMake('mp4', [
    ...inputs,
    '-f',
    'lavfi',
    '-i',
    `sine=d=${total}`,
    '-filter_complex',
    chain,
    '-map',
    '[v]',
    '-map',
    `${parts.length}:a`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
  ]);
}

/** The average colour [r, g, b] of the frame shown at `seconds` (the last frame when `seconds` is negative: from the end). */
export function frameColour(bytes: Uint8Array, ext: string, seconds: number): number[] {
  const dir = mkdtempSync(join(tmpdir(), 'av-frame-'));
  try {
    const path = join(dir, `in.${ext}`);
    writeFileSync(path, bytes);
    const seek = seconds < 0 ? ['-sseof', String(seconds)] : ['-ss', String(seconds)];
    const out = execFileSync('ffmpeg', [
      '-nostdin',
      '-v',
      'error',
      ...seek,
      '-i',
      path,
      '-frames:v',
      '1',
      '-vf',
      'scale=1:1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ]);
    return [...out.subarray(0, 3)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Sources that name other files, each with one byte that is not UTF-8 (0xFF) in a comment or title, so an upload's text
 * check passes them on to ffprobe: an HLS playlist naming `mp3` (an absolute path), a DASH manifest naming `mp4`
 * (declared ISO-8859-1, so the XML parser takes the byte), and an ffconcat list naming `concatName` (relative: the
 * concat demuxer's default `safe` mode refuses absolute paths, so it resolves next to the list). Keyed by file name.
 */
export function mediaManifests(o: { mp3: string; mp4: string; concatName: string }): Array<[string, Buffer]> {
  const ff = Buffer.from([0xff]);
  return [
    [
      'playlist.m3u8',
      Buffer.concat([
        Buffer.from('#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:3.0,'),
        ff,
        Buffer.from(`\n${o.mp3}\n#EXT-X-ENDLIST\n`),
      ]),
    ],
    [
      'manifest.mpd',
      Buffer.concat([
        Buffer.from(
          '<?xml version="1.0" encoding="ISO-8859-1"?>\n' +
            '<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT3S" minBufferTime="PT1S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011">\n' +
            `<Period><AdaptationSet mimeType="audio/mp4"><Representation id="a" bandwidth="64000"><BaseURL>${o.mp4}</BaseURL></Representation></AdaptationSet></Period>\n` +
            '</MPD>\n<!-- ',
        ),
        ff,
        Buffer.from(' -->\n'),
      ]),
    ],
    [
      'list.ffconcat',
      Buffer.concat([Buffer.from(`ffconcat version 1.0\nfile ${o.concatName}\n# `), ff, Buffer.from('\n')]),
    ],
  ];
}
