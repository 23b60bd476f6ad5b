import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/activity';
import {
  chunkLengths,
  DEFAULT_TRANSCRIPT_FORMAT,
  SPEECH_CHUNKS_PER_RUN,
  type TranscriptFormat,
} from '../domain/speech.js';
import type { Logger } from '../adapters/logging/logger.js';
import { MediaToolFailed, type MediaToolOptions } from '../adapters/media/av/media-process.js';
import type { RunnerOutput } from '../adapters/media/runner-contract.js';
import {
  InvalidSourceError,
  ProviderUnavailableError,
  ProviderUnusableError,
} from '../adapters/providers/provider-errors.js';
import { extractChunk, planAudioChunks, type AudioChunk } from '../adapters/providers/transcription/chunking.js';
import { stitchTranscripts } from '../adapters/providers/transcription/stitch.js';
import {
  assignSpeakers,
  clusterSpeakers,
  offsetRegions,
  type SpeakerEmbedder,
  type SpeakerRegion,
} from '../adapters/providers/transcription/speakers.js';
import type { Transcript, TranscriptionProvider } from '../adapters/providers/transcription/transcription-provider.js';
import {
  transcriptToDocx,
  transcriptToJson,
  transcriptToSrt,
  transcriptToTxt,
  transcriptToVtt,
  type LabelledTranscript,
} from '../adapters/documents/transcript-formats.js';
import { meetingToDocx, meetingToJson } from '../adapters/documents/meeting-document.js';
import type { MeetingSummarizer } from '../adapters/providers/llm/meeting-summary.js';
import {
  LanguageModelAnswerError,
  LanguageModelConfigError,
} from '../adapters/providers/llm/openai-compatible-chat.js';
import type { FileStore } from '../adapters/storage/file-store.js';
import { fileExists, readJsonIfExists, writeWhole } from '../adapters/storage/whole-files.js';
import type { Db } from '../db/connection.js';
import * as jobs from '../db/repositories/jobs.repo.js';
import {
  checkpointDirOf,
  heartbeating,
  jobSources,
  sourceFailure,
  storeResults,
  unusableProvider,
  type RunResult,
} from './processing.activities.js';

/**
 * The speech operations (`transcribe`, `meeting`), run chunk by chunk (workflows/processing/speech.workflow.ts):
 * `planSpeechJob` cuts the source on silences, `transcribeSpeechChunk` transcribes one chunk, `finishSpeechJob`
 * stitches the chunks back on the source's timeline and writes the results. Each step leaves its work in the job's
 * checkpoint folder (`plan.json`, `chunk-<i>.json`, each written whole by a rename), so a worker that dies loses at
 * most the chunk it was on, and a job requeued after a provider outage resumes at its first unfinished chunk.
 */

/** The speech engine of a worker and how it cuts long audio. */
export interface SpeechWorkerDeps {
  provider: TranscriptionProvider;
  /** The offline speaker engine (voice regions with embeddings), whatever engine transcribes; may be `provider` itself. */
  speakers: SpeakerEmbedder & Pick<TranscriptionProvider, 'close'>;
  /** ffmpeg for the analysis and the chunks (its time limit also bounds the analysis pass over the whole source). */
  media: MediaToolOptions;
  /** Target chunk length in seconds (TRANSCRIPTION_CHUNK_SECONDS); default 300. */
  chunkSeconds?: number;
  /** Chunks per workflow run before it continues as new; default SPEECH_CHUNKS_PER_RUN (tests set it low). */
  chunksPerRun?: number;
  /** Chunks of one job transcribed at once (TRANSCRIPTION_CHUNKS_AT_ONCE); default 1. */
  chunksAtOnce?: number;
  /** The language model that summarises meetings (LLM_PROVIDER); none: the meeting document has an extractive summary. */
  summarizer?: MeetingSummarizer | null;
}

export interface SpeechActivityDeps {
  db: Db;
  store: FileStore;
  logger: Logger;
  /** Absent on a worker without a speech engine: speech jobs then fail as `processing_error`, their reservation released. */
  speech?: SpeechWorkerDeps | undefined;
}

export type PlanResult =
  | { outcome: 'planned'; pending: number[]; chunksPerRun: number; chunksAtOnce?: number }
  | { outcome: 'not_processing'; status: jobs.Job['status'] | null };

export type ChunkResult =
  | { outcome: 'done' }
  | { outcome: 'provider_unavailable'; message: string; retryAfterMs: number | null }
  | { outcome: 'not_processing'; status: jobs.Job['status'] | null };

interface SpeechPlan {
  duration: number;
  chunks: AudioChunk[];
}

