import { execFileSync } from 'node:child_process';
import { seededRandom } from './random.js';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';

/**
 * An OCR corpus made from known text: pages rendered by sharp (Pango) with the DejaVu fonts the setup installs
 * (fonts-dejavu-core), at 300 dpi unless a variant says otherwise, then turned into "scans" (an image-only PDF).
 * Each page keeps its truth (the words in reading order), so accuracy is measured, not assumed. Used by the OCR
 * tests (a few pages) and bench/media-ocr.ts (the accuracy table).
 */
export interface CorpusPage {
  name: string;
  /** Greyscale PNG of the page. */
  png: Buffer;
  dpi: number;
  /** The words on the page in reading order. */
  truth: string;
}

const FONT_DIR = '/usr/share/fonts/truetype/dejavu';
export const FONTS = {
  sans: { family: 'DejaVu Sans', file: `${FONT_DIR}/DejaVuSans.ttf` },
  sansBold: { family: 'DejaVu Sans Bold', file: `${FONT_DIR}/DejaVuSans-Bold.ttf` },
  serif: { family: 'DejaVu Serif', file: `${FONT_DIR}/DejaVuSerif.ttf` },
  mono: { family: 'DejaVu Sans Mono', file: `${FONT_DIR}/DejaVuSansMono.ttf` },
} as const;
type Font = (typeof FONTS)[keyof typeof FONTS];

export const PROSE = [
  'Tesseract reads printed pages line by line. Each page of this corpus is rendered from a known text, so every word the engine returns can be checked against the truth.',
  'The quarterly report was filed on 14 March 2024 by the finance office in Rotterdam; it lists 37 suppliers, 112 open orders and a balance of 48,250.75 euros.',
  'Scanned letters often arrive skewed, blurred or speckled with dust. A careful pipeline measures how much of the text survives such damage instead of assuming it.',
  'Please return the signed contract before Friday. Questions about delivery, invoices or warranty claims go to support@example.com or to extension 4471.',
];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A block of text wrapped to `widthPx`, black on transparent. */
async function textBlock(
  text: string,
  font: Font,
  points: number,
  dpi: number,
  widthPx: number,
  spacing = 0,
): Promise<{ input: Buffer; width: number; height: number }> {
  const input = await sharp({
    text: {
      text: `<span foreground="black">${esc(text)}</span>`,
      font: `${font.family} ${points}`,
      fontfile: font.file,
      dpi,
      width: widthPx,
      rgba: true,
      wrap: 'word',
      ...(spacing ? { spacing } : {}),
    },
  })
    .png()
    .toBuffer();
  const m = await sharp(input).metadata();
  return { input, width: m.width!, height: m.height! };
}

/** A white page of `widthIn` × `heightIn` inches at `dpi` with the blocks laid over it, as greyscale PNG. */
async function page(
  dpi: number,
  blocks: Array<{ input: Buffer; left: number; top: number }>,
  widthIn = 5.83,
  heightIn = 8.27,
): Promise<Buffer> {
  const width = Math.round(widthIn * dpi);
  const height = Math.round(heightIn * dpi);
  return sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite(blocks.map((b) => ({ input: b.input, left: b.left, top: b.top })))
    .flatten({ background: '#ffffff' })
    .greyscale()
    .withMetadata({ density: dpi })
    .png()
    .toBuffer();
}

/** Paragraphs stacked from the top margin. */
async function prosePage(paragraphs: string[], font: Font, points: number, dpi: number): Promise<Buffer> {
  const margin = Math.round(0.6 * dpi);
  const width = Math.round(5.83 * dpi) - 2 * margin;
  const blocks: Array<{ input: Buffer; left: number; top: number }> = [];
  let top = margin;
  for (const p of paragraphs) {
    const b = await textBlock(p, font, points, dpi, width);
    blocks.push({ input: b.input, left: margin, top });
    top += b.height + Math.round((points / 72) * dpi);
  }
  return page(dpi, blocks);
}

