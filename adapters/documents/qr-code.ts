import QRCode from 'qrcode';

/** Side of the rendered symbol in CSS pixels; the page may scale it, the viewBox keeps it sharp. */
const QR_SIZE_PX = 264;

/**
 * An inline SVG QR code of `text`: error-correction level M (about 15 % of the symbol may be damaged or
 * smudged and it still scans), the standard 4-module quiet zone, black on white, no text or fonts, no
 * external references. The result is markup made only of the library's `<svg>` and `<path>` elements, safe
 * to place directly in an HTML page under a CSP without `img-src`.
 */
export async function qrSvg(text: string): Promise<string> {
  const svg = await QRCode.toString(text, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 4,
    width: QR_SIZE_PX,
    color: { dark: '#000000ff', light: '#ffffffff' },
  });
  // Keep only the <svg> element (no XML prolog, no trailing newline) so it can be inlined as-is.
  const start = svg.indexOf('<svg');
  const end = svg.lastIndexOf('</svg>');
  if (start < 0 || end < start) throw new Error('QR library returned no SVG');
  return svg.slice(start, end + '</svg>'.length);
}