interface ChunkFile {
  chunk: Pick<AudioChunk, 'index' | 'start' | 'end'>;
  transcript: Transcript;
  /** The chunk's voice regions with their embeddings, on the source's timeline. */
  regions: SpeakerRegion[];
  /** The engines' time on this chunk, ms. */
  engineMs: number;
}

/** Client-safe text of a job failed because this server's engine cannot run (the cause goes to the log only). */
const ENGINE_UNAVAILABLE =
  'Transcription is not available on this server right now; the reservation was released. Retry later.';

const planPath = (dir: string) => join(dir, 'plan.json');
const chunkPath = (dir: string, index: number) => join(dir, `chunk-${index}.json`);

/** `transcribe`'s one result file, in the requested format. */
async function transcriptResult(
  transcript: LabelledTranscript,
  options: Record<string, unknown>,
): Promise<RunnerOutput[]> {
  const format = (options['output_format'] as TranscriptFormat | undefined) ?? DEFAULT_TRANSCRIPT_FORMAT;
  const text = (s: string) => ({ format, data: Buffer.from(s, 'utf8') });
  switch (format) {
    case 'txt':
      return [text(transcriptToTxt(transcript))];
    case 'srt':
      return [text(transcriptToSrt(transcript))];
    case 'vtt':
      return [text(transcriptToVtt(transcript))];
    case 'json':
      return [text(transcriptToJson(transcript))];
    case 'docx':
      return [{ format, data: await transcriptToDocx(transcript) }];
  }
}

/** The title of a meeting document: the source's name without its extension. */
const meetingTitle = (filename: string) => `Meeting: ${filename.replace(/\.[A-Za-z0-9]{1,5}$/, '') || filename}`;

