import { Document, Packer, Paragraph, TextRun } from 'docx';

/** Characters XML 1.0 cannot hold (C0 controls but tab and line feed, and the non-characters U+FFFE/U+FFFF). */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const NOT_XML = /[\u0000-\u0008\u000B-\u001F\uFFFE\uFFFF]/g;

/**
 * A Word document (DOCX, with the `docx` package) of recognised text: one page of the document per source page
 * (a page break before each one after the first), one paragraph per block of text (blocks are separated by a
 * blank line, as Tesseract writes them), the lines of a block kept as line breaks.
 */
export async function textPagesToDocx(pages: readonly string[]): Promise<Buffer> {
  const children: Paragraph[] = [];
  pages.forEach((page, i) => {
    const blocks = page
      .replace(NOT_XML, '')
      .split(/\n[ \t]*\n/)
      .map((b) => b.replace(/^\n+|\s+$/g, ''))
      .filter((b) => b !== '');
    if (blocks.length === 0) blocks.push('');
    blocks.forEach((block, j) => {
      const runs = block.split('\n').map((line, k) => new TextRun({ text: line, ...(k > 0 ? { break: 1 } : {}) }));
      children.push(new Paragraph({ children: runs, ...(i > 0 && j === 0 ? { pageBreakBefore: true } : {}) }));
    });
  });
  const doc = new Document({ creator: 'paycore OCR', title: 'Recognised text', sections: [{ children }] });
  return Packer.toBuffer(doc);
}
