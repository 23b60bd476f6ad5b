import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSourceText, type SourceTextOptions } from '../../../../adapters/extraction/source-text.js';
import { capText, plainTextPages } from '../../../../adapters/extraction/text-pages.js';
import { createOcrEngine, type OcrEngine } from '../../../../adapters/media/ocr/ocr-engine.js';
import { InvalidSourceError, ProviderUnavailableError } from '../../../../adapters/providers/provider-errors.js';
import { EXTRACTION_LIMITS, type PageText, type PositionedText } from '../../../../domain/extraction.js';
import { corpusPage, foreignPage, scannedPdf, wordAccuracy, type CorpusPage } from '../../../../support/ocr-corpus.js';

/**
 * Source text of flow-extract (adapters/extraction/source-text.ts) on the real engines (poppler's pdftotext,
 * Tesseract 5): PDFs made with pdf-lib with known words at known places, pages rendered from known text
 * (support/ocr-corpus.ts) as scans and images, UTF-8 text. Three pages of OCR in all.
 */
const dir = mkdtempSync(join(tmpdir(), 'source-text-'));
let n = 0;
const engine = createOcrEngine({ concurrency: 2 });
const opts = (extra: Partial<SourceTextOptions> = {}): SourceTextOptions => {
  const workDir = join(dir, `work-${++n}`);
  mkdirSync(workDir);
  return { engine, workDir, ...extra };
};
const file = (name: string, data: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, data);
  return path;
};

/** Every word is in the page's text at its offset. */
function expectOffsets(p: PageText) {
  for (const w of p.words) expect(p.text.slice(w.offset, w.offset + w.text.length), `word ${w.text}`).toBe(w.text);
  // …and nothing else is: the text is the words with single spaces, newlines and blank lines between them.
  expect(p.text.split(/[ \n]+/).filter(Boolean)).toEqual(p.words.map((w) => w.text));
  expect(p.text).not.toMatch(/ {2}|\n{3}|^\s|\s$/);
}

/** Boxes lie on the page and are not empty. */
function expectSaneBoxes(p: PageText) {
  for (const w of p.words) {
    expect(w.box.x0).toBeGreaterThanOrEqual(0);
    expect(w.box.y0).toBeGreaterThanOrEqual(0);
    expect(w.box.x1).toBeLessThanOrEqual(p.width + 0.5);
    expect(w.box.y1).toBeLessThanOrEqual(p.height + 0.5);
    expect(w.box.x1).toBeGreaterThan(w.box.x0);
    expect(w.box.y1).toBeGreaterThan(w.box.y0);
  }
}

const lineWith = (p: PageText, word: string) => p.text.split('\n').find((l) => l.split(' ').includes(word));
const wordAt = (p: PageText, text: string) => {
  const w = p.words.find((x) => x.text === text);
  if (!w) throw new Error(`no word ${text} on page ${p.page}`);
  return w;
};

