import { inspect } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { meetingToJsonValue } from '../../../../adapters/documents/meeting-document.js';
import type { LabelledTranscript } from '../../../../adapters/documents/transcript-formats.js';
import { createMeetingSummarizer } from '../../../../adapters/providers/llm/create-meeting-summarizer.js';
import {
  LanguageModelMeetingSummarizer,
  MEETING_SUMMARY_INSTRUCTIONS,
  type MeetingSummaryAnswer,
} from '../../../../adapters/providers/llm/meeting-summary.js';
import { OpenAiCompatibleChatClient } from '../../../../adapters/providers/llm/openai-compatible-chat.js';
import { ProviderUnavailableError } from '../../../../adapters/providers/provider-errors.js';
import { capturingLogger } from '../../../helpers/logs.js';
import { completion, json, standIn } from '../../../helpers/openai-stand-in.js';

const API_KEY = 'sk-llm-summary-3e9a0b7c5d1f2a8e';

function meeting(lines: [speaker: string, start: number, text: string][]): LabelledTranscript {
  const words: LabelledTranscript['words'] = [];
  const segments: LabelledTranscript['segments'] = [];
  for (const [speaker, start, text] of lines) {
    const ws = text.split(' ');
    ws.forEach((w, i) =>
      words.push({ start: start + i * 0.3, end: start + (i + 1) * 0.3, word: w, confidence: 0.9, speaker }),
    );
    segments.push({ start, end: start + ws.length * 0.3, text, speaker });
  }
  return { language: 'en', duration: 45, segments, words };
}

const T = meeting([
  ['SPEAKER_1', 0, 'Welcome to the planning meeting for the billing service.'],
  ['SPEAKER_2', 5, 'The invoice export still fails on large accounts.'],
  ['SPEAKER_1', 10, 'We decided to move the billing migration to next Tuesday.'],
  ['SPEAKER_3', 15, 'I will write the invoice export fix by Friday.'],
  ['SPEAKER_1', 20, 'Can you also send the migration notes to the support team?'],
  ['SPEAKER_2', 25, 'Sure, I will send them tomorrow.'],
]);

/** The model's answer: good items, one decision quoting words never said, an unknown owner and an unsaid due date. */
const ANSWER: MeetingSummaryAnswer = {
  summary: ['The team planned the billing migration.\u0007', '', 'The invoice export is the last blocker.'],
  decisions: [
    { text: 'Move the migration to Tuesday.', quotes: ['we decided to move the BILLING migration to next tuesday'] },
    { text: 'Cancel the project.', quotes: ['we decided to cancel the project'] },
    { text: 'Unsupported.', quotes: [] },
  ],
  action_items: [
    {
      text: 'Fix the invoice export.',
      owner: 'SPEAKER_3',
      due: 'by Friday',
      quotes: ['I will write the invoice export fix by Friday.'],
    },
    {
      text: 'Send the migration notes.',
      owner: 'Alice',
      due: 'next month',
      quotes: ['send the migration notes to the support team', 'I will send them tomorrow'],
    },
    {
      text: 'Half invented.',
      owner: null,
      due: null,
      quotes: ['I will send them tomorrow', 'and a bonus for everyone'],
    },
  ],
};

