import { expect } from 'vitest';

/** Small SRT and WebVTT parsers for the transcript tests: each checks the structure as it reads (vitest `expect`). */

export interface ParsedCue {
  start: number;
  end: number;
  lines: string[];
}
function parseTime(text: string, sep: ',' | '.'): number {
  const m = new RegExp(`^(\\d{2,}):([0-5]\\d):([0-5]\\d)\\${sep}(\\d{3})$`).exec(text);
  if (m === null) throw new Error(`bad timestamp ${JSON.stringify(text)}`);
  return Number(m[1]) * 3_600_000 + Number(m[2]) * 60_000 + Number(m[3]) * 1000 + Number(m[4]);
}

/** A cue's timing line and text lines (SRT after its number, VTT as is): non-empty lines, never `-->` in the text. */
function parseCueBlock([timing, ...lines]: string[], decimal: ',' | '.'): ParsedCue {
  const m = /^(\S+) --> (\S+)$/.exec(timing ?? '');
  if (m === null) throw new Error(`bad timing line ${JSON.stringify(timing)}`);
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    expect(line.trim()).not.toBe('');
    expect(line).not.toContain('-->');
  }
  return { start: parseTime(m[1]!, decimal), end: parseTime(m[2]!, decimal), lines };
}

export function parseSrt(srt: string): ParsedCue[] {
  if (srt === '') return [];
  expect(srt.endsWith('\n')).toBe(true);
  expect(srt).not.toContain('\r');
  const blocks = srt.replace(/\n$/, '').split('\n\n');
  return blocks.map((block, i) => {
    const [index, ...rest] = block.split('\n');
    expect(index).toBe(String(i + 1));
    return parseCueBlock(rest, ',');
  });
}

export function parseVtt(vtt: string): ParsedCue[] {
  expect(vtt.startsWith('WEBVTT\n\n') || vtt === 'WEBVTT\n').toBe(true);
  const body = vtt.slice('WEBVTT\n'.length).replace(/^\n/, '').replace(/\n$/, '');
  if (body === '') return [];
  return body.split('\n\n').map((block) => {
    const cue = parseCueBlock(block.split('\n'), '.');
    for (const line of cue.lines) {
      // Only the voice span may use '<' and '>'; '&' only as an entity.
      const withoutVoice = line.replace(/^<v [^<>&]*(?:&(?:amp|lt|gt);[^<>&]*)*>/, '');
      expect(withoutVoice).not.toMatch(/[<>]/);
      expect(withoutVoice).not.toMatch(/&(?!(?:amp|lt|gt);)/);
    }
    return cue;
  });
}
