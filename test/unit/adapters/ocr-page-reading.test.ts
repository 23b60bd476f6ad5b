import { describe, expect, it } from 'vitest';
import { languageScores, pageLanguage } from '../../../adapters/media/ocr/page-language.js';
import {
  MIN_OCR_DPI,
  pageImageDpi,
  upscaleFactor,
  UPSCALE_TO_DPI,
} from '../../../adapters/media/ocr/page-resolution.js';

/**
 * How extraction's OCR reads a page (adapters/media/ocr/page-language.ts, page-resolution.ts): the page's language
 * from the words of a first pass, and the resolution of an image of a page from its pixels when it states none.
 */
const ALL = ['eng', 'deu', 'fra', 'spa', 'ita', 'por', 'nld'];
const words = (s: string) => s.split(/\s+/);

describe("the page language from a first pass's words", () => {
  it('German, French, Spanish, Italian, Portuguese and Dutch invoice text, as the English model reads it (accents lost)', () => {
    expect(
      pageLanguage(
        words('Rechnung Nr. 17 Datum 03.05.2024 Betrag fur die Lieferung von Waren, zahlbar ohne Abzug MwSt 19 %'),
        ALL,
        'eng',
      ),
    ).toBe('deu');
    expect(
      pageLanguage(
        words('Facture n° 12 du 3 mai, montant TTC a payer avant echeance, TVA 20 % sur le total HT'),
        ALL,
        'eng',
      ),
    ).toBe('fra');
    expect(
      pageLanguage(
        words(
          'Factura numero 88 fecha de vencimiento, base imponible, IVA 21 %, forma de pago: transferencia para el cliente',
        ),
        ALL,
        'eng',
      ),
    ).toBe('spa');
    expect(
      pageLanguage(
        words(
          'Fattura numero 5 della ditta, data di scadenza, imponibile e aliquota IVA, totale da pagamento per il cliente',
        ),
        ALL,
        'eng',
      ),
    ).toBe('ita');
    expect(
      pageLanguage(
        words(
          'Fatura do cliente, data de vencimento, valor com imposto, obrigado pela preferencia, quantidade e preco',
        ),
        ALL,
        'eng',
      ),
    ).toBe('por');
    expect(
      pageLanguage(
        words(
          'Factuur voor uw bestelling, factuurdatum en vervaldatum, bedrag excl BTW, te betalen op rekening van de klant',
        ),
        ALL,
        'eng',
      ),
    ).toBe('nld');
  });

  it("English stays English; too few words, or a language that is not a candidate, keep the caller's language", () => {
    expect(
      pageLanguage(
        words(
          'Invoice number 17, date of issue, total amount due for the order, please pay by bank transfer to our account',
        ),
        ALL,
        'eng',
      ),
    ).toBe('eng');
    expect(pageLanguage(words('Rechnung 17 EUR'), ALL, 'eng')).toBe('eng');
    expect(
      pageLanguage(words('Rechnung Nr. 17 Datum Betrag fur die Lieferung von Waren zahlbar'), ['eng', 'fra'], 'eng'),
    ).toBe('eng');
    expect(pageLanguage(words('Rechnung Nr. 17 Datum Betrag fur die Lieferung von Waren zahlbar'), [], 'eng+fra')).toBe(
      'eng+fra',
    );
  });

  it('a word several languages share counts for each, divided among them', () => {
    const scores = languageScores(['de', 'total', 'Rechnung'], ['deu', 'fra', 'nld']);
    expect(scores.get('deu')).toBeCloseTo(1, 6);
    expect(scores.get('fra')).toBeCloseTo(1 / 4 + 1 / 4, 6); // "de": fra, spa, por, nld; "total": eng, fra, spa, por
    expect(scores.get('nld')).toBeCloseTo(1 / 4, 6);
  });
});

describe('the resolution of an image of a page', () => {
  it("a page-shaped image without a resolution: its pixels over A4's or letter's inches", () => {
    expect(pageImageDpi(794, 1123, undefined)).toBe(96); // A4 at 96 dpi
    expect(pageImageDpi(1123, 794, undefined)).toBe(96); // landscape
    expect(pageImageDpi(816, 1056, undefined)).toBe(96); // letter at 96 dpi
    expect(pageImageDpi(2480, 3508, undefined)).toBe(300);
    expect(pageImageDpi(800, 800, undefined)).toBeNull(); // not a page's shape
  });

  it("a stated resolution below 100 dpi is kept when the page it gives is a page's size; else the pixels decide", () => {
    expect(pageImageDpi(560, 794, 96)).toBe(96); // A5 at 96 dpi
    expect(pageImageDpi(2480, 3508, 72)).toBe(300); // 48 in at the stated 72 dpi: the stated resolution is wrong
  });

  it(`an image below ${MIN_OCR_DPI} dpi is enlarged to ${UPSCALE_TO_DPI} dpi, within 10,000 pixels`, () => {
    expect(upscaleFactor(96, 1123)).toBeCloseTo(UPSCALE_TO_DPI / 96, 6);
    expect(upscaleFactor(150, 1754)).toBe(2);
    expect(upscaleFactor(MIN_OCR_DPI, 2339)).toBe(1);
    expect(upscaleFactor(300, 3508)).toBe(1);
    expect(upscaleFactor(50, 4000)).toBe(2.5);
  });
});
