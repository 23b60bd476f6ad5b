import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../domain/errors.js';
import { newId } from '../../../adapters/crypto/tokens.js';
import {
  CURSOR_LISTS,
  cursorPattern,
  decodeCursor,
  encodeCursor,
  parseAfter,
  type CursorList,
} from '../../../api/http/pagination.js';

const lists = Object.keys(CURSOR_LISTS) as CursorList[];
const refusal = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return JSON.stringify(e.details);
    throw e;
  }
  return undefined;
};

describe('before cursors', () => {
  it('every cursor a list hands out has the documented shape of that list only, and decodes back to its id', () => {
    for (const kind of lists) {
      for (let i = 0; i < 50; i++) {
        const id = newId(CURSOR_LISTS[kind]);
        const cursor = encodeCursor(kind, id);
        expect(cursor).not.toContain(id);
        expect(new RegExp(cursorPattern(kind)).test(cursor), `${kind} ${cursor}`).toBe(true);
        for (const other of lists.filter((l) => l !== kind))
          expect(new RegExp(cursorPattern(other)).test(cursor)).toBe(false);
        expect(decodeCursor(kind, cursor)).toBe(id);
      }
    }
  });

  it('refuses, naming before, anything else: 0, junk of the right shape, a cursor of another list, an id of another kind', () => {
    const real = encodeCursor('requests', newId('req'));
    for (const raw of [
      '0',
      '',
      'garbage',
      ['a', 'b'],
      `${real.slice(0, -1)}!`,
      encodeCursor('contacts', newId('con')),
      encodeCursor('requests', newId('con')),
      encodeCursor('requests', 'req_short'),
    ]) {
      expect(
        refusal(() => decodeCursor('requests', raw)),
        JSON.stringify(raw),
      ).toContain('"path":"before"');
    }
    expect(new RegExp(cursorPattern('requests')).test('0')).toBe(false);
    expect(decodeCursor('requests', undefined)).toBeNull();
  });
});

describe('after (feeds)', () => {
  it('is an integer from 0 to 2^53-1, default 0; anything else is refused naming after', () => {
    expect(parseAfter(undefined)).toBe(0);
    expect(parseAfter('0')).toBe(0);
    expect(parseAfter('0042')).toBe(42);
    expect(parseAfter(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    for (const raw of ['9007199254740992', '99999999999999999999', '-1', '1.5', '1e3', '', 'x', ['1', '2']]) {
      expect(
        refusal(() => parseAfter(raw)),
        JSON.stringify(raw),
      ).toContain('"path":"after"');
    }
  });
});
