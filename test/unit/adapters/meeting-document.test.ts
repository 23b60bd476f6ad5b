import AdmZip from 'adm-zip';
import { describe, expect, it } from 'vitest';
import {
  keySentenceCount,
  quoteIndex,
  quoteTokens,
  meetingUnits,
} from '../../../adapters/documents/meeting-analysis.js';
import {
  MeetingJson,
  meetingJsonSchema,
  meetingToDocx,
  meetingToJson,
  meetingToJsonValue,
  NO_LANGUAGE_MODEL_NOTICE,
  type LanguageModelSummary,
} from '../../../adapters/documents/meeting-document.js';
import { transcriptToJsonValue, type LabelledTranscript } from '../../../adapters/documents/transcript-formats.js';

/** A transcript from speaker lines: each word lasts 0.3 s, words follow each other without a gap. */
function meeting(
  lines: [speaker: string | undefined, start: number, text: string][],
  duration?: number,
): LabelledTranscript {
  const segments: LabelledTranscript['segments'] = [];
  const words: LabelledTranscript['words'] = [];
  for (const [speaker, start, text] of lines) {
    const ws = text.split(' ');
    ws.forEach((w, i) =>
      words.push({ start: start + i * 0.3, end: start + (i + 1) * 0.3, word: w, confidence: 0.9, speaker }),
    );
    segments.push({ start, end: start + ws.length * 0.3, text, speaker });
  }
  const last = Math.max(0, ...words.map((w) => w.end));
  return { language: 'en', duration: duration ?? Math.ceil(last), segments, words };
}

const STANDUP = meeting([
  ['SPEAKER_1', 0, 'Good morning everyone, this is the weekly planning meeting for the billing service.'],
  ['SPEAKER_2', 5, 'Thanks. The billing service migration to the new database is almost finished.'],
  ['SPEAKER_2', 9.5, 'Only the invoice export is still failing on large accounts.'],
  ['SPEAKER_1', 14, 'How long will the invoice export fix take?'],
  ['SPEAKER_3', 17, 'I think two days.'],
  ['SPEAKER_2', 19, 'The invoice export fails because the billing database query times out on large accounts.'],
  ['SPEAKER_1', 25, 'We decided to move the billing migration to next Tuesday.'],
  ['SPEAKER_3', 29, 'I will write the invoice export fix by Friday.'],
  ['SPEAKER_1', 33, 'Great. Can you also send the migration notes to the support team?'],
  ['SPEAKER_2', 38, 'Sure.'],
  ['SPEAKER_1', 40, 'The weather was nice yesterday.'],
]);

