/**
 * The speech operations (`transcribe`, `meeting`; spec sections 2 and 8, docs/processing.md "Transcription"):
 * what a request may ask for, and how the pipeline cuts the work. The engines live in adapters/providers/transcription.
 */
export const SPEECH_OPERATIONS = ['transcribe', 'meeting'] as const;
export type SpeechOperation = (typeof SPEECH_OPERATIONS)[number];

export const isSpeechOperation = (operation: string): operation is SpeechOperation =>
  (SPEECH_OPERATIONS as readonly string[]).includes(operation);

/** `transcribe`'s `output_format`s (the spec writes them in capitals; requests may use either case). */
export const TRANSCRIPT_FORMATS = ['txt', 'docx', 'srt', 'vtt', 'json'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];
/** What `transcribe` gives when the request names no `output_format`. */
export const DEFAULT_TRANSCRIPT_FORMAT: TranscriptFormat = 'txt';

/** `meeting` gives both: the meeting document (summary, speakers, timeline, transcript) as DOCX and as JSON. */
export const MEETING_FORMATS = ['docx', 'json'] as const;

/** A requested `language`: an ISO 639-1 code (`en`), or ISO 639-3 for the two Whisper languages without one (`haw`, `yue`). */
export const SPEECH_LANGUAGE_PATTERN = '^[a-z]{2,3}$';

/**
 * Chunks one run of the speech workflow transcribes before it continues as new: each chunk adds a handful of events,
 * so a run's history stays in the low thousands of events whatever the length of the audio (10 hours cut into
 * 30-second chunks is 1,200 chunks).
 */
export const SPEECH_CHUNKS_PER_RUN = 100;

/**
 * The chunk lengths (seconds) that follow from a target length: cut on a silence between half the target (at most
 * 30 s) and twice the target (at most 10 minutes), with the 2 s overlap of a hard cut where no silence is found.
 * The target is TRANSCRIPTION_CHUNK_SECONDS (default 300).
 */
export function chunkLengths(targetSeconds: number): {
  targetSeconds: number;
  minSeconds: number;
  maxSeconds: number;
  overlapSeconds: number;
} {
  const target = Math.min(600, Math.max(10, targetSeconds));
  return {
    targetSeconds: target,
    minSeconds: Math.min(30, target / 2),
    maxSeconds: Math.min(600, target * 2),
    overlapSeconds: 2,
  };
}
