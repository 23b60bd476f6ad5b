import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { splitOf, TEST_CONVERSATIONS } from '../../../bench/speech-corpus/corpus.js';
import { REAL_SPEECH_FIXTURES } from '../../helpers/speech-real.js';

/**
 * The speech bench's held-out figures must come from voices nothing was tuned on (bench/speech-corpus/README.md,
 * "Split"). The committed test fixtures (test/fixtures/speech-real/) are watched by tests with floors while the engine
 * is tuned, so every voice in them must be a tune voice: a held-out voice there contaminates the held-out figures.
 */
const VOICES = fileURLToPath(new URL('../../../bench/speech-corpus/voices.json', import.meta.url));

interface VoiceSpec {
  id: string;
  group: string;
}

describe('the committed speech fixtures use tune voices only', () => {
  it('every fixture manifest names only people of the tune split', async () => {
    const voices = (JSON.parse(await readFile(VOICES, 'utf8')) as { voices: VoiceSpec[] }).voices;
    const groups = new Set(voices.map((v) => v.group));
    const manifests = (await readdir(REAL_SPEECH_FIXTURES)).filter((n) => n.endsWith('.json'));
    expect(manifests.length).toBeGreaterThan(0);
    const heldOut: string[] = [];
    for (const name of manifests) {
      const fixture = JSON.parse(await readFile(join(REAL_SPEECH_FIXTURES, name), 'utf8')) as {
        id: string;
        speakers: string[];
        reference: { speaker: string }[];
      };
      const people = new Set([...fixture.speakers, ...fixture.reference.map((r) => r.speaker)]);
      for (const person of people) {
        expect(groups.has(person), `${fixture.id}: "${person}" is no voice group of voices.json`).toBe(true);
        if (splitOf(person) !== 'tune') heldOut.push(`${fixture.id}: ${person}`);
      }
    }
    expect(heldOut, 'fixtures that use held-out voices').toEqual([]);
  });

  it('the fixtures make-test-fixtures.ts writes are drawn from tune voices only', async () => {
    const voices = (JSON.parse(await readFile(VOICES, 'utf8')) as { voices: VoiceSpec[] }).voices;
    const heldOut = TEST_CONVERSATIONS.flatMap((spec) =>
      spec.voices
        .filter((id) => splitOf(voices.find((v) => v.id === id)!.group) !== 'tune')
        .map((id) => `${spec.id}: ${id}`),
    );
    expect(heldOut, 'TEST_CONVERSATIONS with held-out voices').toEqual([]);
  });
});