function documentXml(docx: Buffer): string {
  const entry = new AdmZip(docx).getEntry('word/document.xml');
  if (entry === null) throw new Error('no word/document.xml');
  return entry.getData().toString('utf8');
}
function paragraphTexts(xml: string): string[] {
  return [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)]
    .map((p) => [...p[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(''))
    .filter((x) => x !== '');
}
/** Every word of the transcript joined: a verbatim quote must be a substring of one speaker's run. */
const fullText = (t: LabelledTranscript) => t.words.map((w) => w.word).join(' ');

describe('meeting document: speakers and timeline', () => {
  it('lists speakers in order of first appearance with talk time, share, words and turns', () => {
    const m = meetingToJsonValue({ transcript: STANDUP });
    expect(m.speakers.map((s) => s.speaker)).toEqual(['SPEAKER_1', 'SPEAKER_2', 'SPEAKER_3']);
    const s1 = m.speakers[0]!;
    // SPEAKER_1 says 13 + 8 + 10 + 12 + 5 words at 0.3 s each, no gaps inside a line: 48 × 0.3 s.
    expect(s1.words).toBe(48);
    expect(s1.talk_time).toBeCloseTo(14.4, 3);
    expect(s1.turns).toBe(5);
    expect(s1.first_start).toBe(0);
    // SPEAKER_2's lines 1 and 2 are 0.9 s apart: one turn, and the 0.9 s pause counts as talk time.
    const s2 = m.speakers[1]!;
    expect(s2.turns).toBe(3);
    expect(s2.talk_time).toBeCloseTo((12 + 10 + 14 + 1) * 0.3 + 0.9, 3);
    expect(m.speakers.reduce((sum, s) => sum + s.share, 0)).toBeCloseTo(1, 3);
    expect(s1.share).toBeCloseTo(s1.talk_time / m.speakers.reduce((sum, s) => sum + s.talk_time, 0), 3);
  });

  it("merges one speaker's turn across pauses under 2 s, splits at longer ones and at a speaker change, with an excerpt", () => {
    const t = meeting([
      ['SPEAKER_1', 0, 'one two three'],
      ['SPEAKER_1', 2.5, 'four five'], // 1.6 s after "three" ends at 0.9: merged
      ['SPEAKER_1', 6, 'six seven'], // 2.9 s pause: a new turn
      ['SPEAKER_2', 6.7, 'a b c d e f g h i j k l m n'],
    ]);
    const m = meetingToJsonValue({ transcript: t });
    expect(m.timeline).toEqual([
      { start: 0, end: 3.1, speaker: 'SPEAKER_1', words: 5, excerpt: 'one two three four five' },
      { start: 6, end: 6.6, speaker: 'SPEAKER_1', words: 2, excerpt: 'six seven' },
      { start: 6.7, end: 10.9, speaker: 'SPEAKER_2', words: 14, excerpt: 'a b c d e f g h i j k l …' },
    ]);
  });

  it('carries the transcript in the TranscriptJson shape and validates against its exported JSON Schema shape', () => {
    const m = meetingToJsonValue({ transcript: STANDUP, title: 'Planning\u0007 call' });
    const t = transcriptToJsonValue(STANDUP);
    expect({ language: m.language, duration: m.duration, segments: m.segments, words: m.words }).toEqual(t);
    expect(m.title).toBe('Planning call');
    expect(MeetingJson.safeParse(m).success).toBe(true);
    expect(JSON.parse(meetingToJson({ transcript: STANDUP }))).toEqual(
      MeetingJson.parse(meetingToJsonValue({ transcript: STANDUP })),
    );
    const schema = meetingJsonSchema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['language', 'duration', 'segments', 'words', 'title', 'speakers', 'timeline', 'summary']),
    );
    expect(schema.required).toEqual(expect.arrayContaining(['summary', 'speakers', 'timeline', 'words']));
  });

  it('keeps a minus number the engine wrote as a word of its own ("is -5") apart in turns and quotes', () => {
    // faster-whisper's words " the", " freezer", " is", " -5", …, " USB", "-C", " port.": only "-C" continues a word.
    const t = meeting([['SPEAKER_1', 0, 'the freezer is -5 degrees on the USB -C port.']]);
    t.words = t.words.map((w) => ({ ...w, spaced: w.word !== '-C' }));
    const text = 'the freezer is -5 degrees on the USB-C port.';
    t.segments[0]!.text = text;
    expect(meetingToJsonValue({ transcript: t }).timeline.map((x) => x.excerpt)).toEqual([text]);
    expect(quoteIndex(meetingUnits(transcriptToJsonValue(t)), 'en').find('freezer is -5 degrees')?.text).toBe(
      'freezer is -5 degrees',
    );
  });

  it('is deterministic', () => {
    expect(meetingToJson({ transcript: STANDUP })).toBe(meetingToJson({ transcript: structuredClone(STANDUP) }));
  });
});

