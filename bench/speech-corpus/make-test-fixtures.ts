/**
 * Writes the floor test's real conversations (TEST_CONVERSATIONS in corpus.ts) into test/fixtures/speech-real/:
 * FLAC, the labels (JSON) and RTTM. Run once after changing them: npx tsx bench/speech-corpus/make-test-fixtures.ts
 */
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTestConversations } from './corpus.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/speech-real');
await mkdir(dir, { recursive: true });
for (const c of await writeTestConversations(dir)) {
  console.log(
    `${c.id}: ${c.duration.toFixed(1)} s, ${c.speakers.join(', ')}, overlap ${c.overlapSeconds} s, ${c.text ? c.text.split(' ').length : 0} words`,
  );
}