export function createSpeechActivities(deps: SpeechActivityDeps) {
  const engine = (): SpeechWorkerDeps => {
    if (deps.speech) return deps.speech;
    deps.logger.error('a speech job reached a worker without a transcription engine; configure TRANSCRIPTION_PROVIDER');
    throw ApplicationFailure.nonRetryable(ENGINE_UNAVAILABLE, 'processing_error');
  };

  /** What the engine's errors mean for the job (see transcription-provider.ts). */
  const failure = (e: unknown, jobId: string): ChunkResult => {
    if (e instanceof ProviderUnavailableError)
      return { outcome: 'provider_unavailable', message: e.message, retryAfterMs: e.retryAfterMs ?? null };
    if (e instanceof InvalidSourceError) throw sourceFailure(deps.logger, jobId, e);
    if (e instanceof LanguageModelConfigError || e instanceof LanguageModelAnswerError)
      throw unusableProvider(deps.logger, jobId, e, 'The meeting summary');
    if (e instanceof ProviderUnusableError) throw unusableProvider(deps.logger, jobId, e, 'Transcription');
    deps.logger.warn({ jobId, err: e }, 'a speech step failed unexpectedly; Temporal retries it');
    throw e;
  };

  const processingJob = async (jobId: string): Promise<{ job: jobs.Job } | { status: jobs.Job['status'] | null }> => {
    const job = await jobs.getJobById(deps.db, jobId);
    return job && job.status === 'processing' ? { job } : { status: job?.status ?? null };
  };

  return {
    /**
     * Cuts the source into chunks on silences (one ffmpeg pass that also measures the decoded duration) once per
     * job, and says which chunks are still to transcribe.
     */
    async planSpeechJob(input: { jobId: string }): Promise<PlanResult> {
      const found = await processingJob(input.jobId);
      if (!('job' in found)) return { outcome: 'not_processing', status: found.status };
      const { job } = found;
      const speech = engine();
      const dir = checkpointDirOf(deps.store.root, job.id);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      let plan = await readJsonIfExists<SpeechPlan>(planPath(dir));
      if (!plan) {
        const [source] = await jobSources(deps, job);
        try {
          const planned = await heartbeating(({ signal }) =>
            planAudioChunks(
              source!.path,
              { chunking: chunkLengths(speech.chunkSeconds ?? 300) },
              { ...speech.media, probeTimeoutMs: speech.media.timeoutMs, signal },
            ),
          );
          plan = { duration: planned.duration, chunks: planned.chunks };
        } catch (e) {
          if (e instanceof MediaToolFailed)
            throw sourceFailure(
              deps.logger,
              job.id,
              new InvalidSourceError('the source has no audio stream that can be decoded', { detail: e.detail }),
            );
          throw e;
        }
        await writeWhole(planPath(dir), plan);
      }
      const pending: number[] = [];
      for (const c of plan.chunks) if (!(await fileExists(chunkPath(dir, c.index)))) pending.push(c.index);
      return {
        outcome: 'planned',
        pending,
        chunksPerRun: speech.chunksPerRun ?? SPEECH_CHUNKS_PER_RUN,
        chunksAtOnce: speech.chunksAtOnce ?? 1,
      };
    },

    /** Transcribes chunk `index` of the plan, unless an earlier attempt already did. */
    async transcribeSpeechChunk(input: { jobId: string; index: number }): Promise<ChunkResult> {
      const found = await processingJob(input.jobId);
      if (!('job' in found)) return { outcome: 'not_processing', status: found.status };
      const { job } = found;
      const speech = engine();
      const dir = checkpointDirOf(deps.store.root, job.id);
      const out = chunkPath(dir, input.index);
      if (await fileExists(out)) return { outcome: 'done' };
      const plan = await readJsonIfExists<SpeechPlan>(planPath(dir));
      const chunk = plan?.chunks.find((c) => c.index === input.index);
      if (!chunk) throw new Error(`job ${job.id} has no planned chunk ${input.index}`);
      const [source] = await jobSources(deps, job);
      const workDir = join(deps.store.root, 'tmp', `work-${job.id}-chunk-${input.index}`);
      await rm(workDir, { recursive: true, force: true });
      await mkdir(workDir, { recursive: true, mode: 0o700 });
      try {
        return await heartbeating(async ({ signal }) => {
          const wav = join(workDir, 'chunk.wav');
          await extractChunk(source!.path, chunk, wav, { ...speech.media, signal });
          const language = typeof job.options['language'] === 'string' ? job.options['language'] : undefined;
          const started = performance.now();
          const transcript = await speech.provider.transcribe({
            path: wav,
            ...(language ? { language } : {}),
            ...(signal ? { signal } : {}),
          });
          const voices = await speech.speakers.embedSpeakers({ path: wav, ...(signal ? { signal } : {}) });
          const file: ChunkFile = {
            chunk: { index: chunk.index, start: chunk.start, end: chunk.end },
            transcript,
            regions: offsetRegions(voices.regions, chunk.start),
            engineMs: Math.round(performance.now() - started),
          };
          await writeWhole(out, file);
          return { outcome: 'done' } as const;
        });
      } catch (e) {
        return failure(e, job.id);
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    },

    /** Stitches the chunks' transcripts on the source's timeline and stores the result files. */
    async finishSpeechJob(input: { jobId: string }): Promise<RunResult> {
      const found = await processingJob(input.jobId);
      if (!('job' in found)) return { outcome: 'not_processing', status: found.status };
      const { job } = found;
      const started = performance.now();
      const dir = checkpointDirOf(deps.store.root, job.id);
      const plan = await readJsonIfExists<SpeechPlan>(planPath(dir));
      if (!plan) throw new Error(`job ${job.id} has no speech plan`);
      const parts: ChunkFile[] = [];
      for (const c of plan.chunks) {
        const part = await readJsonIfExists<ChunkFile>(chunkPath(dir, c.index));
        if (!part) throw new Error(`job ${job.id} has no transcript of chunk ${c.index}`);
        parts.push(part);
      }
      // Speakers are clustered over the whole source at once, so SPEAKER_1 is the same voice in every chunk.
      const turns = clusterSpeakers(parts.flatMap((p) => p.regions));
      const transcript: LabelledTranscript = assignSpeakers(stitchTranscripts(parts, plan.duration), turns);
      const [source] = await jobSources(deps, job);
      let outputs: RunnerOutput[];
      if (job.operation === 'meeting') {
        const summarizer = engine().summarizer ?? null;
        let summary = null;
        try {
          summary =
            summarizer && transcript.words.length > 0
              ? await heartbeating(({ signal }) => summarizer.summarize(transcript, signal ? { signal } : {}))
              : null;
        } catch (e) {
          const outcome = failure(e, job.id);
          if (outcome.outcome !== 'done') return outcome;
        }
        const document = { transcript, title: meetingTitle(source!.filename), summary };
        outputs = [
          { format: 'docx', data: await meetingToDocx(document) },
          { format: 'json', data: Buffer.from(meetingToJson(document), 'utf8') },
        ];
      } else {
        outputs = await transcriptResult(transcript, job.options);
      }
      const files = await storeResults(deps.store, job, source!.filename, outputs);
      const engineMs = parts.reduce((sum, p) => sum + p.engineMs, 0);
      return { outcome: 'done', files, operationMs: engineMs + (performance.now() - started) };
    },
  };
}

export type SpeechActivities = ReturnType<typeof createSpeechActivities>;