describe('meeting document: extractive summary (no language model)', () => {
  it('says no language model is configured and quotes key sentences verbatim, in time order, with time and speaker', () => {
    const { summary } = meetingToJsonValue({ transcript: STANDUP });
    expect(summary.source).toBe('extractive');
    expect(summary.model).toBeNull();
    expect(summary.notice).toBe(NO_LANGUAGE_MODEL_NOTICE);
    expect(summary.notice).toMatch(/^No language model is configured; this is an extractive summary/);
    expect(summary.paragraphs).toEqual([]);
    const key = summary.key_sentences;
    expect(key.length).toBe(keySentenceCount(10));
    const starts = key.map((q) => q.start);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    for (const q of key) {
      expect(fullText(STANDUP)).toContain(q.text);
      const first = STANDUP.words.find((w) => w.start === q.start)!;
      expect(q.text.startsWith(first.word)).toBe(true);
      expect(q.speaker).toBe(first.speaker);
    }
    // The central sentences are about the billing migration and the invoice export; the small talk is not.
    expect(key.map((q) => q.text).join(' ')).toMatch(/invoice export/);
    expect(key.some((q) => q.text.includes('weather'))).toBe(false);
  });

  it('drops a redundant sentence (a near repeat of one already taken)', () => {
    const t = meeting([
      ['SPEAKER_1', 0, 'The quarterly budget review needs the final revenue numbers.'],
      ['SPEAKER_2', 5, 'The quarterly budget review needs the final revenue numbers.'],
      ['SPEAKER_1', 10, 'Marketing spent less on conferences this quarter than planned.'],
      ['SPEAKER_2', 15, 'Hiring for the support team starts in the next quarter.'],
    ]);
    const texts = meetingToJsonValue({ transcript: t }).summary.key_sentences.map((q) => q.text);
    expect(texts.filter((x) => x.startsWith('The quarterly budget review'))).toHaveLength(1);
    expect(texts).toHaveLength(3);
  });

  it('finds decision and action-item candidates by cue phrases, quoted verbatim with their cues', () => {
    const { summary } = meetingToJsonValue({ transcript: STANDUP });
    expect(summary.decisions).toEqual([
      {
        text: 'We decided to move the billing migration to next Tuesday.',
        quotes: [
          {
            text: 'We decided to move the billing migration to next Tuesday.',
            start: 25,
            end: 28,
            speaker: 'SPEAKER_1',
          },
        ],
        cues: ['we decided', 'decided to'],
      },
    ]);
    expect(summary.action_items.map((a) => [a.text, a.quotes[0]!.start, a.cues])).toEqual([
      ['I will write the invoice export fix by Friday.', 29, ['i will', 'by friday']],
      ['Can you also send the migration notes to the support team?', 33.3, ['can you']],
    ]);
    for (const a of summary.action_items) {
      expect(a.owner).toBeNull();
      expect(a.due).toBeNull();
    }
  });

  it('caps the candidates and says how many more there were', () => {
    const lines: [string, number, string][] = Array.from({ length: 25 }, (_, i) => [
      'SPEAKER_1',
      i * 5,
      `We agreed to item number ${i + 1} today.`,
    ]);
    const { summary } = meetingToJsonValue({ transcript: meeting(lines) });
    expect(summary.decisions).toHaveLength(20);
    expect(summary.decisions[0]!.quotes[0]!.start).toBe(0);
    expect(summary.warnings).toContain('5 more decision candidates are not listed (the first 20 are)');
  });

  it('handles an empty transcript, a single word, unlabelled speech and a transcript with segments only', async () => {
    const empty: LabelledTranscript = { language: 'en', duration: 0, segments: [], words: [] };
    const e = meetingToJsonValue({ transcript: empty });
    expect(e.speakers).toEqual([]);
    expect(e.timeline).toEqual([]);
    expect(e.summary.key_sentences).toEqual([]);
    expect(e.summary.warnings).toEqual(['No speech was recognised.']);
    expect(MeetingJson.safeParse(e).success).toBe(true);
    const emptyDoc = paragraphTexts(documentXml(await meetingToDocx({ transcript: empty })));
    expect(emptyDoc).toContain('Nothing to summarise.');
    expect(emptyDoc.at(-1)).toBe('No speech was recognised.');

    const one = meetingToJsonValue({ transcript: meeting([[undefined, 1, 'Hello.']]) });
    expect(one.speakers).toEqual([{ speaker: null, talk_time: 0.3, share: 1, words: 1, turns: 1, first_start: 1 }]);
    expect(one.summary.key_sentences).toEqual([{ text: 'Hello.', start: 1, end: 1.3, speaker: null }]);
    expect(
      paragraphTexts(documentXml(await meetingToDocx({ transcript: meeting([[undefined, 1, 'Hello.']]) }))).at(-1),
    ).toBe('[00:00:01] Unknown speaker: Hello.');

    const segmentsOnly: LabelledTranscript = {
      language: 'en',
      duration: 4,
      words: [],
      segments: [{ start: 0, end: 2, text: 'We decided to stop here today.', speaker: 'SPEAKER_1' }],
    };
    const s = meetingToJsonValue({ transcript: segmentsOnly });
    expect(s.summary.decisions[0]!.quotes[0]).toEqual({
      text: 'We decided to stop here today.',
      start: 0,
      end: 2,
      speaker: 'SPEAKER_1',
    });
  });

  it('tokenises languages without spaces for its vectors and its excerpts', () => {
    const words = ['今日', 'は', '予算', 'の', '会議', 'です。', '予算', 'を', '決め', 'ました。'];
    const t: LabelledTranscript = {
      language: 'ja',
      duration: 5,
      segments: [],
      words: words.map((w, i) => ({
        start: i * 0.4,
        end: (i + 1) * 0.4,
        word: w,
        confidence: 1,
        speaker: 'SPEAKER_1',
      })),
    };
    const m = meetingToJsonValue({ transcript: t });
    expect(m.timeline[0]!.excerpt).toBe('今日は予算の会議です。予算を決めました。');
    expect(m.summary.key_sentences.map((q) => q.text)).toEqual(['今日は予算の会議です。', '予算を決めました。']);
  });
});

