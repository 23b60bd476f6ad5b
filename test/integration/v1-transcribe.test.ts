import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import AdmZip from 'adm-zip';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TranscriptJson } from '../../adapters/documents/transcript-formats.js';
import { MeetingJson, NO_LANGUAGE_MODEL_NOTICE } from '../../adapters/documents/meeting-document.js';
import type { MeetingSummarizer } from '../../adapters/providers/llm/meeting-summary.js';
import { LanguageModelConfigError } from '../../adapters/providers/llm/openai-compatible-chat.js';
import { InvalidSourceError, ProviderUnavailableError } from '../../adapters/providers/provider-errors.js';
import { OfflineWhisperProvider } from '../../adapters/providers/transcription/offline-whisper.provider.js';
import {
  TranscriptionProviderConfigError,
  type TranscriptionProvider,
} from '../../adapters/providers/transcription/transcription-provider.js';
import { workflowIds } from '../../domain/workflow-ids.js';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';
import { batchClient } from '../helpers/batches.js';
import { SENTENCES, spokenClip, type SpokenClip } from '../../support/speech-corpus.js';
import { parseSrt, parseVtt } from '../helpers/subtitles.js';
import { loadRealConversation } from '../helpers/speech-real.js';
import { diarizationErrorRate } from '../../support/der.js';
import { normaliseWords, wordErrorRate } from '../../support/wer.js';
import { TEST_SPEECH_ENGINE } from '../helpers/speech-engine.js';

const run = promisify(execFile);

/**
 * `transcribe` through the real app, PostgreSQL, Temporal and a worker with the offline speech engine: the price per
 * started minute of the measured duration, the chunk-by-chunk workflow (chunks of about 10 s here, one chunk per run
 * so the workflow continues as new), every output format, and what outages and broken engines do to the job and
 * its reservation. The engine is the real one; failures are injected in front of it.
 */
const h = new ProcessingHarness();
const dir = mkdtempSync(join(tmpdir(), 'v1-transcribe-'));
const real = new OfflineWhisperProvider({ ...TEST_SPEECH_ENGINE, concurrency: 1, timeoutMs: 180_000 });
/** Failures the engine throws on its next calls, in order (then it is the real engine again). */
const inject: Error[] = [];
const calls: string[] = [];
const engine: TranscriptionProvider = {
  name: 'offline (failure injection in front)',
  async transcribe(request) {
    calls.push(request.path);
    const failure = inject.shift();
    if (failure) throw failure;
    return real.transcribe(request);
  },
  close: () => real.close(),
};
// Measured here: WER 0.000–0.024 on this clip across chunkings (floor a little above).
const WER_FLOOR = 0.1;
/**
 * How long one transcription job of the clip may take before the wait gives up: a hang guard, several times what one
 * job takes on a loaded two-core machine. A test that runs several jobs one after the other gets this much per job
 * (four formats at 300 s for the whole test once timed out on a clean clone at a load average of 4 to 16).
 */
const JOB_WAIT_MS = 240_000;
const forJobs = (jobs: number) => ({ timeout: jobs * JOB_WAIT_MS + 60_000 });

let acme: TestCompany;
let clip: SpokenClip;
let audio: string;
let video: string;
/** How many chunks the clip is cut into (the first job counts them). */
let chunkCount = 0;

