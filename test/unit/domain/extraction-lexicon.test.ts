import { describe, expect, it } from 'vitest';
import { extractOffline } from '../../../adapters/extraction/offline-engine.js';
import { conceptOf } from '../../../adapters/extraction/offline-labels.js';
import { checkDocument } from '../../../domain/extraction-checks.js';
import { LANGUAGES, REGISTRATION_WORDS, TAX_NAMES } from '../../../domain/extraction-lexicon.js';
import { pageBlocks } from '../../../domain/extraction-parties.js';
import { documentOf, layoutPage } from '../../helpers/positioned-text.js';

/**
 * Issue 29: one lexicon (domain/extraction-lexicon.ts) for the engine that pairs labels with values and the checks
 * that judge them. A tax the checks know by name is a tax label the engine reads; a registration word that makes a
 * footer a company's block for the parties is one the tax check does not take for a tax line.
 */
const concept = (f: string) => conceptOf(f).id;

describe('one lexicon for the engine and the checks', () => {
  it('names taxes in each of the six languages', () => {
    for (const lang of ['en', 'de', 'fr', 'es', 'it', 'nl'] as const) expect(TAX_NAMES[lang].length).toBeGreaterThan(0);
    expect(LANGUAGES).toEqual(expect.arrayContaining(['en', 'de', 'fr', 'es', 'it', 'nl']));
  });

  it.each(LANGUAGES.flatMap((lang) => TAX_NAMES[lang].map((name) => [lang, name] as const)))(
    '%s "%s": the engine reads the tax under it, and the checks know the document names a tax',
    (_lang, name) => {
      const doc = documentOf(
        layoutPage([
          [
            [300, 'Subtotal'],
            [480, '100.00'],
          ],
          [
            [300, `${name.toUpperCase()} 10%`],
            [480, '10.00'],
          ],
          [
            [300, 'Total'],
            [480, '110.00'],
          ],
        ]),
      );
      const r = extractOffline(doc, ['subtotal', 'tax', 'total']);
      expect(r.fields['tax']!.value).toBe('10.00');
      expect(checkDocument(r, doc, concept).reasons).toEqual([]);
    },
  );

  it.each(LANGUAGES.flatMap((lang) => REGISTRATION_WORDS[lang].map((w) => [lang, w] as const)))(
    '%s "%s": a registration word makes a footer a company\'s block',
    (_lang, word) => {
      const page = layoutPage(['Invoice', null, null, null, null, 'ACME Holding', `${word} 12345`, '12 Main Street']);
      expect(pageBlocks(page).some((b) => b.registration && b.segments[0]!.text === 'ACME Holding')).toBe(true);
    },
  );
});