describe('meeting document: language-model summary', () => {
  const llm: LanguageModelSummary = {
    model: 'gpt-4o-mini',
    paragraphs: ['The team reviewed the billing migration.', 'The invoice export is the last blocker.'],
    decisions: [
      {
        text: 'Move the migration to Tuesday.',
        quotes: [
          {
            text: 'We decided to move the billing migration to next Tuesday.',
            start: 25,
            end: 28,
            speaker: 'SPEAKER_1',
          },
        ],
      },
    ],
    actionItems: [
      {
        text: 'Fix the invoice export.',
        owner: 'SPEAKER_3',
        due: 'by Friday',
        quotes: [
          { text: 'I will write the invoice export fix by Friday.', start: 29, end: 31.7, speaker: 'SPEAKER_3' },
        ],
      },
      { text: 'Unsupported item.', owner: null, due: null, quotes: [] },
    ],
    warnings: ['1 action item was dropped: its quote is not in the transcript'],
  };

  it('uses it, labelled with the model, with the quotes each item rests on; an item without a quote is not shown', () => {
    const { summary } = meetingToJsonValue({ transcript: STANDUP, summary: llm });
    expect(summary.source).toBe('language_model');
    expect(summary.model).toBe('gpt-4o-mini');
    expect(summary.notice).toMatch(/^Generated by a language model \(gpt-4o-mini\)/);
    expect(summary.paragraphs).toEqual(llm.paragraphs);
    expect(summary.key_sentences).toEqual([]);
    expect(summary.decisions).toEqual([
      { text: 'Move the migration to Tuesday.', quotes: llm.decisions[0]!.quotes, cues: [] },
    ]);
    expect(summary.action_items).toHaveLength(1);
    expect(summary.action_items[0]).toMatchObject({ owner: 'SPEAKER_3', due: 'by Friday' });
    expect(summary.warnings).toEqual(llm.warnings);
  });

  it('renders the DOCX sections in order: summary, decisions, action items, speakers, timeline, then the transcript', async () => {
    const xml = documentXml(await meetingToDocx({ transcript: STANDUP, summary: llm, title: 'Billing sync' }));
    const texts = paragraphTexts(xml);
    expect(texts[0]).toBe('Billing sync');
    expect(texts[1]).toBe('Language: en · Duration: 00:00:42 · Speakers: 3');
    const at = (x: string) => texts.indexOf(x);
    for (const [a, b] of [
      ['Summary', 'Decisions'],
      ['Decisions', 'Action items'],
      ['Action items', 'Speakers'],
      ['Speakers', 'Timeline'],
      ['Timeline', 'Transcript'],
    ]) {
      expect(at(a!)).toBeGreaterThan(-1);
      expect(at(a!)).toBeLessThan(at(b!));
    }
    expect(texts[at('Summary') + 1]).toMatch(/^Generated by a language model \(gpt-4o-mini\)/);
    expect(texts).toContain('Fix the invoice export. (owner: SPEAKER_3, due: by Friday)');
    expect(texts).toContain('[00:00:29] SPEAKER_3: “I will write the invoice export fix by Friday.”');
    expect(texts.at(-1)).toBe('[00:00:40] SPEAKER_1: The weather was nice yesterday.');
    expect(texts.slice(at('Transcript') + 1)).toHaveLength(meetingToJsonValue({ transcript: STANDUP }).timeline.length);
    expect(xml).toContain('<w:tbl>');
  });

  it('renders the extractive DOCX with its notice', async () => {
    const texts = paragraphTexts(documentXml(await meetingToDocx({ transcript: STANDUP })));
    expect(texts[texts.indexOf('Summary') + 1]).toBe(NO_LANGUAGE_MODEL_NOTICE);
    expect(texts).toContain('[00:00:25] SPEAKER_1: “We decided to move the billing migration to next Tuesday.”');
  });
});

