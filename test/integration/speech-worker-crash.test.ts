import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crashTestHarness, killHeld, spawnWorkerProcess, until } from '../helpers/worker-process.js';
import { SENTENCES, spokenClip } from '../../support/speech-corpus.js';
import { wordErrorRate } from '../../support/wer.js';

/**
 * A worker (workers/main.ts, a real OS process with the offline speech engine, two chunks at once as configured by
 * default) is SIGKILLed while it holds the second chunk of a transcription, once the first is done; a second worker finishes the job: it does not analyse the source again, nor extract or
 * transcribe the first chunk again. One charge, one complete transcript.
 *
 * "While it holds" is made certain rather than timed: the first worker's ffmpeg (a wrapper that logs each command and
 * then runs the real one) sleeps instead of extracting chunk 1; the test kills the worker once that is logged.
 */
const dir = mkdtempSync(join(tmpdir(), 'speech-crash-'));
const held: number[] = [];
const { h, workers } = crashTestHarness(() => {
  killHeld(held);
  rmSync(dir, { recursive: true, force: true });
});

/** An ffmpeg that logs what it is asked (`analyse`, or `chunk <n>` from the chunk's scratch folder) and may hold on one chunk. */
function wrapper(name: string, holdOnChunk?: number): string {
  const path = join(dir, `ffmpeg-${name}.sh`);
  const hold =
    holdOnChunk === undefined
      ? ''
      : `case "$what" in "chunk ${holdOnChunk}") echo "held $$" >> "${dir}/${name}.log"; exec sleep 600;; esac\n`;
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      'what=other; prev=',
      'for a in "$@"; do',
      // The chunk written (not read: the engine's own decoding reads it with -i).
      '  case "$a" in *silencedetect*) what=analyse;; *-chunk-*/chunk.wav) [ "$prev" != -i ] && what="chunk $(echo "$a" | sed \'s/.*-chunk-\\([0-9]*\\)\\/chunk.wav/\\1/\')";; esac',
      '  prev="$a"',
      'done',
      `echo "$what" >> "${dir}/${name}.log"`,
      hold + 'exec ffmpeg "$@"',
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return path;
}
/** What the wrapper was asked for the job (the engine's own decoding of each chunk shows as `other`). */
const logOf = (name: string) =>
  existsSync(join(dir, `${name}.log`))
    ? readFileSync(join(dir, `${name}.log`), 'utf8')
        .trim()
        .split('\n')
        .filter((l) => l !== 'other')
    : [];

describe('a worker dies in the middle of a transcription', () => {
  it('another worker resumes at the unfinished chunk: finished chunks are not transcribed again, one charge, one result', async () => {
    const env = {
      DATABASE_URL: h.tdb.url,
      TEMPORAL_TASK_QUEUE: h.taskQueue,
      SECRETS_KEY: h.secretsKey,
      STORAGE_DIR: h.storageDir,
      TRANSCRIPTION_CHUNK_SECONDS: '10',
    };
    const acme = await h.company('SpeechCrash');
    const clip = await spokenClip(dir, 'six', SENTENCES, 'en-us', 165, 1.2);
    const upload = await h.upload(acme.key, 'six.wav', await readFile(clip.path));
    const before = await h.wallet(acme.id);

    workers.push(await spawnWorkerProcess({ ...env, FFMPEG_PATH: wrapper('first', 1) }));
    const job = await h.submitOk(acme.key, {
      operation: 'transcribe',
      upload_ids: [upload],
      options: { output_format: 'txt' },
    });
    held.push(
      Number(
        await until(
          'chunk 1 to be held',
          () =>
            logOf('first')
              .find((l) => l.startsWith('held '))
              ?.slice(5),
          240_000,
        ),
      ),
    );
    // Chunk 0's transcript is in the job's checkpoint folder (the two chunks run at once: it may finish after chunk 1 is held).
    const checkpoint = join(h.storageDir, 'tmp', `ckpt-${job.id}`);
    await until(
      'chunk 0 to be transcribed',
      () => (existsSync(join(checkpoint, 'chunk-0.json')) ? true : undefined),
      240_000,
    );
    expect(readdirSync(checkpoint).sort()).toEqual(['chunk-0.json', 'plan.json']);
    expect(await workers[0]!.kill('SIGKILL')).toBeNull();
    expect(logOf('first').sort()).toEqual(['analyse', 'chunk 0', 'chunk 1', `held ${held[0]}`].sort());

    workers.push(await spawnWorkerProcess({ ...env, FFMPEG_PATH: wrapper('second') }));
    const done = await h.waitForJob(acme.key, job.id, 300_000);
    expect(done).toMatchObject({ status: 'completed', charged_credits: 8 });
    // The second worker neither analysed the source again nor touched chunk 0.
    const second = logOf('second');
    expect(second[0]).toBe('chunk 1');
    expect(second).not.toContain('analyse');
    expect(second).not.toContain('chunk 0');

    const text = await (await h.download(acme.key, done.result!.files[0]!.download_path)).text();
    expect(wordErrorRate(clip.text, text).wer).toBeLessThanOrEqual(0.1);
    const ledger = await h.tdb
      .db('credit_ledger')
      .join('credit_reservations', 'credit_reservations.id', 'credit_ledger.reservation_id')
      .where({ job_id: job.id })
      .orderBy('credit_ledger.id')
      .select('kind', 'credit_ledger.amount');
    expect(ledger.map((r) => [r.kind, Number(r.amount)])).toEqual([
      ['reserve', 8],
      ['charge', 8],
    ]);
    expect(await h.wallet(acme.id)).toEqual({ available: before.available - 8, reserved: before.reserved });
    expect(readdirSync(join(h.storageDir, 'tmp')).filter((n) => !n.startsWith('.'))).toEqual([]);
  });
});