let invoice: CorpusPage;
let twoColumn: CorpusPage;
beforeAll(async () => {
  invoice = await corpusPage('invoice');
  twoColumn = await corpusPage('two-column');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a PDF with a text layer', () => {
  const H = 842;
  const size = 11;
  const left = ['Alpha beta gamma delta epsilon zeta', 'eta theta iota kappa lambda mu', 'nu xi omicron pi rho sigma'];
  const right = ['One two three four five six', 'seven eight nine ten eleven', 'twelve thirteen fourteen fifteen'];
  const table = [
    ['Description', 'Qty', 'Unit price', 'Amount'],
    ['Printer paper A4', '12', '4.50', '54.00'],
    ['Toner cartridge', '3', '61.90', '185.70'],
  ];
  const columnsX = [50, 250, 330, 450];
  let doc: PositionedText;
  let widthOf: (s: string) => number;

  beforeAll(async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    widthOf = (s) => font.widthOfTextAtSize(s, size);
    const page = pdf.addPage([595, H]);
    page.drawText('Invoice INV-7', { x: 50, y: H - 60, size, font });
    left.forEach((l, i) => page.drawText(l, { x: 50, y: H - 120 - i * 14, size, font }));
    right.forEach((l, i) => page.drawText(l, { x: 320, y: H - 120 - i * 14, size, font }));
    table.forEach((row, i) =>
      row.forEach((cell, j) => page.drawText(cell, { x: columnsX[j]!, y: H - 250 - i * 18, size, font })),
    );
    pdf.addPage([300, 400]).drawText('Second page words', { x: 20, y: 350, size, font });
    const turned = pdf.addPage([300, 400]);
    turned.drawText('Shown turned a quarter', { x: 20, y: 350, size, font });
    turned.setRotation(degrees(90));
    doc = await readSourceText(file('text.pdf', await pdf.save()), opts());
  });

  it('gives every page its words, boxes in points from the top-left, and each word at its offset', () => {
    expect(doc.truncated).toBe(false);
    expect(doc.warnings).toEqual([]);
    // The third page has /Rotate 90: its size and boxes are as it is shown.
    expect(doc.pages.map((p) => [p.page, p.source, p.width, p.height])).toEqual([
      [1, 'text_layer', 595, 842],
      [2, 'text_layer', 300, 400],
      [3, 'text_layer', 400, 300],
    ]);
    for (const p of doc.pages) {
      expectOffsets(p);
      expectSaneBoxes(p);
    }
    // "INV-7" drawn at x = 50 + width("Invoice "), baseline 60 pt from the top: Helvetica's ascent is 0.718 em, its descent 0.207 em.
    const inv = wordAt(doc.pages[0]!, 'INV-7');
    const x = 50 + widthOf('Invoice ');
    expect(inv.box.x0).toBeCloseTo(x, 0);
    expect(Math.abs(inv.box.x1 - (x + widthOf('INV-7')))).toBeLessThan(2);
    expect(Math.abs(inv.box.y0 - (60 - 0.718 * size))).toBeLessThan(2);
    expect(Math.abs(inv.box.y1 - (60 + 0.207 * size))).toBeLessThan(2);
    const qty = wordAt(doc.pages[0]!, '185.70');
    expect(Math.abs(qty.box.x0 - 450)).toBeLessThan(2);
    expect(Math.abs(qty.box.y1 - (250 + 2 * 18 + 0.207 * size))).toBeLessThan(2);
    expect(doc.pages[1]!.text).toBe('Second page words');
    expect(Math.abs(wordAt(doc.pages[1]!, 'Second').box.y0 - (50 - 0.718 * size))).toBeLessThan(2);
  });

  it('reads two columns one after the other and a table row by row', () => {
    const text = doc.pages[0]!.text;
    // The columns: the left one whole, then a blank line, then the right one.
    expect(text).toContain(`${left.join('\n')}\n\n${right.join('\n')}`);
    expect(text.indexOf('Invoice INV-7')).toBeLessThan(text.indexOf('Alpha'));
    // The table: each row one line, its cells left to right, after the columns.
    for (const row of table) expect(lineWith(doc.pages[0]!, row[0]!.split(' ')[0]!)).toBe(row.join(' '));
    expect(text.indexOf('fifteen')).toBeLessThan(text.indexOf('Description'));
    expect(text.indexOf('Description')).toBeLessThan(text.indexOf('Printer'));
  });
});

