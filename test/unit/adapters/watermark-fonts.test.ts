import { describe, expect, it } from 'vitest';
import {
  layoutWatermark,
  loadWatermarkFonts,
  pdfFontkit,
  WATERMARK_FONT_FILES,
} from '../../../adapters/media/pdf/watermark-fonts.js';

/** Subsets `text`'s glyphs of a font file as pdf-lib does, and reads the subset back: the outline of each glyph. */
async function subsetOutlines(file: string, text: string): Promise<number[]> {
  const { readFile } = await import('node:fs/promises');
  const font = pdfFontkit.create(await readFile(file));
  const subset = font.createSubset();
  const ids = [...text].map((ch) => subset.includeGlyph(font.glyphForCodePoint(ch.codePointAt(0)!)));
  const chunks: Uint8Array[] = [];
  await new Promise<void>((resolve) => {
    const stream = subset.encodeStream();
    stream.on('data', (c: Uint8Array) => chunks.push(Uint8Array.from(c)));
    stream.on('end', () => resolve());
  });
  const back = pdfFontkit.create(Buffer.concat(chunks));
  // A glyph with an outline has a bounding box of some size; a misplaced record reads as an empty or broken one.
  return ids.map((id) => back.getGlyph(id).path.bbox.width);
}

describe('watermark fonts', () => {
  it('picks a font per run of characters, keeping spaces and combining marks in the run before them', async () => {
    const fonts = await loadWatermarkFonts();
    const layout = layoutWatermark('Größe ✓ 日本 한국 e\u0301', fonts);
    expect(layout).toEqual({
      ok: true,
      runs: [
        { text: 'Größe ✓ ', font: 0 },
        { text: '日本 한국 ', font: 1 },
        { text: 'é', font: 0 },
      ],
    });
  });

  it('names what no font draws, refuses right-to-left scripts, and drops joiners and variation selectors', async () => {
    const fonts = await loadWatermarkFonts();
    expect(layoutWatermark('न 🦜', fonts)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/U\+0928.*U\+1F99C/),
    });
    expect(layoutWatermark('Shalom שלום', fonts)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/right-to-left.*U\+05E9/),
    });
    expect(layoutWatermark('OK\u200d\ufe0f', fonts)).toEqual({ ok: true, runs: [{ text: 'OK', font: 0 }] });
    expect(layoutWatermark('\u200b', fonts)).toMatchObject({ ok: false, problem: 'text has nothing to draw' });
  });

  it('subsets keep the outlines of every glyph, in fonts whose glyph records have odd lengths too', async () => {
    for (const [file, text] of [
      [WATERMARK_FONT_FILES[0]!, 'Größe✓ΩЖ'],
      [WATERMARK_FONT_FILES[1]!, '한국어문서日本語のテキスト'],
    ] as const) {
      const outlines = await subsetOutlines(file, text);
      expect(
        outlines.every((n) => n > 0),
        `${file}: ${outlines.join(',')}`,
      ).toBe(true);
    }
  });
});