/** A scan's damage: rotated by `degrees`, blurred (Gaussian sigma in pixels), and speckled with dark dots. */
export async function degrade(
  png: Buffer,
  opts: { degrees: number; blur: number; speckles: number; seed?: number },
): Promise<Buffer> {
  const meta = await sharp(png).metadata();
  const rotated = await sharp(png)
    .rotate(opts.degrees, { background: '#ffffff' })
    .blur(opts.blur)
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = rotated.info;
  const px = rotated.data;
  const next = seededRandom(opts.seed ?? 7); // the same damage in every run
  const dots = Math.round(width * height * opts.speckles);
  for (let i = 0; i < dots; i++) {
    const x = Math.floor(next() * (width - 2));
    const y = Math.floor(next() * (height - 2));
    const shade = Math.floor(next() * 90);
    for (const [dx, dy] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ] as const)
      if (next() < 0.7) px[(y + dy) * width + x + dx] = shade;
  }
  return sharp(px, { raw: { width, height, channels: 1 } })
    .withMetadata({ density: meta.density ?? 300 })
    .png()
    .toBuffer();
}

const INVOICE_ROWS: Array<[string, string, string, string]> = [
  ['Description', 'Qty', 'Unit price', 'Amount'],
  ['Printer paper A4', '12', '4.50', '54.00'],
  ['Toner cartridge black', '3', '61.90', '185.70'],
  ['Office chair', '2', '149.00', '298.00'],
  ['Desk lamp', '4', '23.25', '93.00'],
  ['Delivery', '1', '15.00', '15.00'],
];

/** An invoice-like page: a header, then a table of four aligned columns read row by row. */
async function invoicePage(dpi: number): Promise<{ png: Buffer; truth: string }> {
  const margin = Math.round(0.6 * dpi);
  const header = [
    'INVOICE INV-2024-0371',
    'Harbor Supplies Ltd, 22 Quay Street, Leith',
    'Date: 3 April 2024   Due: 3 May 2024',
  ];
  const blocks: Array<{ input: Buffer; left: number; top: number }> = [];
  let top = margin;
  for (const [i, line] of header.entries()) {
    const b = await textBlock(
      line,
      i === 0 ? FONTS.sansBold : FONTS.sans,
      i === 0 ? 14 : 10,
      dpi,
      Math.round(4.6 * dpi),
    );
    blocks.push({ input: b.input, left: margin, top });
    top += b.height + Math.round(0.08 * dpi);
  }
  top += Math.round(0.25 * dpi);
  const columns = [0, 2.3, 2.9, 3.85].map((x) => margin + Math.round(x * dpi));
  const widths = [2.2, 0.5, 0.9, 0.9].map((w) => Math.round(w * dpi));
  for (const [r, row] of [...INVOICE_ROWS, ['Total', '', '', '645.70'] as [string, string, string, string]].entries()) {
    let rowHeight = 0;
    for (const [c, cell] of row.entries()) {
      if (!cell) continue;
      const b = await textBlock(
        cell,
        r === 0 || r === INVOICE_ROWS.length ? FONTS.sansBold : FONTS.sans,
        10,
        dpi,
        widths[c]!,
      );
      blocks.push({ input: b.input, left: columns[c]!, top });
      rowHeight = Math.max(rowHeight, b.height);
    }
    top += rowHeight + Math.round(0.12 * dpi);
  }
  const truth = [...header, ...INVOICE_ROWS.map((r) => r.join(' ')), 'Total 645.70'].join('\n');
  return { png: await page(dpi, blocks), truth };
}

/** Two columns of prose: the left column is read first. */
async function twoColumnPage(dpi: number): Promise<{ png: Buffer; truth: string }> {
  const margin = Math.round(0.5 * dpi);
  const gutter = Math.round(0.35 * dpi);
  const colWidth = Math.floor((Math.round(5.83 * dpi) - 2 * margin - gutter) / 2);
  const left = [PROSE[0]!, PROSE[1]!];
  const right = [PROSE[2]!, PROSE[3]!];
  const blocks: Array<{ input: Buffer; left: number; top: number }> = [];
  for (const [i, column] of [left, right].entries()) {
    let top = margin;
    for (const p of column) {
      const b = await textBlock(p, FONTS.serif, 10, dpi, colWidth);
      blocks.push({ input: b.input, left: margin + i * (colWidth + gutter), top });
      top += b.height + Math.round(0.15 * dpi);
    }
  }
  return { png: await page(dpi, blocks), truth: [...left, ...right].join('\n') };
}

export type VariantName =
  | 'sans-11pt'
  | 'serif-10pt'
  | 'serif-8pt'
  | 'mono-9pt'
  | 'mono-12pt'
  | 'sans-bold-16pt'
  | 'skewed-noisy'
  | 'two-column'
  | 'invoice'
  | 'invoice-degraded-200dpi';