describe('scanned pages and images (OCR)', () => {
  it('a scanned page is read by OCR: its words, boxes in points at the page size, a table row on one line', async () => {
    const doc = await readSourceText(file('scan.pdf', await scannedPdf([invoice])), opts());
    expect(doc.warnings).toEqual([]);
    const [p] = doc.pages;
    expect(doc.pages).toHaveLength(1);
    expect(p!.source).toBe('ocr');
    // The corpus page is A5 (5.83 × 8.27 in) at 300 dpi.
    expect(p!.width).toBeCloseTo(5.83 * 72, 0);
    expect(p!.height).toBeCloseTo(8.27 * 72, 0);
    const acc = wordAccuracy(invoice.truth, p!.text);
    console.info('scanned invoice word accuracy', acc);
    expect(acc.recall).toBeGreaterThanOrEqual(0.95); // measured 1.000
    expectOffsets(p!);
    expectSaneBoxes(p!);
    // The header starts at the 0.6 in margin (43.2 pt) in 14 pt bold: its first word's box is there.
    const first = wordAt(p!, 'INVOICE');
    expect(Math.abs(first.box.x0 - 43.2)).toBeLessThan(3);
    expect(Math.abs(first.box.y0 - 43.2)).toBeLessThan(6);
    expect(first.box.y1 - first.box.y0).toBeGreaterThan(6);
    expect(first.box.y1 - first.box.y0).toBeLessThan(20);
    expect(lineWith(p!, 'Printer')).toBe('Printer paper A4 12 4.50 54.00');
    expect(lineWith(p!, 'Toner')).toBe('Toner cartridge black 3 61.90 185.70');
  });

  it('a mixed PDF: a page with a text layer keeps it, a scanned page with almost no text (a page number) goes to OCR', async () => {
    const pdf = await PDFDocument.load(
      await scannedPdf([twoColumn], [{ at: 0, lines: ['Cover letter', 'Dear customer, the scanned page follows.'] }]),
    );
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    pdf.getPage(1).drawText('- 2 -', { x: 200, y: 20, size: 9, font });
    const doc = await readSourceText(file('mixed.pdf', await pdf.save()), opts());
    expect(doc.warnings).toEqual([]);
    expect(doc.pages.map((p) => p.source)).toEqual(['text_layer', 'ocr']);
    expect(doc.pages[0]!.text).toBe('Cover letter\nDear customer, the scanned page follows.');
    const scanned = doc.pages[1]!;
    const acc = wordAccuracy(twoColumn.truth, scanned.text);
    console.info('scanned two-column word accuracy', acc);
    expect(acc.recall).toBeGreaterThanOrEqual(0.95); // measured 1.000
    expect(acc.sequence).toBeGreaterThanOrEqual(0.93); // the left column first: measured 1.000
    expectOffsets(scanned);
    expectSaneBoxes(scanned);
  });

  it('an image is one OCR page, its size in points at its resolution', async () => {
    const jpeg = await sharp(invoice.png).withMetadata({ density: 300 }).jpeg({ quality: 90 }).toBuffer();
    const doc = await readSourceText(file('invoice.jpg', jpeg), opts());
    expect(doc.pages).toHaveLength(1);
    const p = doc.pages[0]!;
    const meta = await sharp(invoice.png).metadata();
    expect(p.source).toBe('ocr');
    expect(p.width).toBeCloseTo((meta.width! * 72) / 300, 1);
    expect(p.height).toBeCloseTo((meta.height! * 72) / 300, 1);
    expect(wordAccuracy(invoice.truth, p.text).recall).toBeGreaterThanOrEqual(0.95);
    expectOffsets(p);
    expectSaneBoxes(p);
  });

  it("a 96-dpi image of a page is enlarged to 300 dpi for Tesseract; its size and boxes stay in the page's points", async () => {
    // The invoice page (A5, 5.83 × 8.27 in) as a 96-dpi screen image, as a browser or a PDF viewer would save it.
    const png96 = await sharp(invoice.png)
      .resize({ width: Math.round(5.83 * 96) })
      .withMetadata({ density: 96 })
      .png()
      .toBuffer();
    const seen: Array<{ dpi: number; width: number }> = [];
    const recording: OcrEngine = {
      ...engine,
      async recogniseTsv(image, language, dpi, signal, mode) {
        seen.push({ dpi, width: (await sharp(image).metadata()).width! });
        return engine.recogniseTsv(image, language, dpi, signal, mode);
      },
    };
    const doc = await readSourceText(file('invoice-96.png', png96), opts({ engine: recording }));
    const p = doc.pages[0]!;
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) {
      expect(s.dpi).toBe(300);
      expect(s.width).toBe(Math.round((Math.round(5.83 * 96) * 300) / 96));
    }
    expect(p.width).toBeCloseTo(5.83 * 72, 0);
    expect(p.height).toBeCloseTo(8.27 * 72, 0);
    const acc = wordAccuracy(invoice.truth, p.text);
    console.info('96-dpi invoice image word accuracy', acc);
    expect(acc.recall).toBeGreaterThanOrEqual(0.95);
    expectOffsets(p);
    expectSaneBoxes(p);
    const first = wordAt(p, 'INVOICE');
    expect(Math.abs(first.box.x0 - 43.2)).toBeLessThan(3);
    expect(Math.abs(first.box.y0 - 43.2)).toBeLessThan(6);
    expect(lineWith(p, 'Toner')).toBe('Toner cartridge black 3 61.90 185.70');
  });

  it("the page's language is chosen from its words: a French and a German page read in their language, an English one stays English", async () => {
    for (const lang of ['fra', 'deu'] as const) {
      const page = await foreignPage(lang);
      const doc = await readSourceText(file(`${lang}.png`, page.png), opts({ language: 'eng' }));
      const acc = wordAccuracy(page.truth, doc.pages[0]!.text);
      console.info(`${lang} page word accuracy`, acc);
      expect(acc.recall, lang).toBeGreaterThanOrEqual(0.98); // read as English: 0.86 and 0.81
    }
  });

  it('a page scanned sideways or upside down is turned upright first: its words, its upright size, a table row on one line', async () => {
    const meta = await sharp(invoice.png).metadata();
    for (const angle of [90, 180, 270]) {
      const turned = await sharp(invoice.png).rotate(angle).withMetadata({ density: 300 }).png().toBuffer();
      const image = await readSourceText(file(`turned-${angle}.png`, turned), opts());
      const pdf = await readSourceText(
        file(`turned-${angle}.pdf`, await scannedPdf([{ png: turned, dpi: 300 }])),
        opts(),
      );
      for (const [form, doc] of [
        ['image', image],
        ['scanned PDF', pdf],
      ] as const) {
        const p = doc.pages[0]!;
        const acc = wordAccuracy(invoice.truth, p.text);
        console.info(`turned ${angle}° ${form} word accuracy`, acc);
        expect(acc.recall, `${angle}° ${form}`).toBeGreaterThanOrEqual(0.95);
        expect(p.width, `${angle}° ${form}`).toBeCloseTo((meta.width! * 72) / 300, 0);
        expect(p.height, `${angle}° ${form}`).toBeCloseTo((meta.height! * 72) / 300, 0);
        expectSaneBoxes(p);
        expect(lineWith(p, 'Toner'), `${angle}° ${form}`).toBe('Toner cartridge black 3 61.90 185.70');
      }
    }
  });

  it('a page Tesseract reads with little confidence is read, and said to be hard to read in the warnings', async () => {
    // The engine's own words and boxes, with the confidences a page in a broken font gets (about 50 of 100).
    const unsure: OcrEngine = {
      ...engine,
      async recogniseTsv(image, language, dpi, signal, mode) {
        const tsv = await engine.recogniseTsv(image, language, dpi, signal, mode);
        return tsv
          .split('\n')
          .map((row) => row.split('\t'))
          .map((c) => (c[0] === '5' && c.length >= 12 ? [...c.slice(0, 10), '41', ...c.slice(11)] : c).join('\t'))
          .join('\n');
      },
    };
    const pdf = await scannedPdf([invoice, invoice]);
    const doc = await readSourceText(file('unsure.pdf', pdf), opts({ engine: unsure }));
    expect(doc.pages.map((p) => p.source)).toEqual(['ocr', 'ocr']);
    expect(wordAccuracy(invoice.truth, doc.pages[1]!.text).recall).toBeGreaterThanOrEqual(0.95);
    expect(doc.warnings).toEqual(
      [1, 2].map((n) => `page ${n} is hard to read (text recognition confidence 41 %); check the values taken from it`),
    );
    const image = await readSourceText(file('unsure.png', invoice.png), opts({ engine: unsure }));
    expect(image.warnings).toEqual([
      'page 1 is hard to read (text recognition confidence 41 %); check the values taken from it',
    ]);
  });

  it('a page with print on it where Tesseract reads no word at all is said to be hard to read, not blank', async () => {
    // Every recognition finds an empty page (as Tesseract's layout analysis did on a page it lost): no word, no letter.
    const blind: OcrEngine = {
      ...engine,
      async recogniseTsv(image, language, dpi, signal, mode) {
        const tsv = await engine.recogniseTsv(image, language, dpi, signal, mode);
        return tsv
          .split('\n')
          .filter((row) => !row.startsWith('5\t'))
          .join('\n');
      },
    };
    const doc = await readSourceText(file('blind.pdf', await scannedPdf([invoice])), opts({ engine: blind }));
    expect(doc.pages[0]!.text).toBe('');
    expect(doc.warnings).toEqual([
      'page 1 is hard to read (text recognition confidence 0 %); check the values taken from it',
    ]);
  });

  it('a page past its time limit is an empty page and a warning; the other pages are read', async () => {
    const slow = join(dir, 'slow-tesseract.sh');
    writeFileSync(slow, '#!/bin/sh\nexec sleep 60\n');
    chmodSync(slow, 0o755);
    const pdf = await scannedPdf([invoice], [{ at: 1, lines: ['A page with a text layer of its own'] }]);
    const started = Date.now();
    const doc = await readSourceText(
      file('slow.pdf', pdf),
      opts({ engine: createOcrEngine({ tesseractPath: slow }), pageTimeoutMs: 1500 }),
    );
    expect(Date.now() - started).toBeLessThan(30_000); // the sleeping engine was stopped, not waited for
    expect(doc.pages.map((p) => [p.source, p.text])).toEqual([
      ['ocr', ''],
      ['text_layer', 'A page with a text layer of its own'],
    ]);
    expect(doc.pages[0]!.width).toBeCloseTo(5.83 * 72, 0);
    expect(doc.warnings).toEqual(['page 1 could not be read (text recognition took too long); it is read as empty']);
  });

  it('a missing OCR engine is an outage; an abort stops the reading', async () => {
    const pdf = file('one-scan.pdf', await scannedPdf([invoice]));
    await expect(
      readSourceText(pdf, opts({ engine: createOcrEngine({ tesseractPath: '/nonexistent/tesseract' }) })),
    ).rejects.toBeInstanceOf(ProviderUnavailableError);
    const ctl = new AbortController();
    const reason = new Error('job cancelled');
    const reading = readSourceText(pdf, opts({ signal: ctl.signal }));
    ctl.abort(reason);
    await expect(reading).rejects.toBe(reason);
  });
});

