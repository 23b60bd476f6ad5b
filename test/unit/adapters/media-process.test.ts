import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MediaToolFailed, MediaToolTimeout, MediaToolUnavailable, runMediaTool } from '../../../adapters/media/av/media-process.js';

/** Pids whose command line holds `marker`. */
function running(marker: string): number[] {
  return readdirSync('/proc').filter((e) => /^\d+$/.test(e)).filter((e) => {
    try {
      return readFileSync(`/proc/${e}/cmdline`).toString().includes(marker);
    } catch {
      return false;
    }
  }).map(Number);
}

async function gone(marker: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (running(marker).length > 0) {
    if (Date.now() > deadline) throw new Error('the process outlived its stop');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** An ffmpeg run that never ends by itself (an endless tone to nowhere), named by a marker in its arguments. */
const endless = (marker: string) => ['-nostdin', '-v', 'error', '-f', 'lavfi', '-i', 'sine', '-metadata', `comment=${marker}`, '-progress', 'pipe:1', '-f', 'null', '-'];

describe('the ffmpeg spawn wrapper', () => {
  it('stops a run past its time limit, with its process group', async () => {
    const marker = randomUUID();
    await expect(runMediaTool('ffmpeg', 'ffmpeg', endless(marker), { timeoutMs: 1500, onProgress: () => undefined })).rejects.toBeInstanceOf(MediaToolTimeout);
    await gone(marker);
  });

  it('stops a run when its signal aborts (the activity was cancelled), after it reported progress', async () => {
    const marker = randomUUID();
    const abort = new AbortController();
    const blocks: Array<Record<string, string>> = [];
    const run = runMediaTool('ffmpeg', 'ffmpeg', endless(marker), {
      timeoutMs: 60_000, signal: abort.signal,
      onProgress: (b) => {
        blocks.push(b);
        if (Number(b['out_time_us']) > 0) abort.abort(new Error('cancelled'));
      },
    });
    await expect(run).rejects.toThrow('cancelled');
    expect(blocks.at(-1)).toMatchObject({ progress: 'continue' });
    await gone(marker);
  });

  it('names a missing program and a failed run apart', async () => {
    await expect(runMediaTool('ffmpeg', '/nonexistent/ffmpeg', ['-version'], { timeoutMs: 5000 })).rejects.toBeInstanceOf(MediaToolUnavailable);
    const failed = runMediaTool('ffmpeg', 'ffmpeg', ['-nostdin', '-v', 'error', '-i', 'file:/nonexistent/in.mp4', '-f', 'null', '-'], { timeoutMs: 5000 });
    await expect(failed).rejects.toBeInstanceOf(MediaToolFailed);
    await expect(failed).rejects.toMatchObject({ detail: expect.stringContaining('No such file') });
  });
});