describe('quote index', () => {
  const index = quoteIndex(meetingUnits(transcriptToJsonValue(STANDUP)), 'en');

  it("finds a quote regardless of case, whitespace and punctuation and returns the transcript's own words", () => {
    expect(index.find('we  DECIDED to move the billing migration')).toEqual({
      text: 'We decided to move the billing migration',
      start: 25,
      end: 27.1,
      speaker: 'SPEAKER_1',
    });
    expect(index.find('next tuesday i will write')).toEqual({
      text: 'next Tuesday. I will write',
      start: 27.4,
      end: 29.9,
      speaker: 'SPEAKER_1',
    });
  });

  it('refuses a quote that is not in the transcript, has a changed word, or is too short', () => {
    expect(index.find('We decided to cancel the billing migration')).toBeNull();
    expect(index.find('We decided')).not.toBeNull();
    expect(index.find('decided')).toBeNull();
    expect(index.find('')).toBeNull();
    expect(index.find('...')).toBeNull();
  });

  it('tokenises curly apostrophes and scripts without spaces', () => {
    expect(quoteTokens('Let’s GO, now!')).toEqual(["let's", 'go', 'now']);
    expect(quoteTokens('予算を決めました')).toEqual(['予', '算', 'を', '決', 'め', 'ま', 'し', 'た']);
  });
});

describe('long meetings', () => {
  /** 150 000 words (about 14 hours of speech), four speakers taking turns of 40 words, a long pause now and then. */
  function longMeeting(): LabelledTranscript {
    const vocab =
      'the billing migration invoice export team support database query account plan budget review customer release deadline friday we decided to move will write fix notes send'.split(
        ' ',
      );
    const words: LabelledTranscript['words'] = [];
    let t = 0;
    for (let i = 0; i < 150_000; i++) {
      words.push({
        start: t,
        end: t + 0.3,
        word: `${vocab[(i * 7919) % vocab.length]!}${i % 13 === 12 ? '.' : ''}`,
        confidence: 0.9,
        speaker: `SPEAKER_${1 + (Math.floor(i / 40) % 4)}`,
      });
      t += i % 97 === 96 ? 2.5 : 0.33;
    }
    return { language: 'en', duration: Math.ceil(t), segments: [], words };
  }

  it('renders a 150 000-word transcript (no stack overflow from spreading its times into Math.max)', async () => {
    const t = longMeeting();
    expect(transcriptToJsonValue(t).words).toHaveLength(150_000);
    const m = MeetingJson.parse(JSON.parse(meetingToJson({ transcript: t })));
    expect(m.speakers.map((s) => s.speaker)).toEqual(['SPEAKER_1', 'SPEAKER_2', 'SPEAKER_3', 'SPEAKER_4']);
    expect(m.summary.key_sentences.length).toBeGreaterThan(0);
    expect(m.summary.key_sentences.length).toBeLessThanOrEqual(12);
    const docx = await meetingToDocx({ transcript: t });
    expect(docx.subarray(0, 2).toString('latin1')).toBe('PK');
  });
});