describe('UTF-8 text', () => {
  it('the pages it is charged for (one per started 4,000 bytes): a form feed is a block break, whitespace made single, blank lines kept as blocks, zero boxes', async () => {
    const doc = await readSourceText(
      file('doc.txt', '\uFEFFInvoice  No.\tINV-1\r\nDate: 2024-03-01\r\n\r\n\r\nTotal:   10.00 EUR  \fSecond page\n\f'),
      opts(),
    );
    expect(doc.truncated).toBe(false);
    expect(doc.pages.map((p) => [p.page, p.source, p.text, p.width, p.height])).toEqual([
      [1, 'plain_text', 'Invoice No. INV-1\nDate: 2024-03-01\n\nTotal: 10.00 EUR\n\nSecond page', 0, 0],
    ]);
    for (const p of doc.pages) {
      expectOffsets(p);
      for (const w of p.words) expect(w.box).toEqual({ x0: 0, y0: 0, x1: 0, y1: 0 });
    }
  });

  it('a long text: exactly the pages it is charged for, each ending at a line break near its 4,000-byte mark, no word split', async () => {
    // 10,001 bytes of lines with two- and three-byte characters: three started 4,000-byte pages (issue 28 D18).
    const lines = Array.from({ length: 400 }, (_, i) => `Größe ✓ line ${i}`);
    let source = '';
    for (const line of lines) if (Buffer.byteLength(`${source}${line}\n`) <= 10_001) source += `${line}\n`;
    source = source.padEnd(source.length + 10_001 - Buffer.byteLength(source), 'x');
    expect(Buffer.byteLength(source)).toBe(10_001);
    const doc = await readSourceText(file('long-lines.txt', source), opts());
    expect(doc.pages.map((p) => p.page)).toEqual([1, 2, 3]);
    // Each page is whole lines (the last ends where the text does), and the pages together are the text.
    expect(doc.pages.map((p) => p.text).join('\n')).toBe(source.trim());
    for (const p of doc.pages.slice(0, -1)) {
      expect(
        p.text.split('\n').every((l) => lines.includes(l)),
        `page ${p.page}`,
      ).toBe(true);
      expect(Buffer.byteLength(`${p.text}\n`)).toBeGreaterThan(4_000 - 500);
    }
    // One word of 5,000 two-byte characters: three pages cut at character boundaries, nothing lost or garbled.
    const word = 'é'.repeat(5_000);
    const cut = await readSourceText(file('one-word.txt', word), opts());
    expect(cut.pages.map((p) => [p.page, Buffer.byteLength(p.text)])).toEqual([
      [1, 4_000],
      [2, 4_000],
      [3, 2_000],
    ]);
    expect(cut.pages.map((p) => p.text).join('')).toBe(word);
  });

  it('an SVG is text, not an image', async () => {
    const doc = await readSourceText(
      file('drawing.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>Hi</text></svg>'),
      opts(),
    );
    expect(doc.pages.map((p) => p.source)).toEqual(['plain_text']);
  });

  it("a file that is not a PDF, an image or UTF-8 text is the source's fault", async () => {
    await expect(
      readSourceText(file('junk.bin', Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x80])), opts()),
    ).rejects.toBeInstanceOf(InvalidSourceError);
  });
});

