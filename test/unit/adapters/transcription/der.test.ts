import { describe, expect, it } from 'vitest';
import { diarizationErrorRate } from '../../../../support/der.js';

const close = (a: number, b: number) => expect(a).toBeCloseTo(b, 6);

describe('diarizationErrorRate (support/der.ts)', () => {
  it('is 0 for a perfect hypothesis under other names, and maps the speakers', () => {
    const ref = [
      { start: 0, end: 4, speaker: 'A' },
      { start: 5, end: 9, speaker: 'B' },
    ];
    const r = diarizationErrorRate(ref, [
      { start: 0, end: 4, speaker: 'x' },
      { start: 5, end: 9, speaker: 'y' },
    ]);
    close(r.der, 0);
    expect(Object.fromEntries(r.mapping)).toEqual({ A: 'x', B: 'y' });
  });

  it('counts missed speech, false alarm and confusion outside the 0.25 s collar', () => {
    const ref = [
      { start: 0, end: 10, speaker: 'A' },
      { start: 20, end: 30, speaker: 'B' },
    ];
    // A's second half given to another hypothesis speaker (confusion), B heard only from 25 s (missed), and speech
    // claimed in the silence 12–14 s (false alarm).
    const r = diarizationErrorRate(ref, [
      { start: 0, end: 5, speaker: 1 },
      { start: 5, end: 10, speaker: 2 },
      { start: 12, end: 14, speaker: 1 },
      { start: 25, end: 30, speaker: 2 },
    ]);
    // Scored reference speech: 10 s each less 0.25 s at each edge of each stretch = 19 s.
    close(r.speech, 19);
    // The mapping keeps the most time: A→1 (4.75 s) and B→2 (4.75 s) against A→2 and B unmapped (4.75 s).
    close(r.confusion, 4.75);
    close(r.missed, 4.75);
    close(r.falseAlarm, 2);
    close(r.der, (4.75 + 4.75 + 2) / 19);
  });

  it('scores overlapping speech: each reference speaker in a frame counts', () => {
    // A talks 0–10, B talks 6–10 over A.
    const ref = [
      { start: 0, end: 10, speaker: 'A' },
      { start: 6, end: 10, speaker: 'B' },
    ];
    const perfect = diarizationErrorRate(ref, [
      { start: 0, end: 10, speaker: 'p' },
      { start: 6, end: 10, speaker: 'q' },
    ]);
    close(perfect.der, 0);
    // Reference speech counts the overlap twice: (10 − 0.25 − 0.25) for A + (4 − 0.5) for B, less B's start collar
    // inside A's stretch (5.75–6.25: A's frames there are unscored too).
    close(perfect.speech, 9.5 - 0.5 + 3.5);
    // A hypothesis with one speaker at a time misses the overlapped speaker.
    const single = diarizationErrorRate(ref, [{ start: 0, end: 10, speaker: 'p' }]);
    close(single.missed, 3.5);
    close(single.confusion, 0);
    close(single.falseAlarm, 0);
    // Two hypothesis speakers where only one reference speaker talks: a false alarm.
    const doubled = diarizationErrorRate(
      [{ start: 0, end: 10, speaker: 'A' }],
      [
        { start: 0, end: 10, speaker: 'p' },
        { start: 2, end: 4, speaker: 'q' },
      ],
    );
    close(doubled.falseAlarm, 2 - 0);
    close(doubled.der, 2 / 9.5);
  });

  it('confusion in overlap: the mapping is one-to-one, so two reference speakers under one label lose one', () => {
    const ref = [
      { start: 0, end: 10, speaker: 'A' },
      { start: 0, end: 10, speaker: 'B' },
    ];
    const r = diarizationErrorRate(ref, [
      { start: 0, end: 10, speaker: 'p' },
      { start: 0, end: 10, speaker: 'p2' },
    ]);
    close(r.der, 0);
    const merged = diarizationErrorRate(ref, [{ start: 0, end: 10, speaker: 'p' }]);
    // 9.5 s of each speaker scored; one missed per frame (only one hypothesis speaker).
    close(merged.speech, 19);
    close(merged.missed, 9.5);
    close(merged.confusion, 0);
  });

  it('is 0 with no reference speech and no hypothesis; all missed with no hypothesis', () => {
    close(diarizationErrorRate([], []).der, 0);
    close(diarizationErrorRate([{ start: 0, end: 5, speaker: 'A' }], []).der, 1);
  });
});
