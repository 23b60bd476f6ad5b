import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The Dockerfile's offline speech engine, read as text (there is no Docker engine here to build it; the layer's
 * commands were run once in a scratch folder, see docs/operations.md): the image must hold the engine where its
 * TRANSCRIPTION_* variables point, installed as scripts/setup.sh installs it, and the worker script and lock files
 * where the compiled adapter looks for them.
 */
const DOCKERFILE = readFileSync(fileURLToPath(new URL('../../Dockerfile', import.meta.url)), 'utf8');
/** Instructions with their continuation lines joined, comments dropped. */
const INSTRUCTIONS = DOCKERFILE.replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim().replace(/\s+/g, ' '))
  .filter((l) => l && !l.startsWith('#'));

function stage(name: string): string[] {
  const start = INSTRUCTIONS.findIndex((l) => new RegExp(`^FROM \\S+ AS ${name}$`, 'i').test(l));
  expect(start, `stage ${name}`).toBeGreaterThanOrEqual(0);
  const end = INSTRUCTIONS.findIndex((l, i) => i > start && l.startsWith('FROM '));
  return INSTRUCTIONS.slice(start, end < 0 ? undefined : end);
}

describe('Dockerfile: the offline speech engine', () => {
  it('installs the locked requirements (hashes, wheels only) and the checked model in their own stage on the runtime base', () => {
    const speech = stage('speech');
    const runtime = stage('runtime');
    expect(speech[0]!.split(' ')[1]).toBe(runtime[0]!.split(' ')[1]); // same base: the venv's python3 link holds
    const install = speech.find((l) => l.includes('pip install'))!;
    for (const flag of ['--require-hashes', '--only-binary=:all:', '--no-deps', '-r /opt/speech/requirements.txt'])
      expect(install).toContain(flag);
    expect(
      speech.some((l) => l.includes('install_model.py /opt/speech/model.lock.json /opt/speech/whisper-base')),
    ).toBe(true);
    expect(speech.some((l) => l.includes('install_model.py /opt/speech/campplus.lock.json /opt/speech/campplus'))).toBe(
      true,
    );
    // cache-friendly: each lock is copied just before the step that uses it, the source tree never
    expect(speech.filter((l) => l.startsWith('COPY ')).join('\n')).not.toMatch(/COPY \. /);
    expect(speech.findIndex((l) => l.includes('requirements.txt /opt/speech/'))).toBeLessThan(speech.indexOf(install));
  });

  it('copies the engine into the runtime before the application, with TRANSCRIPTION_PYTHON and TRANSCRIPTION_MODEL_DIR pointing at it', () => {
    const runtime = stage('runtime');
    const copyEngine = runtime.indexOf('COPY --from=speech /opt/speech /opt/speech');
    expect(copyEngine).toBeGreaterThan(0);
    expect(copyEngine).toBeLessThan(runtime.findIndex((l) => l.includes('npm install')));
    expect(runtime.find((l) => l.startsWith('RUN apt-get'))).toMatch(/\bpython3\b/);
    const env = runtime.filter((l) => l.startsWith('ENV ')).join(' ');
    expect(env).toContain('TRANSCRIPTION_PYTHON=/opt/speech/venv/bin/python');
    expect(env).toContain('TRANSCRIPTION_MODEL_DIR=/opt/speech/whisper-base');
    expect(env).toContain('TRANSCRIPTION_SPEAKER_MODEL=/opt/speech/campplus/campplus.pt');
  });

  it('puts worker.py and the lock files where the compiled adapter looks (three folders up from dist/adapters/providers/transcription)', () => {
    const engineDir = new URL(
      '../../../engines/transcription/',
      'file:///app/dist/adapters/providers/transcription/install-layout.js',
    ).pathname;
    expect(engineDir).toBe('/app/dist/engines/transcription/');
    const runtime = stage('runtime');
    const workdir = runtime.find((l) => l.startsWith('WORKDIR '))!.split(' ')[1];
    expect(workdir).toBe('/app');
    expect(runtime).toContain('COPY engines/transcription/ ./dist/engines/transcription/');
  });
});
