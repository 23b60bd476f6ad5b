import { readFile } from 'node:fs/promises';
import fontkit from '@pdf-lib/fontkit';

/**
 * The fonts `pdf-watermark` draws with, in order of preference: each run of characters takes the first font that
 * has all of them. They are Debian packages installed by scripts/setup.sh and the Dockerfile, read from disk (never
 * downloaded), and embedded into the result as subsets with a ToUnicode map, so the text stays searchable:
 * - DejaVu Sans Bold (fonts-dejavu-core): Latin, Greek, Cyrillic, Armenian, Georgian, many symbols (✓ € → …).
 * - Droid Sans Fallback (fonts-droid-fallback): Chinese, Japanese (kana and kanji) and Korean (Hangul).
 */
export const WATERMARK_FONT_FILES: readonly string[] = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf',
];

/* eslint-disable @typescript-eslint/no-explicit-any -- reaches into @pdf-lib/fontkit's subsetter (below) */
/**
 * @pdf-lib/fontkit (1.1.1, its last release) writes a subset's `loca` table in the short format, which stores
 * offsets halved, whenever the subset is under 128 KB, but copies glyph records byte for byte: a font whose records
 * have odd lengths (DroidSansFallback, Nanum: their own `loca` is long) then gets every glyph after the first odd
 * one misplaced, and CJK text draws blank. This pads each copied record to an even length (a trailing zero byte,
 * as fonts pad their records anyway), so both formats are right. `test/unit/adapters/watermark-fonts.test.ts`
 * renders through it.
 */
function withEvenGlyphRecords(font: fontkit.Font): fontkit.Font {
  const f = font as any;
  const createSubset = f.createSubset.bind(f);
  f.createSubset = () => {
    const subset = createSubset();
    if (typeof subset._addGlyph !== 'function') return subset; // CFF fonts have no glyph records
    const addGlyph = subset._addGlyph.bind(subset);
    subset._addGlyph = (gid: number) => {
      const index = addGlyph(gid);
      const record = subset.glyf[index];
      if (record && record.length % 2 === 1) {
        // The same Buffer class as the record: fontkit's bundle has its own, and its streams accept only that one.
        const padded = record.constructor.alloc(record.length + 1);
        record.copy(padded, 0);
        subset.glyf[index] = padded;
        subset.offset += 1;
      }
      return index;
    };
    return subset;
  };
  return font;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The fontkit that pdf-lib embeds the watermark fonts with (`PDFDocument.registerFontkit`). */
export const pdfFontkit = {
  create: (data: Uint8Array, postscriptName?: string) => withEvenGlyphRecords(fontkit.create(data, postscriptName)),
};

/** A font of the chain is missing or unreadable: a deployment fault (503 on a request, a retry in the worker). */
export class WatermarkFontsUnavailable extends Error {
  constructor(readonly path: string) {
    super(
      `watermark font ${path} is missing or unreadable; install fonts-dejavu-core and fonts-droid-fallback (scripts/setup.sh)`,
    );
    this.name = 'WatermarkFontsUnavailable';
  }
}

export interface WatermarkFont {
  path: string;
  bytes: Uint8Array;
  hasGlyph(codePoint: number): boolean;
}

const cache = new Map<string, Promise<WatermarkFont[]>>();

/** The font chain, read and parsed once per process. */
export function loadWatermarkFonts(paths: readonly string[] = WATERMARK_FONT_FILES): Promise<WatermarkFont[]> {
  const key = paths.join('\n');
  let loading = cache.get(key);
  if (!loading) {
    loading = Promise.all(
      paths.map(async (path) => {
        let bytes: Buffer;
        try {
          bytes = await readFile(path);
        } catch {
          throw new WatermarkFontsUnavailable(path);
        }
        let font: fontkit.Font;
        try {
          font = fontkit.create(bytes);
        } catch {
          throw new WatermarkFontsUnavailable(path);
        }
        return { path, bytes, hasGlyph: (cp: number) => font.hasGlyphForCodePoint(cp) };
      }),
    );
    // A failed load is not remembered: installing the fonts fixes the next request without a restart.
    loading.catch(() => cache.delete(key));
    cache.set(key, loading);
  }
  return loading;
}

/** One run of the text, drawn with `fonts[font]`. */
export interface FontRun {
  text: string;
  font: number;
}

/**
 * Scripts written right to left. Their letters are in the fonts, but drawing them needs the Unicode bidirectional
 * algorithm and (Arabic) contextual shaping, which the PDF drawing here does not do: they are refused rather than
 * drawn backwards.
 */
const RIGHT_TO_LEFT =
  /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}]/u;

/** Characters that take no room and mean nothing on their own (joiners, variation selectors, bidi marks): dropped. */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

export type WatermarkLayout = { ok: true; runs: FontRun[] } | { ok: false; problem: string };

const label = (ch: string) => `${ch} (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;

/**
 * Splits the text into runs, each drawn by the first font of the chain that has its characters (a space or a
 * combining mark stays in the run before it when that font has it). The text is taken in Unicode normal form C,
 * without default-ignorable characters. Characters no font has, and right-to-left scripts, are a problem to show.
 */
export function layoutWatermark(text: string, fonts: readonly WatermarkFont[]): WatermarkLayout {
  const prepared = text.normalize('NFC').replace(IGNORABLE, '');
  const rtl = RIGHT_TO_LEFT.exec(prepared);
  if (rtl) return { ok: false, problem: `right-to-left text cannot be drawn yet: ${label(rtl[0])}` };
  const runs: FontRun[] = [];
  const missing = new Set<string>();
  for (const ch of prepared) {
    const cp = ch.codePointAt(0)!;
    const last = runs.at(-1);
    if (last && /[\p{Zs}\p{M}]/u.test(ch) && fonts[last.font]!.hasGlyph(cp)) {
      last.text += ch;
      continue;
    }
    const font = fonts.findIndex((f) => f.hasGlyph(cp));
    if (font < 0) missing.add(ch);
    else if (last && last.font === font) last.text += ch;
    else runs.push({ text: ch, font });
  }
  if (missing.size) {
    const shown = [...missing].slice(0, 5).map(label).join(', ');
    return {
      ok: false,
      problem: `no available font can draw ${shown}${missing.size > 5 ? ` and ${missing.size - 5} more` : ''}`,
    };
  }
  if (runs.every((r) => r.text.trim() === '')) return { ok: false, problem: 'text has nothing to draw' };
  return { ok: true, runs };
}