describe('the cap on long text', () => {
  it(`cuts at ${EXTRACTION_LIMITS.maxTextChars} characters at a word boundary, says where, and marks the text truncated`, async () => {
    const line = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu';
    const part = Array.from({ length: 1500 }, (_, i) => `${line} ${i}`).join('\n'); // about 105,000 characters
    const source = [part, part, part].join('\f');
    const doc = await readSourceText(file('long.txt', source), opts());
    const whole = plainTextPages(source); // every page, uncapped
    expect(doc.truncated).toBe(true);
    const stop = doc.pages.length;
    expect(doc.pages.map((p) => p.page)).toEqual(whole.slice(0, stop).map((p) => p.page));
    expect(doc.pages.slice(0, -1)).toEqual(whole.slice(0, stop - 1)); // the pages before the cut whole
    const total = doc.pages.reduce((s, p) => s + p.text.length, 0);
    expect(total).toBeLessThanOrEqual(EXTRACTION_LIMITS.maxTextChars);
    expect(total).toBeGreaterThan(EXTRACTION_LIMITS.maxTextChars - 20);
    const last = doc.pages.at(-1)!;
    const full = whole[stop - 1]!.text;
    expect(last.text).toBe(full.slice(0, last.text.length)); // a prefix of the page…
    expect(full[last.text.length]).toMatch(/\s/); // …that ends at a word's end
    expectOffsets(last);
    expect(doc.warnings).toEqual([
      `the text was cut at 200,000 characters: reading stopped on page ${stop} at character ${last.text.length.toLocaleString('en-US')} of that page; the rest was not read`,
    ]);
  });

  it('a PDF: pages after the cut are not read at all', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const line = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore';
    for (let p = 0; p < 2; p++) {
      const page = pdf.addPage([612, 14_400]);
      for (let i = 0; i < 1150; i++) page.drawText(`${line} ${i}`, { x: 20, y: 14_380 - i * 12.4, size: 8, font });
    }
    pdf.addPage([612, 792]).drawText('never read', { x: 20, y: 700, size: 11, font });
    const log = join(dir, 'pdftotext.log');
    const logging = join(dir, 'pdftotext.sh');
    writeFileSync(logging, `#!/bin/sh\necho "$6" >> "${log}"\nexec pdftotext "$@"\n`); // $6 is the page (-q -tsv -enc UTF-8 -f N)
    chmodSync(logging, 0o755);
    const doc = await readSourceText(
      file('long.pdf', await pdf.save()),
      opts({ engine: createOcrEngine({ concurrency: 1, pdftotextPath: logging }) }),
    );
    expect(doc.truncated).toBe(true);
    expect(doc.pages.map((p) => [p.page, p.source])).toEqual([
      [1, 'text_layer'],
      [2, 'text_layer'],
    ]);
    expect(doc.pages[0]!.text.split('\n')).toHaveLength(1150);
    expect(doc.warnings).toHaveLength(1);
    expect(doc.warnings[0]).toMatch(
      /^the text was cut at 200,000 characters: reading stopped on page 2 at character [\d,]+ of that page/,
    );
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['1', '2']);
  });

  it('capText keeps whole pages under the limit and the words of the cut page that fit', () => {
    const pages = ['one two three', 'four five six', 'seven'].map((t, i) => ({
      ...plainTextPages(t)[0]!,
      page: i + 1,
    }));
    expect(capText(pages, 100)).toEqual({ pages, truncated: false, warnings: [] });
    const cut = capText(pages, 13 + 8);
    expect(cut.truncated).toBe(true);
    expect(cut.pages.map((p) => p.text)).toEqual(['one two three', 'four']);
    expect(cut.pages[1]!.words.map((w) => w.text)).toEqual(['four']);
    expect(cut.warnings[0]).toContain('reading stopped on page 2 at character 4 of that page');
  });
});

describe('unreadable PDFs', () => {
  it("a damaged PDF and an encrypted one are the source's fault, with a safe message", async () => {
    await expect(readSourceText(file('broken.pdf', '%PDF-1.7\nnot really a pdf'), opts())).rejects.toThrow(
      new InvalidSourceError('the PDF could not be read'),
    );
    const plain = file('plain.pdf', await scannedPdf([], [{ at: 0, lines: ['secret words'] }]));
    const locked = join(dir, 'locked.pdf');
    execFileSync('qpdf', ['--encrypt', 'user-pw', 'owner-pw', '256', '--', plain, locked]);
    const err = await readSourceText(locked, opts()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidSourceError);
    expect((err as Error).message).toMatch(/encrypted/);
    expect((err as Error).message).not.toMatch(/pw/);
  });
});
