import AdmZip from 'adm-zip';
import { parseSrt, parseVtt, type ParsedCue } from '../../helpers/subtitles.js';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CUE_OPTIONS,
  TranscriptJson,
  formatTimestamp,
  speakerLabel,
  transcriptJsonSchema,
  transcriptToCues,
  transcriptToDocx,
  transcriptToJson,
  transcriptToSrt,
  transcriptToTxt,
  transcriptToVtt,
  type LabelledTranscript,
  type LabelledWord,
} from '../../../adapters/documents/transcript-formats.js';

// ---- synthetic transcripts ---------------------------------------------------------------------------------------

/** Words spoken from `start`, each `step` seconds long with `gap` seconds between them, one segment. */
function spoken(
  text: string,
  start: number,
  opts: { step?: number; gap?: number; speaker?: string } = {},
): LabelledTranscript {
  const step = opts.step ?? 0.3;
  const gap = opts.gap ?? 0.05;
  const words: LabelledWord[] = text.split(' ').map((word, i) => ({
    word,
    start: start + i * (step + gap),
    end: start + i * (step + gap) + step,
    confidence: 0.9,
    ...(opts.speaker !== undefined ? { speaker: opts.speaker } : {}),
  }));
  const end = words.at(-1)?.end ?? start;
  return {
    language: 'en',
    duration: end,
    segments: [{ start, end, text, ...(opts.speaker !== undefined ? { speaker: opts.speaker } : {}) }],
    words,
  };
}

function concat(...parts: LabelledTranscript[]): LabelledTranscript {
  return {
    language: 'en',
    duration: Math.max(...parts.map((p) => p.duration)),
    segments: parts.flatMap((p) => p.segments),
    words: parts.flatMap((p) => p.words),
  };
}

const EMPTY: LabelledTranscript = { language: 'en', duration: 12.5, segments: [], words: [] };

const LOREM =
  'so the thing about this quarter is that we shipped three releases and every one of them went out late ' +
  'because the review queue kept growing while the team was busy with support tickets and nobody had time ' +
  'to look at the backlog, which means we should talk about hiring; or at least about rotating support duty ' +
  'between the two squads. I think that would help a lot and I would like to hear what everybody thinks about it';

/** The cue rules every output must keep. */
function expectValidCues(cues: ParsedCue[], opts: { textLines: (lines: string[]) => string[] }): void {
  cues.forEach((cue, i) => {
    expect(cue.end).toBeGreaterThan(cue.start);
    expect(cue.end - cue.start).toBeLessThanOrEqual(DEFAULT_CUE_OPTIONS.maxCueSeconds * 1000);
    expect(cue.lines.length).toBeLessThanOrEqual(DEFAULT_CUE_OPTIONS.maxLines);
    for (const line of opts.textLines(cue.lines))
      expect(Array.from(line).length).toBeLessThanOrEqual(DEFAULT_CUE_OPTIONS.maxLineLength);
    const next = cues[i + 1];
    if (next !== undefined) {
      expect(next.start).toBeGreaterThan(cue.start);
      expect(cue.end).toBeLessThanOrEqual(next.start);
    }
  });
}

/** An SRT line as a viewer sees it: the speaker prefix (`SPEAKER_1: `) is text on the line and counts. */
const srtText = (lines: string[]): string[] => lines;
const vttText = (lines: string[]): string[] =>
  lines.map((l, i) => (i === 0 ? l.replace(/^<v [^>]*>/, '') : l).replace(/&lt;|&gt;|&amp;/g, '_'));

// ---- tests -------------------------------------------------------------------------------------------------------

describe('timestamps', () => {
  it('formats SRT and VTT times exactly', () => {
    expect(formatTimestamp(1000, ',')).toBe('00:00:01,000');
    expect(formatTimestamp(1000, '.')).toBe('00:00:01.000');
    expect(formatTimestamp(3_723_045, ',')).toBe('01:02:03,045');
    expect(formatTimestamp(0, '.')).toBe('00:00:00.000');
    expect(formatTimestamp(360_000_000, '.')).toBe('100:00:00.000');
  });

  it('labels speakers SPEAKER_1 style', () => {
    expect(speakerLabel(0)).toBe('SPEAKER_1');
    expect(speakerLabel(2)).toBe('SPEAKER_3');
  });
});