/** One page of a named variant. */
export async function corpusPage(name: VariantName): Promise<CorpusPage> {
  const dpi = 300;
  const prose = PROSE.slice(0, 3);
  switch (name) {
    case 'sans-11pt':
      return { name, dpi, png: await prosePage(prose, FONTS.sans, 11, dpi), truth: prose.join('\n') };
    case 'serif-10pt':
      return { name, dpi, png: await prosePage(prose, FONTS.serif, 10, dpi), truth: prose.join('\n') };
    case 'serif-8pt':
      return { name, dpi, png: await prosePage(PROSE, FONTS.serif, 8, dpi), truth: PROSE.join('\n') };
    case 'mono-9pt':
      return { name, dpi, png: await prosePage(prose, FONTS.mono, 9, dpi), truth: prose.join('\n') };
    case 'mono-12pt':
      return { name, dpi, png: await prosePage(PROSE.slice(1), FONTS.mono, 12, dpi), truth: PROSE.slice(1).join('\n') };
    case 'sans-bold-16pt':
      return {
        name,
        dpi,
        png: await prosePage(prose.slice(0, 2), FONTS.sansBold, 16, dpi),
        truth: prose.slice(0, 2).join('\n'),
      };
    case 'skewed-noisy': {
      const clean = await prosePage(prose, FONTS.serif, 10, dpi);
      return {
        name,
        dpi,
        png: await degrade(clean, { degrees: 0.8, blur: 1.2, speckles: 0.0004 }),
        truth: prose.join('\n'),
      };
    }
    case 'two-column':
      return { name, dpi, ...(await twoColumnPage(dpi)) };
    case 'invoice':
      return { name, dpi, ...(await invoicePage(dpi)) };
    case 'invoice-degraded-200dpi': {
      const inv = await invoicePage(200);
      return {
        name,
        dpi: 200,
        png: await degrade(inv.png, { degrees: 0.8, blur: 0.8, speckles: 0.0004, seed: 11 }),
        truth: inv.truth,
      };
    }
  }
}

/** Prose in another language than English, with its accented letters (the OCR `language` tests). */
export const FOREIGN_PROSE = {
  fra: [
    "Facture n° 2024-117 émise le 12 février 2024. Les prestations réalisées en décembre à Besançon comprennent l'entretien des véhicules, la révision des freins et le contrôle technique.",
    "Le règlement est dû à réception ; au-delà de trente jours, des pénalités de retard s'appliquent au taux légal. Nous restons à votre disposition pour toute question concernant les délais ou la garantie.",
  ],
  deu: [
    'Rechnung Nr. 2024-117 vom 12. Februar 2024. Die im Dezember in Würzburg erbrachten Leistungen umfassen die Prüfung der Fahrzeuge, die Überholung der Bremsen und die Hauptuntersuchung.',
    'Zahlbar sofort nach Erhalt ohne Abzug; nach dreißig Tagen berechnen wir Verzugszinsen in gesetzlicher Höhe. Für Rückfragen zu Fälligkeiten oder Gewährleistung stehen wir gern zur Verfügung.',
  ],
} as const;

/** A page of FOREIGN_PROSE[language] in DejaVu Serif 10 pt at 300 dpi. */
export async function foreignPage(language: keyof typeof FOREIGN_PROSE): Promise<CorpusPage> {
  const prose = [...FOREIGN_PROSE[language]];
  return {
    name: `serif-10pt-${language}`,
    dpi: 300,
    png: await prosePage(prose, FONTS.serif, 10, 300),
    truth: prose.join('\n'),
  };
}

export const ALL_VARIANTS: readonly VariantName[] = [
  'sans-11pt',
  'serif-10pt',
  'serif-8pt',
  'mono-9pt',
  'mono-12pt',
  'sans-bold-16pt',
  'skewed-noisy',
  'two-column',
  'invoice',
  'invoice-degraded-200dpi',
];

/** A "scanned" PDF: each page only an image, sized so the image is at its dpi; no text layer. */
export async function scannedPdf(
  pages: ReadonlyArray<Pick<CorpusPage, 'png' | 'dpi'>>,
  textPages: ReadonlyArray<{ at: number; lines: string[] }> = [],
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont('Helvetica');
  let n = 0;
  for (const p of pages) {
    const text = textPages.find((t) => t.at === n);
    if (text) addTextPage(doc, font, text.lines);
    const m = await sharp(p.png).metadata();
    const img = await doc.embedPng(p.png);
    const w = (m.width! / p.dpi) * 72;
    const h = (m.height! / p.dpi) * 72;
    doc.addPage([w, h]).drawImage(img, { x: 0, y: 0, width: w, height: h });
    n++;
  }
  for (const t of textPages.filter((t) => t.at >= pages.length)) addTextPage(doc, font, t.lines);
  return doc.save();
}

