/**
 * How long an invoice's payment request stays open: until the end of the due date (23:59:59 UTC), so the payment
 * page never expires while the invoice is still due. The plan bounds it (`maxValidHours`: 72 on a trial, 720
 * otherwise); a due date whose end lies further ahead is refused rather than given a shorter payment window.
 */
const HOUR_MS = 3_600_000;
const DAY_END_MS = 86_399_000;

export type DueDateWindow = { ok: true; validHours: number } | { ok: false; latestDueDate: string };

/** Start of a `YYYY-MM-DD` day in UTC, in milliseconds. */
const startOf = (date: string) => Date.parse(`${date}T00:00:00Z`);

/**
 * The whole hours from `now` to the end of `dueDate` (at least 1), or, when that exceeds `maxValidHours`, the
 * latest due date the plan allows at `now` (the last day whose end is at most `maxValidHours` ahead).
 */
export function dueDateWindow(dueDate: string, now: Date, maxValidHours: number): DueDateWindow {
  const untilEnd = startOf(dueDate) + DAY_END_MS - now.getTime();
  const validHours = Math.max(1, Math.ceil(untilEnd / HOUR_MS));
  if (validHours <= maxValidHours) return { ok: true, validHours };
  return {
    ok: false,
    latestDueDate: new Date(now.getTime() + maxValidHours * HOUR_MS - DAY_END_MS).toISOString().slice(0, 10),
  };
}
