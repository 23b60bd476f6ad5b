import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SOLANA_FIXTURES_DIR } from '../../helpers/solana-rpc.js';

const shared = fileURLToPath(new URL('../../../../shared/fixtures/solana/', import.meta.url));

describe('vendored Solana fixtures', () => {
  it.skipIf(!existsSync(shared))('are byte-identical copies of ../shared/fixtures/solana', () => {
    const names = readdirSync(shared).sort();
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      expect(readFileSync(`${SOLANA_FIXTURES_DIR}${name}`).equals(readFileSync(`${shared}${name}`)), name).toBe(true);
    }
  });
});