describe('meeting summary from a language model', () => {
  const log = capturingLogger();
  let stub: Awaited<ReturnType<typeof standIn>> | null = null;
  afterEach(async () => {
    await stub?.close();
    stub = null;
  });
  afterAll(() => {
    expect(log.text()).not.toContain(API_KEY.slice(0, 12));
    expect(log.text()).not.toContain('invoice export'); // no prompt or answer text in the logs
  });

  const summarizer = (baseUrl: string, maxTranscriptChars?: number) =>
    createMeetingSummarizer(
      { provider: 'openai', api: { baseUrl, apiKey: API_KEY, model: 'gpt-4o-mini', timeoutMs: 10_000 } },
      { logger: log.logger, maxTranscriptChars },
    )!;

  it('sends speaker-labelled lines with timestamps, keeps only items whose quotes occur in the transcript, and quotes the transcript verbatim', async () => {
    stub = await standIn([json(200, completion(ANSWER))]);
    const s = await summarizer(stub.baseUrl).summarize(T);

    const body = JSON.parse(stub.requests[0]!.body) as {
      messages: { role: string; content: string }[];
      response_format: { json_schema: { name: string } };
    };
    expect(body.response_format.json_schema.name).toBe('meeting_summary');
    expect(body.messages[0]).toEqual({ role: 'system', content: MEETING_SUMMARY_INSTRUCTIONS });
    expect(body.messages[1]!.content).toBe(
      [
        'Meeting transcript (3 speakers):',
        '<transcript>',
        '[00:00:00] SPEAKER_1: Welcome to the planning meeting for the billing service.',
        '[00:00:05] SPEAKER_2: The invoice export still fails on large accounts.',
        '[00:00:10] SPEAKER_1: We decided to move the billing migration to next Tuesday.',
        '[00:00:15] SPEAKER_3: I will write the invoice export fix by Friday.',
        '[00:00:20] SPEAKER_1: Can you also send the migration notes to the support team?',
        '[00:00:25] SPEAKER_2: Sure, I will send them tomorrow.',
        '</transcript>',
      ].join('\n'),
    );
    expect(stub.requests[0]!.body).not.toContain(API_KEY);

    expect(s.model).toBe('gpt-4o-mini');
    expect(s.paragraphs).toEqual([
      'The team planned the billing migration.',
      'The invoice export is the last blocker.',
    ]);
    expect(s.decisions).toEqual([
      {
        text: 'Move the migration to Tuesday.',
        quotes: [
          {
            text: 'We decided to move the billing migration to next Tuesday.',
            start: 10,
            end: 13,
            speaker: 'SPEAKER_1',
          },
        ],
      },
    ]);
    expect(s.actionItems).toEqual([
      {
        text: 'Fix the invoice export.',
        owner: 'SPEAKER_3',
        due: 'by Friday',
        quotes: [
          { text: 'I will write the invoice export fix by Friday.', start: 15, end: 17.7, speaker: 'SPEAKER_3' },
        ],
      },
      {
        text: 'Send the migration notes.',
        owner: null,
        due: null,
        quotes: [
          { text: 'send the migration notes to the support team?', start: 20.9, end: 23.3, speaker: 'SPEAKER_1' },
          { text: 'I will send them tomorrow.', start: 25.3, end: 26.8, speaker: 'SPEAKER_2' },
        ],
      },
    ]);
    expect(s.warnings).toEqual([
      '2 decisions and 1 action item from the language model were dropped: without a quote, or quoting text that is not in the transcript.',
      '1 owner named by the language model is not a speaker label of the transcript and was left out.',
      '1 due date given by the language model does not occur in the transcript and was left out.',
    ]);

    // Into the document: labelled with the model, the checked items only.
    const doc = meetingToJsonValue({ transcript: T, summary: s });
    expect(doc.summary.source).toBe('language_model');
    expect(doc.summary.notice).toContain('gpt-4o-mini');
    expect(doc.summary.decisions).toHaveLength(1);
    expect(doc.summary.warnings).toEqual(s.warnings);
  });

  it('asks again after a schema-violating answer and says so', async () => {
    stub = await standIn([
      json(200, completion({ summary: 'one string', decisions: [], action_items: [] })),
      json(200, completion(ANSWER)),
    ]);
    const s = await summarizer(stub.baseUrl).summarize(T);
    expect(stub.requests).toHaveLength(2);
    expect(s.decisions).toHaveLength(1);
    expect(s.warnings[0]).toBe("The language model's first answer was unusable; it was asked again.");
  });

  it('caps a long transcript and says so in the warnings', async () => {
    const long = meeting(
      Array.from(
        { length: 200 },
        (_, i) =>
          ['SPEAKER_1', i * 10, `Line number ${i} says something about item ${i} of the agenda today.`] as [
            string,
            number,
            string,
          ],
      ),
    );
    stub = await standIn([json(200, completion({ summary: ['Agenda.'], decisions: [], action_items: [] }))]);
    const s = await summarizer(stub.baseUrl, 2000).summarize(long);
    const content = (JSON.parse(stub.requests[0]!.body) as { messages: { content: string }[] }).messages[1]!.content;
    expect(content.length).toBeLessThan(2200);
    expect(content).toContain('Line number 0 says');
    expect(content).not.toContain('Line number 199');
    expect(s.warnings).toHaveLength(1);
    expect(s.warnings[0]).toMatch(
      /^The transcript is longer than the language model's input limit \(2000 characters\): only its first (\d+) of 200 turns \(up to 00:\d\d:\d\d\) were summarised\.$/,
    );
  });

  it('does not ask about an empty transcript', async () => {
    stub = await standIn([json(200, completion(ANSWER))]);
    const s = await summarizer(stub.baseUrl).summarize({ language: 'en', duration: 3, segments: [], words: [] });
    expect(stub.requests).toHaveLength(0);
    expect(s).toEqual({
      model: 'gpt-4o-mini',
      paragraphs: [],
      decisions: [],
      actionItems: [],
      warnings: ['No speech was recognised; the language model was not asked.'],
    });
  });

  it('passes a provider outage through as a temporary ProviderUnavailableError', async () => {
    stub = await standIn([json(503, {}, { 'retry-after': '3' })]);
    const e = await summarizer(stub.baseUrl)
      .summarize(T)
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderUnavailableError);
    expect((e as ProviderUnavailableError).retryAfterMs).toBe(3000);
  });
});

describe('createMeetingSummarizer', () => {
  it('is null without a language model (the document then carries an extractive summary) and the HTTP summariser for openai', () => {
    expect(createMeetingSummarizer({ provider: 'none' })).toBeNull();
    const s = createMeetingSummarizer({
      provider: 'openai',
      api: { baseUrl: 'https://api.example.com/v1', apiKey: API_KEY, model: 'gpt-4o-mini', timeoutMs: 1000 },
    });
    expect(s).toBeInstanceOf(LanguageModelMeetingSummarizer);
    expect(s!.model).toBe('gpt-4o-mini');
    expect(JSON.stringify(s)).not.toContain(API_KEY);
    expect(inspect(s, { depth: 6, showHidden: true })).not.toContain(API_KEY);
    expect(() => createMeetingSummarizer({ provider: 'openai' })).toThrow(/LLM_API_BASE_URL/);
    expect(
      new OpenAiCompatibleChatClient({
        baseUrl: 'https://api.example.com/v1',
        apiKey: API_KEY,
        model: 'm',
        timeoutMs: 1,
      }).model,
    ).toBe('m');
  });
});
