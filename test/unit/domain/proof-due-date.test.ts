import { describe, expect, it } from 'vitest';
import { dueDateWindow } from '../../../domain/proof/due-date.js';

describe('an invoice payment request stays open until the end of its due date, within the plan', () => {
  const now = new Date('2026-03-10T12:00:00Z');

  it('counts whole hours to 23:59:59 UTC of the due date, at least one', () => {
    expect(dueDateWindow('2026-03-10', now, 72)).toEqual({ ok: true, validHours: 12 });
    expect(dueDateWindow('2026-03-10', new Date('2026-03-10T23:59:30Z'), 72)).toEqual({ ok: true, validHours: 1 });
    expect(dueDateWindow('2026-03-12', now, 72)).toEqual({ ok: true, validHours: 60 });
    expect(dueDateWindow('2026-04-08', now, 720)).toEqual({ ok: true, validHours: 708 });
  });

  it("refuses a due date whose end lies past the plan's bound and names the latest allowed date", () => {
    // now + 72 h = 13 March 12:00: the 12th ends within it, the 13th does not.
    expect(dueDateWindow('2026-03-13', now, 72)).toEqual({ ok: false, latestDueDate: '2026-03-12' });
    expect(dueDateWindow('2026-04-09', now, 720)).toEqual({ ok: false, latestDueDate: '2026-04-08' });
    // At midnight exactly, the window ends with a whole day: 72 h from 00:00 covers three days.
    const midnight = new Date('2026-03-10T00:00:00Z');
    expect(dueDateWindow('2026-03-12', midnight, 72)).toEqual({ ok: true, validHours: 72 });
    expect(dueDateWindow('2026-03-13', midnight, 72)).toEqual({ ok: false, latestDueDate: '2026-03-12' });
  });
});