function addTextPage(doc: PDFDocument, font: Awaited<ReturnType<PDFDocument['embedFont']>>, lines: string[]): void {
  const pg = doc.addPage([419.76, 595.44]);
  lines.forEach((line, i) => pg.drawText(line, { x: 40, y: 550 - i * 18, size: 11, font }));
}

const norm = (w: string) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
export const words = (text: string) =>
  text
    .split(/\s+/)
    .map(norm)
    .filter((w) => w !== '');

/**
 * Word accuracy of `ocr` against `truth` (words compared exactly after stripping surrounding punctuation):
 * - recall: the share of the truth's words found in the output (as a multiset, order ignored);
 * - sequence: 1 − word edit distance / truth words (order matters: reading order, split and merged words count).
 */
export function wordAccuracy(truth: string, ocr: string): { recall: number; sequence: number; truthWords: number } {
  const t = words(truth);
  const o = words(ocr);
  const bag = new Map<string, number>();
  for (const w of o) bag.set(w, (bag.get(w) ?? 0) + 1);
  let found = 0;
  for (const w of t) {
    const n = bag.get(w) ?? 0;
    if (n > 0) {
      found++;
      bag.set(w, n - 1);
    }
  }
  let prev = Array.from({ length: o.length + 1 }, (_, j) => j);
  for (let i = 1; i <= t.length; i++) {
    const cur = [i];
    for (let j = 1; j <= o.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (t[i - 1] === o[j - 1] ? 0 : 1));
    prev = cur;
  }
  return { recall: found / t.length, sequence: Math.max(0, 1 - prev[o.length]! / t.length), truthWords: t.length };
}

/**
 * A real book page with a large picture beside its text: page 22 of Huckleberry Finn as ocrmypdf 14.0.1 ships it
 * (bench/ocr-corpus/ocrmypdf/c02-22.pdf, public domain, a 150-dpi colour scan), turned `angle` degrees and then made
 * bilevel (threshold 128), as a sheet fed crooked into a bilevel scanner; a 150-dpi PNG.
 */
export async function bookPage(angle: number): Promise<Buffer> {
  const pdf = new URL('../bench/ocr-corpus/ocrmypdf/c02-22.pdf', import.meta.url).pathname;
  const colour = execFileSync('pdftoppm', ['-q', '-r', '150', '-png', '-singlefile', pdf]);
  const turned = await sharp(colour).greyscale().rotate(angle, { background: '#ffffff' }).png().toBuffer();
  return sharp(turned).threshold(128).withMetadata({ density: 150 }).png().toBuffer();
}

/**
 * A scan (`png`, greyscale) with a picture of parallel black lines under it, the lines turned `angle` degrees (3 px
 * lines every 8 px over 80 % of the page's width, 35 % of its height: a line engraving, a ruled or striped graphic).
 * The text stays upright; the picture's lines out-weigh the text lines in the skew measurement (page-skew.ts), so the
 * page is measured `angle` crooked and turned by that much before it is read.
 */
export async function withHatchedPicture(png: Buffer, angle: number, dpi: number): Promise<Buffer> {
  const { width, height } = await sharp(png).metadata();
  const ph = Math.round(height! * 0.35);
  const pw = Math.round(width! * 0.8);
  const side = Math.round(Math.hypot(pw, ph)) + 20;
  const lines = Buffer.alloc(side * side, 255);
  for (let y = 0; y < side; y++) if (y % 8 < 3) lines.fill(0, y * side, (y + 1) * side);
  const hatch = await sharp(lines, { raw: { width: side, height: side, channels: 1 } })
    .rotate(angle, { background: '#ffffff' })
    .resize(pw, ph, { fit: 'cover' })
    .png()
    .toBuffer();
  return sharp({ create: { width: width!, height: height! + ph + 60, channels: 3, background: '#ffffff' } })
    .composite([
      { input: await sharp(png).greyscale().png().toBuffer(), top: 0, left: 0 },
      { input: hatch, top: height! + 30, left: Math.round(width! * 0.1) },
    ])
    .greyscale()
    .withMetadata({ density: dpi })
    .png()
    .toBuffer();
}