describe('SRT and VTT', () => {
  it('renders a short transcript as one exact cue', () => {
    const t = { ...spoken('Hello world.', 1, { step: 0.4, gap: 0.1 }), duration: 5 };
    expect(transcriptToSrt(t)).toBe('1\n00:00:01,000 --> 00:00:02,000\nHello world.\n');
    expect(transcriptToVtt(t)).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello world.\n');
  });

  it('splits a long monologue into cues of at most 6 s and 2 lines of 42 characters', () => {
    const t = spoken(LOREM, 0.5);
    const srt = parseSrt(transcriptToSrt(t));
    const vtt = parseVtt(transcriptToVtt(t));
    expect(srt.length).toBeGreaterThanOrEqual(5);
    expect(vtt.map((c) => [c.start, c.end])).toEqual(srt.map((c) => [c.start, c.end]));
    expectValidCues(srt, { textLines: srtText });
    expectValidCues(vtt, { textLines: vttText });
    // No word is lost or duplicated.
    expect(srt.flatMap((c) => c.lines.join(' ').split(' '))).toEqual(LOREM.split(' '));
    // Two-line cues exist (the monologue fills them).
    expect(srt.some((c) => c.lines.length === 2)).toBe(true);
  });

  it('ends a cue after a sentence and cuts at punctuation when a cue is full', () => {
    const cues = transcriptToCues(spoken(LOREM, 0));
    const texts = cues.map((c) => c.lines.join(' '));
    // The sentence end 'squads.' closes its cue; 'I think' starts one.
    expect(texts.some((t) => t.endsWith('squads.'))).toBe(true);
    expect(texts.some((t) => t.startsWith('I think'))).toBe(true);
    // The comma after 'backlog' is a cut point of the full cue it falls in.
    expect(texts.some((t) => t.endsWith('backlog,'))).toBe(true);
    // The last word is not left alone in a cue of its own.
    expect(texts.at(-1)).toBe('about it');
    expect(texts.at(-2)?.endsWith('thinks')).toBe(true);
  });

  it('starts a new cue after a pause and when the speaker changes, with labels', () => {
    const t = concat(
      spoken('Good morning everyone', 0, { speaker: 'SPEAKER_1' }),
      spoken('and welcome', 3, { speaker: 'SPEAKER_1' }),
      spoken('Thanks', 4, { speaker: 'SPEAKER_2' }),
    );
    const srt = transcriptToSrt(t);
    const cues = parseSrt(srt);
    expect(cues.map((c) => c.lines.join(' '))).toEqual([
      'SPEAKER_1: Good morning everyone',
      'SPEAKER_1: and welcome',
      'SPEAKER_2: Thanks',
    ]);
    const vtt = parseVtt(transcriptToVtt(t));
    expect(vtt.map((c) => c.lines[0])).toEqual([
      '<v SPEAKER_1>Good morning everyone',
      '<v SPEAKER_1>and welcome',
      '<v SPEAKER_2>Thanks',
    ]);
    expectValidCues(cues, { textLines: srtText });
  });

  it('counts the speaker prefix of SRT in the 42-character line limit (the VTT voice span is markup, not text)', () => {
    const t = spoken(LOREM, 0, { speaker: 'SPEAKER_12' });
    const srt = parseSrt(transcriptToSrt(t));
    for (const cue of srt) for (const line of cue.lines) expect(Array.from(line).length, line).toBeLessThanOrEqual(42);
    expect(srt.every((c) => c.lines[0]!.startsWith('SPEAKER_12: '))).toBe(true);
    expect(
      srt.flatMap((c) =>
        c.lines
          .join(' ')
          .replace(/^SPEAKER_12: /, '')
          .split(' '),
      ),
    ).toEqual(LOREM.split(' '));
    expectValidCues(srt, { textLines: srtText });
    // A first line may use the whole width in VTT: `<v SPEAKER_12>` is not shown as text.
    const vtt = parseVtt(transcriptToVtt(t));
    expectValidCues(vtt, { textLines: vttText });
    expect(vtt.flatMap((c) => vttText(c.lines).join(' ').split(' '))).toEqual(LOREM.split(' '));
  });

  it('keeps a hyphenated word whole when the engine gives its parts as separate words', () => {
    // faster-whisper splits "state-of-the-art" into "state", "-of", "-the", "-art" (a hyphen token starts a word).
    const phrase =
      'we built a state -of -the -art pipeline for the twenty -five well -known customers in our region today';
    const t = spoken(phrase, 0, { speaker: 'SPEAKER_1' });
    const whole = phrase.replace(/ -/g, '-');
    for (const out of [
      parseSrt(transcriptToSrt(t)).map((c) => srtText(c.lines)),
      parseVtt(transcriptToVtt(t)).map((c) => vttText(c.lines)),
    ]) {
      const lines = out.flat();
      const words = lines
        .join(' ')
        .replace(/^SPEAKER_1: /, '')
        .replace(/<v SPEAKER_1>/g, '')
        .replace(/SPEAKER_1: /g, '')
        .split(' ');
      expect(words).toEqual(whole.split(' '));
      for (const line of lines) expect(line, line).not.toMatch(/(^|\s)-\p{L}/u);
    }
    // The whole word spans its parts' times.
    const cues = transcriptToCues(t);
    expect(cues.map((c) => c.lines.join(' ')).join(' ')).toContain('state-of-the-art');
    // A dash standing alone (with spaces) stays a dash.
    const dash = spoken('yes - and no', 0);
    expect(parseSrt(transcriptToSrt(dash)).map((c) => c.lines.join(' '))).toEqual(['yes - and no']);
  });

  it('keeps "USB-C" whole at every place of a cue and line, in SRT and VTT, labelled or not', () => {
    // faster-whisper's pieces as the offline engine gives them (leading space stripped): " USB", "-C" -> "USB", "-C".
    for (let k = 0; k < 30; k += 1) {
      const filler = Array.from({ length: k }, (_, i) => ['one', 'word', 'after', 'another'][i % 4]!);
      const pieces = [...filler, 'USB', '-C', 'to', 'the', 'state', '-of', '-the', '-art', 'twenty', '-five', 'ports'];
      for (const speaker of [undefined, 'SPEAKER_2']) {
        const t = spoken(pieces.join(' '), 0, speaker === undefined ? {} : { speaker });
        for (const lines of [
          parseSrt(transcriptToSrt(t)).flatMap((c) => srtText(c.lines)),
          parseVtt(transcriptToVtt(t)).flatMap((c) => vttText(c.lines)),
        ]) {
          const text = lines.join('\n');
          for (const whole of ['USB-C', 'state-of-the-art', 'twenty-five']) expect(text).toContain(whole);
          for (const line of lines) {
            expect(line, line).not.toMatch(/(^|\s)[-\u2010\u2011]\p{L}|\p{L}[-\u2010\u2011](\s|$)/u);
            expect(Array.from(line).length, line).toBeLessThanOrEqual(42);
          }
        }
      }
    }
  });

  it("gives the engine's hyphen pieces as whole words in JSON and TXT (no space before or after the hyphen)", () => {
    const t = spoken('The Logitech Headphone USB -C to the twenty -five well- known users', 1, {
      speaker: 'SPEAKER_1',
    });
    t.segments[0]!.text = 'The Logitech Headphone USB-C to the twenty-five well-known users';
    const json = TranscriptJson.parse(JSON.parse(transcriptToJson(t)));
    expect(json.words.map((w) => w.word)).toEqual([
      'The',
      'Logitech',
      'Headphone',
      'USB-C',
      'to',
      'the',
      'twenty-five',
      'well-known',
      'users',
    ]);
    // The whole word spans its pieces: "USB" from 2.05 s, "-C" to 2.7 s.
    expect(json.words[3]).toMatchObject({ start: 2.05, end: 2.7 });
    // Paragraphs built from the words (an engine without segments) join them the same way.
    const noSegments = { ...t, segments: [] };
    expect(transcriptToTxt(noSegments)).toBe(
      'SPEAKER_1: The Logitech Headphone USB-C to the twenty-five well-known users\n',
    );
  });

  it('keeps a minus number the engine wrote as a word of its own ("is -5") apart in every output', async () => {
    // faster-whisper's words " It", " is", " -5", " on", " the", " USB", "-C", " port.": each word says whether the
    // engine began it with a space (spaced); only "-C" continues the word before it.
    const t = spoken('It is -5 on the USB -C port.', 0, { speaker: 'SPEAKER_1' });
    t.words = t.words.map((w) => ({ ...w, spaced: w.word !== '-C' }));
    t.segments[0]!.text = 'It is -5 on the USB-C port.';
    const whole = ['It', 'is', '-5', 'on', 'the', 'USB-C', 'port.'];
    expect(TranscriptJson.parse(JSON.parse(transcriptToJson(t))).words.map((w) => w.word)).toEqual(whole);
    // The JSON gives the words' own fields only (spaced is the engine's, not the document's).
    expect(Object.keys(TranscriptJson.parse(JSON.parse(transcriptToJson(t))).words[0]!).sort()).toEqual([
      'confidence',
      'end',
      'speaker',
      'start',
      'word',
    ]);
    expect(JSON.parse(transcriptToJson(t)).words[0]).not.toHaveProperty('spaced');
    const text = 'It is -5 on the USB-C port.';
    expect(transcriptToTxt({ ...t, segments: [] })).toBe(`SPEAKER_1: ${text}\n`);
    // A segment's text is the engine's; paragraphs of several segments are joined as whole texts ("-5 …" after "is").
    const two = {
      ...t,
      segments: [
        { ...t.segments[0]!, end: 0.65, text: 'It is' },
        { ...t.segments[0]!, start: 0.7, text: '-5 on the USB-C port.' },
      ],
    };
    expect(transcriptToTxt(two)).toBe(`SPEAKER_1: ${text}\n`);
    expect(transcriptToCues(t).map((c) => c.lines.join(' '))).toEqual([text]);
    expect(parseSrt(transcriptToSrt(t)).map((c) => c.lines.join(' '))).toEqual([`SPEAKER_1: ${text}`]);
    expect(transcriptToVtt(t)).toContain(text);
    const docx = new AdmZip(await transcriptToDocx(t)).readAsText('word/document.xml');
    expect(docx).toContain(text);
  });

  it('takes a word speaker from its segment when the word has none', () => {
    const t = concat(spoken('one two', 0), spoken('three four', 2));
    t.segments[0]!.speaker = 'SPEAKER_1';
    t.segments[1]!.speaker = 'SPEAKER_2';
    const cues = transcriptToCues(t);
    expect(cues.map((c) => [c.speaker, c.lines.join(' ')])).toEqual([
      ['SPEAKER_1', 'one two'],
      ['SPEAKER_2', 'three four'],
    ]);
  });

  it('extends a short cue to 1 s when there is room, never over the next cue', () => {
    const t = {
      ...concat(
        spoken('Yes.', 0, { step: 0.2, speaker: 'SPEAKER_1' }),
        spoken('No.', 1.5, { step: 0.2, speaker: 'SPEAKER_2' }),
        spoken('Maybe.', 1.9, { step: 0.2, speaker: 'SPEAKER_1' }),
      ),
      duration: 10,
    };
    const cues = parseSrt(transcriptToSrt(t));
    expect(cues.map((c) => [c.start, c.end])).toEqual([
      [0, 1000],
      [1500, 1900],
      [1900, 2900],
    ]);
    // Never past the end of the audio.
    const short = parseSrt(transcriptToSrt({ ...spoken('Yes.', 0, { step: 0.2 }), duration: 0.5 }));
    expect(short.map((c) => [c.start, c.end])).toEqual([[0, 500]]);
  });

  it('keeps a sentence shorter than 1 s in the same cue as the next words', () => {
    const t = concat(spoken('No.', 1.5, { step: 0.2 }), spoken('Maybe.', 1.9, { step: 0.2 }));
    expect(transcriptToCues(t).map((c) => c.lines.join(' '))).toEqual(['No. Maybe.']);
  });

  it('fixes overlapping, unordered and odd engine times (monotonic, no overlap, inside the audio)', () => {
    const t: LabelledTranscript = {
      language: 'en',
      duration: 5,
      segments: [{ start: 0, end: 9, text: 'a b c d e f' }],
      words: [
        { word: 'a', start: 0.5, end: 2.5, confidence: 0.9 },
        { word: 'b', start: 0.2, end: 0.4, confidence: 0.9 }, // before its predecessor
        { word: 'c', start: 1, end: 0.8, confidence: 0.9 }, // ends before it starts
        { word: 'd', start: Number.NaN, end: Number.NaN, confidence: Number.NaN },
        { word: 'e', start: 4, end: 4, confidence: 1.5 },
        { word: 'f', start: 4, end: 30, confidence: -1 }, // past the reported duration
      ],
    };
    const json = TranscriptJson.parse(JSON.parse(transcriptToJson(t)));
    for (let i = 0; i < json.words.length; i += 1) {
      const w = json.words[i]!;
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      expect(w.confidence).toBeGreaterThanOrEqual(0);
      expect(w.confidence).toBeLessThanOrEqual(1);
      expect(w.end).toBeLessThanOrEqual(json.duration);
      const next = json.words[i + 1];
      if (next !== undefined) {
        expect(next.start).toBeGreaterThanOrEqual(w.start);
        expect(w.end).toBeLessThanOrEqual(next.start);
      }
    }
    expect(json.words.map((w) => w.word).sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    // The duration grows to the last time the engine reported.
    expect(json.duration).toBe(30);
    const srt = parseSrt(transcriptToSrt(t));
    const vtt = parseVtt(transcriptToVtt(t));
    expectValidCues(srt, { textLines: srtText });
    expectValidCues(vtt, { textLines: vttText });
  });

  it('gives cues with identical engine start times strictly increasing starts', () => {
    const t: LabelledTranscript = {
      language: 'en',
      duration: 2,
      segments: [],
      words: [
        { word: 'x', start: 1, end: 1.2, confidence: 1, speaker: 'SPEAKER_1' },
        { word: 'y', start: 1, end: 1.2, confidence: 1, speaker: 'SPEAKER_2' },
      ],
    };
    const cues = parseVtt(transcriptToVtt(t));
    expect(cues).toHaveLength(2);
    expectValidCues(cues, { textLines: vttText });
  });

  it('caps a cue at 6 s even when one word lasts longer', () => {
    const t: LabelledTranscript = {
      language: 'en',
      duration: 20,
      segments: [],
      words: [{ word: 'Hmmm', start: 1, end: 15, confidence: 1 }],
    };
    expect(transcriptToSrt(t)).toBe('1\n00:00:01,000 --> 00:00:07,000\nHmmm\n');
  });

  it('keeps a word longer than a line whole, on a line of its own (the one line allowed past 42 characters)', () => {
    const long = 'x'.repeat(100);
    const t: LabelledTranscript = {
      language: 'en',
      duration: 3,
      segments: [],
      words: [{ word: long, start: 0, end: 3, confidence: 1 }],
    };
    expect(parseSrt(transcriptToSrt(t)).map((c) => c.lines)).toEqual([[long]]);
    expect(parseVtt(transcriptToVtt(t)).map((c) => c.lines)).toEqual([[long]]);
    // Among other words, with a speaker: SRT's prefix never shares a line with it (its line holds the word alone).
    const words = ['so', 'the', 'address', 'is', long, 'and', 'that', 'is', 'all'];
    const spokenWords: LabelledTranscript = {
      language: 'en',
      duration: 5,
      segments: [{ start: 0, end: 5, text: words.join(' '), speaker: 'SPEAKER_1' }],
      words: words.map((word, i) => ({ word, start: i * 0.5, end: i * 0.5 + 0.4, confidence: 0.9 })),
    };
    const srt = parseSrt(transcriptToSrt(spokenWords));
    const vtt = parseVtt(transcriptToVtt(spokenWords));
    for (const lines of [srt.flatMap((c) => srtText(c.lines)), vtt.flatMap((c) => vttText(c.lines))]) {
      expect(lines).toContain(long);
      for (const line of lines) if (line !== long) expect(Array.from(line).length, line).toBeLessThanOrEqual(42);
    }
    expect(
      srt
        .flatMap((c) => c.lines)
        .join(' ')
        .replace(/SPEAKER_1:/g, '')
        .split(' ')
        .filter((w) => w !== ''),
    ).toEqual(words);
  });

  it('counts the whole speaker prefix: a word that fits a line but not after the prefix starts the next line', () => {
    // 34 characters: it fits in 42, not after `SPEAKER_1: ` (11).
    const word = 'supercalifragilisticexpialidocious';
    for (const text of [`${word} indeed`, `well ${word}`, word]) {
      const t = spoken(text, 0, { speaker: 'SPEAKER_1' });
      const srt = parseSrt(transcriptToSrt(t));
      for (const cue of srt)
        for (const line of cue.lines) expect(Array.from(line).length, line).toBeLessThanOrEqual(42);
      expect(srt.flatMap((c) => c.lines).some((line) => line.split(' ').includes(word))).toBe(true);
      expect(srt[0]!.lines[0]!.startsWith('SPEAKER_1:')).toBe(true);
    }
    // A label longer than half a line is counted in full too (no rendered line past 42 characters).
    const label = 'SPEAKER_1 (Diane, New Jersey)';
    const srt = parseSrt(transcriptToSrt(spoken(LOREM, 0, { speaker: label })));
    for (const cue of srt) for (const line of cue.lines) expect(Array.from(line).length, line).toBeLessThanOrEqual(42);
    expect(
      srt
        .flatMap((c) => c.lines)
        .join(' ')
        .replaceAll(`${label}:`, '')
        .split(' ')
        .filter((w) => w !== ''),
    ).toEqual(LOREM.split(' '));
  });

  it('renders an empty transcript as an empty SRT and a header-only VTT', () => {
    expect(transcriptToSrt(EMPTY)).toBe('');
    expect(transcriptToVtt(EMPTY)).toBe('WEBVTT\n');
    expect(parseVtt(transcriptToVtt(EMPTY))).toEqual([]);
  });

  it('escapes HTML-like text in VTT and never lets --> into a cue', () => {
    const t = spoken('<b>bold</b> & a --> b', 0, { speaker: 'A<B>&C' });
    const vtt = transcriptToVtt(t);
    parseVtt(vtt);
    expect(vtt).toContain('<v A&lt;B&gt;&amp;C>&lt;b&gt;bold&lt;/b&gt; &amp; a --&gt; b');
    const srt = transcriptToSrt(t);
    parseSrt(srt);
    expect(srt).toContain('A<B>&C: <b>bold</b> & a -> b');
  });

  it('keeps unicode text and counts line length in characters, not bytes', () => {
    const words = 'Größenwahn führt zu Übermut — naïve café ☕ 😀 Ελληνικά καλημέρα σας όλους'.split(' ');
    const t: LabelledTranscript = {
      language: 'de',
      duration: 10,
      segments: [{ start: 0, end: 10, text: words.join(' ') }],
      words: words.map((word, i) => ({ word, start: i * 0.5, end: i * 0.5 + 0.4, confidence: 0.8 })),
    };
    const srt = transcriptToSrt(t);
    expect(srt).toContain('Größenwahn');
    expect(srt).toContain('😀');
    expectValidCues(parseSrt(srt), { textLines: srtText });
    expect(parseSrt(srt).flatMap((c) => c.lines.join(' ').split(' '))).toEqual(words);
  });

  it('joins words without spaces in languages written without them', () => {
    const words = ['今日', 'は', '良い', '天気', 'です', '。'];
    const t: LabelledTranscript = {
      language: 'ja',
      duration: 3,
      segments: [],
      words: words.map((word, i) => ({ word, start: i * 0.4, end: i * 0.4 + 0.3, confidence: 0.9 })),
    };
    expect(transcriptToCues(t).map((c) => c.lines.join(''))).toEqual(['今日は良い天気です。']);
  });

  it('strips control characters and line breaks from cue text', () => {
    const t = spoken('one\ntwo\u0007 three', 0);
    t.words = [{ word: 'a\r\n\u0000b', start: 0, end: 1, confidence: 1 }];
    expect(transcriptToSrt(t)).toBe('1\n00:00:00,000 --> 00:00:01,000\na b\n');
  });
});

describe('TXT', () => {
  it('writes speaker-labelled paragraphs: a new one on a speaker change or after a long pause', () => {
    const t = concat(
      spoken('Hello there.', 0, { speaker: 'SPEAKER_1' }),
      spoken('How are you?', 1, { speaker: 'SPEAKER_1' }),
      spoken('Fine, thanks.', 2, { speaker: 'SPEAKER_2' }),
      spoken('And you?', 3, { speaker: 'SPEAKER_2' }),
      spoken('After a long pause.', 10, { speaker: 'SPEAKER_2' }),
    );
    expect(transcriptToTxt(t)).toBe(
      'SPEAKER_1: Hello there. How are you?\n\nSPEAKER_2: Fine, thanks. And you?\n\nSPEAKER_2: After a long pause.\n',
    );
  });

  it('writes unlabelled paragraphs without labels, and keeps unicode', () => {
    const t = concat(spoken('Ça va très bien 😀', 0), spoken('<script>x</script>', 5));
    const txt = transcriptToTxt(t);
    expect(txt).toBe('Ça va très bien 😀\n\n<script>x</script>\n');
    expect(Buffer.from(txt, 'utf8').toString('utf8')).toBe(txt);
  });

  it('falls back to the words when the engine gave no segments, and is empty for an empty transcript', () => {
    const t = spoken('one two three.', 0, { speaker: 'SPEAKER_1' });
    t.segments = [];
    expect(transcriptToTxt(t)).toBe('SPEAKER_1: one two three.\n');
    expect(transcriptToTxt(EMPTY)).toBe('');
  });
});

describe('JSON', () => {
  it('gives language, duration, segments with speaker and words with start/end/confidence, valid by its schema', () => {
    const t = concat(spoken('Hi there', 0.25, { speaker: 'SPEAKER_1' }), spoken('Hello', 2));
    const parsed: unknown = JSON.parse(transcriptToJson(t));
    expect(TranscriptJson.parse(parsed)).toEqual({
      language: 'en',
      duration: 2.3,
      segments: [
        { start: 0.25, end: 0.9, text: 'Hi there', speaker: 'SPEAKER_1' },
        { start: 2, end: 2.3, text: 'Hello', speaker: null },
      ],
      words: [
        { start: 0.25, end: 0.55, word: 'Hi', confidence: 0.9, speaker: 'SPEAKER_1' },
        { start: 0.6, end: 0.9, word: 'there', confidence: 0.9, speaker: 'SPEAKER_1' },
        { start: 2, end: 2.3, word: 'Hello', confidence: 0.9, speaker: null },
      ],
    });
  });

  it('exports a JSON Schema describing the same shape', () => {
    const schema = transcriptJsonSchema as {
      type?: string;
      required?: string[];
      properties?: Record<string, { type?: string; items?: { required?: string[] } }>;
    };
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(expect.arrayContaining(['language', 'duration', 'segments', 'words']));
    expect(schema.properties?.words?.items?.required).toEqual(
      expect.arrayContaining(['start', 'end', 'word', 'confidence', 'speaker']),
    );
    expect(schema.properties?.segments?.items?.required).toEqual(
      expect.arrayContaining(['start', 'end', 'text', 'speaker']),
    );
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });

  it('renders an empty transcript', () => {
    expect(JSON.parse(transcriptToJson(EMPTY))).toEqual({ language: 'en', duration: 12.5, segments: [], words: [] });
  });
});

describe('DOCX', () => {
  function documentXml(docx: Buffer): string {
    const zip = new AdmZip(docx);
    const entry = zip.getEntry('word/document.xml');
    if (entry === null) throw new Error('no word/document.xml');
    return entry.getData().toString('utf8');
  }
  /** The visible text of each paragraph. */
  function paragraphTexts(xml: string): string[] {
    return [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((p) =>
      [...p[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(''),
    );
  }

  it('has a title, then speaker-labelled paragraphs with timestamps', async () => {
    const t = concat(
      spoken('Hello there.', 0, { speaker: 'SPEAKER_1' }),
      spoken('Fine & <well>.', 65, { speaker: 'SPEAKER_2' }),
    );
    const xml = documentXml(await transcriptToDocx(t, 'Weekly call'));
    const texts = paragraphTexts(xml).filter((x) => x !== '');
    expect(texts[0]).toBe('Weekly call');
    expect(xml).toMatch(/<w:pStyle w:val="Title"\/>/);
    expect(texts.slice(2)).toEqual([
      '[00:00:00] SPEAKER_1: Hello there.',
      '[00:01:05] SPEAKER_2: Fine &amp; &lt;well&gt;.',
    ]);
    expect(xml).toContain('<w:b/>');
  });

  it('renders an empty transcript with a note, and unlabelled text without labels', async () => {
    const empty = paragraphTexts(documentXml(await transcriptToDocx(EMPTY))).filter((x) => x !== '');
    expect(empty[0]).toBe('Transcript');
    expect(empty.at(-1)).toBe('No speech was recognised.');
    const plain = paragraphTexts(documentXml(await transcriptToDocx(spoken('Grüße 😀', 3)))).filter((x) => x !== '');
    expect(plain.at(-1)).toBe('[00:00:03] Grüße 😀');
  });
});