beforeAll(async () => {
  await h.start({
    startWorkers: false,
    speech: { provider: engine, speakers: real, media: {}, chunkSeconds: 10, chunksPerRun: 1 },
  });
  acme = await h.company('Speech');
  clip = await spokenClip(dir, 'six', SENTENCES, 'en-us', 165, 1.2);
  const mp3 = join(dir, 'six.mp3');
  await run('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-i',
    clip.path,
    '-c:a',
    'libmp3lame',
    '-q:a',
    '4',
    mp3,
  ]);
  audio = await h.upload(acme.key, 'standup.mp3', await readFile(mp3));
  const mp4 = join(dir, 'silent.mp4');
  await run('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=blue:s=160x120:d=3:r=10',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    mp4,
  ]);
  video = await h.upload(acme.key, 'silent.mp4', await readFile(mp4));
}, 120_000);
afterAll(async () => {
  await h.stop();
  await real.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) =>
  fetch(`${h.app.url}/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${acme.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Submits with the job workflow restarted with short outage waits (production waits 30 s, doubling). */
async function submitWithShortOutages(body: unknown): Promise<string> {
  const job = await h.submitOk(acme.key, body);
  const handle = h.gateway.client.workflow.getHandle(workflowIds.job(job.id));
  await handle.terminate('restarted by the test with short outage waits');
  await h.gateway.client.workflow.start('processingJobWorkflow', {
    workflowId: workflowIds.job(job.id),
    taskQueue: h.taskQueue,
    args: [{ jobId: job.id, outageDelaysMs: [200] }],
  });
  return job.id;
}

const ledgerOf = async (jobId: string) =>
  (
    await h.tdb
      .db('credit_ledger')
      .join('credit_reservations', 'credit_reservations.id', 'credit_ledger.reservation_id')
      .where({ job_id: jobId })
      .orderBy('credit_ledger.id')
      .select('kind', 'credit_ledger.amount')
  ).map((r: { kind: string; amount: string }) => [r.kind, Number(r.amount)]);

describe('transcribe: requests and prices', () => {
  it('8 credits per started minute of the measured duration', async () => {
    const long = join(dir, 'long.wav');
    await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', clip.path, '-af', 'apad=whole_dur=61', long]);
    const longId = await h.upload(acme.key, 'long.wav', await readFile(long));
    for (const [id, credits] of [
      [audio, 8],
      [longId, 16],
    ] as const) {
      const res = await post('/estimate', {
        operation: 'transcribe',
        upload_ids: [id],
        options: { output_format: 'srt' },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        operation: 'transcribe',
        estimated_credits: credits,
        sources: [{ upload_id: id, credits }],
      });
    }
  });

  it('refuses what it cannot do with 422 naming the option, before anything is reserved', async () => {
    const before = await h.wallet(acme.id);
    const cases: Array<[unknown, string]> = [
      [{ output_format: 'pdf' }, 'options.output_format'],
      [{ output_format: 'Srt' }, 'options.output_format'],
      [{ language: 'english' }, 'options.language'],
      [{ language: 'EN' }, 'options.language'],
      [{ language: 'xx' }, 'options.language'],
      [{ speakers: 2 }, 'options'],
    ];
    for (const [options, path] of cases) {
      const res = await h.submit(acme.key, { operation: 'transcribe', upload_ids: [audio], options });
      expect(res.status, JSON.stringify(options)).toBe(422);
      const body = (await res.json()) as { issues: Array<{ path: string }> };
      expect(
        body.issues.map((i) => i.path),
        JSON.stringify(options),
      ).toContain(path);
    }
    const pdf = await h.upload(acme.key, 'doc.txt', Buffer.from('hello'));
    const res = await h.submit(acme.key, { operation: 'transcribe', upload_ids: [pdf] });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      detail: expect.stringContaining('transcribe needs an audio file or a video'),
    });
    expect(await h.wallet(acme.id)).toEqual(before);
  });
});

describe('transcribe jobs', () => {
  // Each test runs alone (vitest -t) as well as after the others: none relies on a worker an earlier test started.
  beforeEach(() => h.ensureWorker());

  it('JSON: the words on the source timeline across chunks and workflow runs, charged once', async () => {
    const before = await h.wallet(acme.id);
    calls.length = 0;
    const job = await h.waitForJob(
      acme.key,
      (
        await h.submitOk(acme.key, {
          operation: 'transcribe',
          upload_ids: [audio],
          options: { output_format: 'JSON', language: 'en' },
        })
      ).id,
      JOB_WAIT_MS,
    );
    expect(job).toMatchObject({ status: 'completed', charged_credits: 8 });
    const file = job.result!.files[0]!;
    expect(file).toMatchObject({ name: 'standup-transcript.json', content_type: 'application/json' });
    const transcript = TranscriptJson.parse(await (await h.download(acme.key, file.download_path)).json());
    expect(transcript.language).toBe('en');
    expect(Math.abs(transcript.duration - clip.duration)).toBeLessThan(0.1);
    const wer = wordErrorRate(clip.text, transcript.words.map((w) => w.word).join(' '));
    console.log(
      `transcribe job: ${calls.length} chunks, WER ${wer.wer.toFixed(3)} (${wer.errors}/${wer.referenceWords})`,
    );
    expect(wer.wer).toBeLessThanOrEqual(WER_FLOOR);
    let previous = 0;
    for (const w of transcript.words) {
      expect(w.start).toBeGreaterThanOrEqual(previous);
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      expect(w.end).toBeLessThanOrEqual(transcript.duration);
      previous = w.start;
    }
    // Every word lies inside a sentence's true window on the source's timeline (chunk offsets applied).
    for (const w of transcript.words) {
      const middle = (w.start + w.end) / 2;
      expect(
        clip.utterances.some((u) => middle >= u.start - 0.3 && middle <= u.end + 0.3),
        `${w.word} at ${middle}`,
      ).toBe(true);
    }

    // Several chunks, one workflow run each (continue-as-new), all in one child of the job's workflow.
    expect(calls.length).toBeGreaterThanOrEqual(2);
    chunkCount = calls.length;
    const runs = [];
    for await (const r of h.gateway.client.workflow.list({ query: `WorkflowId = "${workflowIds.speech(job.id, 0)}"` }))
      runs.push(r.status.name);
    expect(runs.sort()).toEqual([...Array(calls.length - 1).fill('CONTINUED_AS_NEW'), 'COMPLETED'].sort());
    expect(await ledgerOf(job.id)).toEqual([
      ['reserve', 8],
      ['charge', 8],
    ]);
    expect(await h.wallet(acme.id)).toEqual({ available: before.available - 8, reserved: before.reserved });
    expect(readdirSync(join(h.storageDir, 'tmp')).filter((n) => !n.startsWith('.'))).toEqual([]);
  });

  const FORMATS = ['srt', 'vtt', 'txt', 'docx'] as const;
  it('SRT, VTT, TXT and DOCX: valid files of the same words', forJobs(FORMATS.length), async () => {
    const results: Record<string, Buffer> = {};
    for (const format of FORMATS) {
      const job = await h.waitForJob(
        acme.key,
        (
          await h.submitOk(acme.key, {
            operation: 'transcribe',
            upload_ids: [audio],
            options: { output_format: format },
          })
        ).id,
        JOB_WAIT_MS,
      );
      expect(job, format).toMatchObject({ status: 'completed', charged_credits: 8 });
      expect(job.result!.files.map((f) => f.name)).toEqual([`standup-transcript.${format}`]);
      results[format] = Buffer.from(
        await (await h.download(acme.key, job.result!.files[0]!.download_path)).arrayBuffer(),
      );
    }
    for (const cues of [parseSrt(results['srt']!.toString('utf8')), parseVtt(results['vtt']!.toString('utf8'))]) {
      expect(cues.length).toBeGreaterThan(1);
      let end = 0;
      for (const c of cues) {
        expect(c.start).toBeGreaterThanOrEqual(end);
        expect(c.end).toBeGreaterThan(c.start);
        expect(c.end - c.start).toBeLessThanOrEqual(6000);
        expect(c.lines.length).toBeLessThanOrEqual(2);
        // SRT's `SPEAKER_1: ` is text on the line and counts; VTT's voice span is markup and does not.
        for (const line of c.lines)
          expect(Array.from(line.replace(/^<v [^>]*>/, '')).length, line).toBeLessThanOrEqual(42);
        end = c.end;
      }
      expect(end).toBeLessThanOrEqual(Math.round(clip.duration * 1000) + 100);
      const text = cues
        .flatMap((c) => c.lines)
        .join(' ')
        .replace(/<v [^>]*>|SPEAKER_\d+: /g, '');
      expect(wordErrorRate(clip.text, text).wer).toBeLessThanOrEqual(WER_FLOOR);
    }
    expect(wordErrorRate(clip.text, results['txt']!.toString('utf8')).wer).toBeLessThanOrEqual(WER_FLOOR);
    const xml = new AdmZip(results['docx']!).readAsText('word/document.xml');
    // The document holds the words of the TXT transcript, in order (after its title and header lines).
    const docWords = normaliseWords(
      [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(' '),
    ).join(' ');
    expect(docWords).toContain(normaliseWords(results['txt']!.toString('utf8')).join(' '));
  });

  it('speakers: a two-voice dialogue gets two speakers, the same voice the same label in every chunk', async () => {
    // Two real voices (test/fixtures/speech-real/real-dialogue-2: a LibriSpeech reader and a Common Voice speaker, tune
    // voices of the bench split, 21.1 s, 6 turns),
    // not espeak-ng voices, which the CAM++ encoder hears as one speaker.
    const dialogue = await loadRealConversation('real-dialogue-2');
    const id = await h.upload(acme.key, 'dialogue.flac', await readFile(dialogue.path));
    calls.length = 0;
    const job = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'transcribe', upload_ids: [id], options: { output_format: 'json' } }))
        .id,
      JOB_WAIT_MS,
    );
    expect(job.status).toBe('completed');
    const transcript = TranscriptJson.parse(
      await (await h.download(acme.key, job.result!.files[0]!.download_path)).json(),
    );
    const speakers = [...new Set(transcript.segments.map((seg) => seg.speaker))];
    const der = diarizationErrorRate(
      dialogue.reference,
      transcript.segments.map((seg) => ({ start: seg.start, end: seg.end, speaker: seg.speaker })),
    );
    console.log(`speakers job: ${calls.length} chunks, ${speakers.length} speakers, DER ${der.der.toFixed(3)}`);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(speakers.sort()).toEqual(['SPEAKER_1', 'SPEAKER_2']);
    expect(der.der).toBeLessThanOrEqual(0.1); // measured 0.071 in 2 chunks (was 0.15 on the held-out-voice dialogue)
    for (const w of transcript.words) expect(w.speaker).toMatch(/^SPEAKER_[12]$/);
  });

  it('a provider outage puts the job back in the queue with its reservation; it resumes at the unfinished chunk and charges once', async () => {
    const before = await h.wallet(acme.id);
    await h.stopWorkers();
    calls.length = 0;
    const jobId = await submitWithShortOutages({
      operation: 'transcribe',
      upload_ids: [audio],
      options: { output_format: 'txt' },
    });
    // The second chunk meets an outage (the first is transcribed and kept).
    let failed = false;
    const flaky: TranscriptionProvider = {
      ...engine,
      async transcribe(request) {
        if (calls.length === 1 && !failed) {
          failed = true;
          calls.push(request.path);
          throw new ProviderUnavailableError('the speech engine is temporarily unavailable', 100);
        }
        return engine.transcribe(request);
      },
    };
    h.speech = { ...h.speech!, provider: flaky };
    await h.startWorker();
    const job = await h.waitForJob(acme.key, jobId, JOB_WAIT_MS);
    expect(job).toMatchObject({ status: 'completed', charged_credits: 8 });
    expect(await h.gateway.client.workflow.getHandle(workflowIds.job(jobId)).result()).toMatchObject({
      status: 'completed',
      outages: 1,
    });
    // The first chunk was not transcribed again: one call per chunk plus the one that failed.
    expect(calls).toHaveLength(chunkCount + 1);
    const plain = await (await h.download(acme.key, job.result!.files[0]!.download_path)).text();
    expect(wordErrorRate(clip.text, plain).wer).toBeLessThanOrEqual(WER_FLOOR);
    const runs = [];
    for await (const r of h.gateway.client.workflow.list({ query: `WorkflowId STARTS_WITH "job:${jobId}/speech-"` }))
      runs.push(r.workflowId);
    expect(new Set(runs)).toEqual(new Set([workflowIds.speech(jobId, 0), workflowIds.speech(jobId, 1)]));
    expect(await ledgerOf(jobId)).toEqual([
      ['reserve', 8],
      ['charge', 8],
    ]);
    expect(await h.wallet(acme.id)).toEqual({ available: before.available - 8, reserved: before.reserved });
    h.speech = { ...h.speech, provider: engine };
    await h.stopWorkers();
    await h.startWorker();
  });

  it('chunks at once: both chunks are scheduled before either finishes, and the transcript is the same', async () => {
    await h.stopWorkers();
    h.speech = { ...h.speech!, chunksAtOnce: 2, chunksPerRun: 100 };
    await h.startWorker();
    const job = await h.waitForJob(
      acme.key,
      (
        await h.submitOk(acme.key, {
          operation: 'transcribe',
          upload_ids: [audio],
          options: { output_format: 'json', language: 'en' },
        })
      ).id,
      JOB_WAIT_MS,
    );
    expect(job).toMatchObject({ status: 'completed', charged_credits: 8 });
    const history = await h.gateway.client.workflow.getHandle(workflowIds.speech(job.id, 0)).fetchHistory();
    const order = (history.events ?? []).flatMap((e) =>
      e.activityTaskScheduledEventAttributes?.activityType?.name === 'transcribeSpeechChunk'
        ? ['scheduled']
        : e.activityTaskCompletedEventAttributes
          ? ['completed']
          : [],
    );
    // plan completed, then both chunks scheduled before the first chunk completes.
    expect(order.slice(0, 4)).toEqual(['completed', 'scheduled', 'scheduled', 'completed']);
    const transcript = TranscriptJson.parse(
      await (await h.download(acme.key, job.result!.files[0]!.download_path)).json(),
    );
    expect(wordErrorRate(clip.text, transcript.words.map((w) => w.word).join(' ')).wer).toBeLessThanOrEqual(WER_FLOOR);
    h.speech = { ...h.speech, chunksAtOnce: 1, chunksPerRun: 1 };
    await h.stopWorkers();
    await h.startWorker();
  });

  it('a refused engine configuration fails the job as processing_error, releases the reservation and says nothing of the cause', async () => {
    const before = await h.wallet(acme.id);
    inject.push(new TranscriptionProviderConfigError('TRANSCRIPTION_API_KEY was refused (401)'));
    const job = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'transcribe', upload_ids: [audio] })).id,
      JOB_WAIT_MS,
    );
    expect(job).toMatchObject({
      status: 'failed',
      charged_credits: 0,
      error_code: 'processing_error',
      error: expect.stringContaining('the reservation was released'),
    });
    expect(JSON.stringify(job)).not.toContain('TRANSCRIPTION_API_KEY');
    expect(await ledgerOf(job.id)).toEqual([
      ['reserve', 8],
      ['release', 8],
    ]);
    expect(await h.wallet(acme.id)).toEqual(before);
    expect(h.logs.lines.some((l) => l.includes('a processing provider cannot be used as configured'))).toBe(true);
  });

  it(
    'a video without sound and a source the engine rejects fail as invalid_source, nothing charged',
    forJobs(2),
    async () => {
      const before = await h.wallet(acme.id);
      const silent = await h.waitForJob(
        acme.key,
        (await h.submitOk(acme.key, { operation: 'transcribe', upload_ids: [video] })).id,
        JOB_WAIT_MS,
      );
      expect(silent).toMatchObject({
        status: 'failed',
        error_code: 'invalid_source',
        error: expect.stringContaining('no audio'),
      });
      inject.push(new InvalidSourceError('the audio could not be decoded'));
      const rejected = await h.waitForJob(
        acme.key,
        (await h.submitOk(acme.key, { operation: 'transcribe', upload_ids: [audio] })).id,
        JOB_WAIT_MS,
      );
      expect(rejected).toMatchObject({
        status: 'failed',
        error_code: 'invalid_source',
        error: 'the audio could not be decoded',
      });
      expect(await h.wallet(acme.id)).toEqual(before);
    },
  );
});

describe('transcription batches', () => {
  beforeEach(() => h.ensureWorker());

  it("one child job per upload: each transcribed as its own job (speech child workflow under the batch's job), partial when one has no sound; the results ZIP", async () => {
    const batches = batchClient(h);
    const before = await h.wallet(acme.id);
    const batch = await batches.submitOk(acme.key, {
      operation: 'transcribe',
      upload_ids: [audio, video],
      options: { output_format: 'vtt' },
    });
    const done = await batches.waitForBatch(acme.key, batch.id);
    expect(done).toMatchObject({
      status: 'partial',
      progress: { completed: 1, failed: 1 },
      credits: { charged: 8, released: 8, reserved: 0 },
    });
    const zip = new AdmZip(Buffer.from(await (await batches.zip(acme.key, batch.id)).arrayBuffer()));
    const vtt = zip.getEntries().find((e) => e.entryName.endsWith('standup-transcript.vtt'));
    expect(
      vtt,
      zip
        .getEntries()
        .map((e) => e.entryName)
        .join(', '),
    ).toBeDefined();
    const cues = parseVtt(vtt!.getData().toString('utf8'));
    expect(
      wordErrorRate(
        clip.text,
        cues
          .flatMap((c) => c.lines)
          .join(' ')
          .replace(/<v [^>]*>/g, ''),
      ).wer,
    ).toBeLessThanOrEqual(WER_FLOOR);
    expect(await h.wallet(acme.id)).toEqual({ available: before.available - 8, reserved: before.reserved });
  });
});

describe('meeting jobs', () => {
  beforeEach(() => h.ensureWorker());

  it('15 credits per started minute; the meeting document as DOCX and JSON, with an extractive summary quoted from the transcript', async () => {
    const estimate = await post('/estimate', { operation: 'meeting', upload_ids: [audio] });
    expect(await estimate.json()).toMatchObject({ operation: 'meeting', estimated_credits: 15 });
    const before = await h.wallet(acme.id);
    const job = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'meeting', upload_ids: [audio], options: { language: 'en' } })).id,
      JOB_WAIT_MS,
    );
    expect(job).toMatchObject({ status: 'completed', charged_credits: 15 });
    expect(job.result!.files.map((f) => [f.name, f.content_type])).toEqual([
      ['standup-meeting.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['standup-meeting.json', 'application/json'],
    ]);
    const meeting = MeetingJson.parse(await (await h.download(acme.key, job.result!.files[1]!.download_path)).json());
    expect(meeting.title).toBe('Meeting: standup');
    expect(meeting.summary).toMatchObject({ source: 'extractive', notice: NO_LANGUAGE_MODEL_NOTICE });
    expect(wordErrorRate(clip.text, meeting.words.map((w) => w.word).join(' ')).wer).toBeLessThanOrEqual(WER_FLOOR);
    // Every key sentence is the transcript's own text at its own time.
    const spoken = normaliseWords(meeting.words.map((w) => w.word).join(' ')).join(' ');
    expect(meeting.summary.key_sentences.length).toBeGreaterThan(0);
    for (const q of meeting.summary.key_sentences) {
      expect(spoken).toContain(normaliseWords(q.text).join(' '));
      expect(q.end).toBeLessThanOrEqual(meeting.duration);
    }
    const total = meeting.speakers.reduce((sum, s) => sum + s.talk_time, 0);
    expect(total).toBeGreaterThan(10);
    expect(total).toBeLessThanOrEqual(meeting.duration);
    const xml = new AdmZip(
      Buffer.from(await (await h.download(acme.key, job.result!.files[0]!.download_path)).arrayBuffer()),
    ).readAsText('word/document.xml');
    expect(xml).toContain('No language model is configured');
    expect(await h.wallet(acme.id)).toEqual({ available: before.available - 15, reserved: before.reserved });
  });

  it('a language-model outage at the summary requeues the job; the chunks are not transcribed again', async () => {
    await h.stopWorkers();
    calls.length = 0;
    let asked = 0;
    const summarizer: MeetingSummarizer = {
      model: 'injected',
      summarize() {
        asked++;
        return Promise.reject(
          asked === 1
            ? new ProviderUnavailableError('the language model is temporarily unavailable', 100)
            : new LanguageModelConfigError('LLM_API_KEY was refused (401)'),
        );
      },
    };
    h.speech = { ...h.speech!, summarizer };
    const jobId = await submitWithShortOutages({ operation: 'meeting', upload_ids: [audio] });
    await h.startWorker();
    const job = await h.waitForJob(acme.key, jobId, JOB_WAIT_MS);
    // The second answer is a refused configuration: a clear failure, the reservation released.
    expect(job).toMatchObject({
      status: 'failed',
      error_code: 'processing_error',
      error: expect.stringContaining('the reservation was released'),
    });
    expect(JSON.stringify(job)).not.toContain('LLM_API_KEY');
    expect(asked).toBe(2);
    expect(calls).toHaveLength(chunkCount);
    expect(await h.gateway.client.workflow.getHandle(workflowIds.job(jobId)).result()).toMatchObject({
      status: 'failed',
      outages: 1,
    });
    expect(await ledgerOf(jobId)).toEqual([
      ['reserve', 15],
      ['release', 15],
    ]);
    h.speech = { ...h.speech, summarizer: null };
    await h.stopWorkers();
    await h.startWorker();
  });
});
