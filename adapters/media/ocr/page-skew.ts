import sharp from 'sharp';
import { tracePage } from './page-retry.js';

/**
 * A scan's skew, measured and corrected before Tesseract reads it (docs/processing.md, "OCR", "Skew"). Tesseract's
 * own skew estimate (its layout analysis, `--psm 2`, which ocrmypdf's `--deskew` uses) finds no text at all on a
 * real 300-dpi page turned 3° ("Empty page!!": Tesseract's test page eurotext.tif), and its recognition of that page
 * reads none of its words; so the angle is measured here, by projection profiles (the method Leptonica's
 * pixFindSkew uses, with no extra dependency): the page's dark pixels are projected across the text lines at each
 * candidate angle, and the angle whose profile is sharpest (the largest sum of squared differences between adjacent
 * rows: lines and gaps cleanly apart) is the skew. Rows and columns are both tried, so a page turned sideways is
 * measured too (its lines are vertical; the turn itself is left to Tesseract's orientation detection).
 */

/** Skews from −MAX_SKEW_DEGREES to +MAX_SKEW_DEGREES are measured (a sheet fed crooked; more is a turned page). */
export const MAX_SKEW_DEGREES = 10;
/**
 * A page is straightened only when its measured skew is at least this (degrees), so a straight page's image is left
 * as it is. Chosen, not tuned: eurotext.tif, scanned 0.8° crooked, reads one word more straightened (59 → 60 of its
 * 65 words), the generated skewed-noisy page (0.8°, blurred, speckled) three fewer in ocr-text (84 → 81).
 */
export const MIN_DESKEW_DEGREES = 0.5;
/** The image is measured at this longest side (pixels): about 85 dpi for an A4 page, enough for 0.05° steps. */
const MEASURE_SIDE = 1000;

/** The sum of squared differences between adjacent bins of the dark pixels projected at slope `t` (tan of the angle). */
function sharpness(
  xs: Int32Array,
  ys: Int32Array,
  count: number,
  t: number,
  rows: boolean,
  bins: Int32Array,
  offset: number,
): number {
  bins.fill(0);
  for (let i = 0; i < count; i++) {
    // Rows: a line turned clockwise by θ runs y = c + x·tanθ; columns (a sideways page): x = c − y·tanθ.
    const b = rows ? Math.round(ys[i]! - xs[i]! * t) : Math.round(xs[i]! + ys[i]! * t);
    bins[b + offset]!++;
  }
  let s = 0;
  for (let i = 1; i < bins.length; i++) {
    const d = bins[i]! - bins[i - 1]!;
    s += d * d;
  }
  return s;
}

/**
 * A bin of a profile is blank when it holds at most this share of the profile's mean per bin (between its first and
 * last inked bins): the gap between two text lines, once the lines are aligned.
 */
const BLANK_SHARE = 0.05;

/**
 * The gaps in a profile (`bins`, as sharpness left it): runs of blank bins (BLANK_SHARE) between its first and last
 * inked bins. Aligned on the text lines' axis, a page's profile has a gap between every two lines; on the other axis
 * only between its columns, since the words of one column fill every bin across it.
 */
function gaps(bins: Int32Array, count: number): number {
  let first = 0;
  while (first < bins.length && bins[first] === 0) first++;
  let last = bins.length - 1;
  while (last > first && bins[last] === 0) last--;
  const blank = (BLANK_SHARE * count) / (last - first + 1);
  let n = 0;
  for (let i = first; i <= last; i++) if (bins[i]! <= blank && bins[i - 1]! > blank) n++;
  return n;
}

/**
 * The gaps decide the lines' axis when one axis has at least GAPS_RATIO times the other's and GAPS_MORE more. Measured
 * on 722 tune pages and strips (session 16): the gaps picked the lines' axis in 697, 10 of them by less than this
 * margin (where the contrast picks the lines too), and the columns in 13, each by a small margin (3-4 against 4-5, 2
 * against 3-5, 0 against 1), which the contrast then decides (bench/README.md, "Issue 30, columns that do not line up").
 */
const GAPS_RATIO = 1.5;
const GAPS_MORE = 4;

const median = (v: number[]): number => {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/**
 * A component of print is of a letter's or a word's size when its shorter side is at most this share of the measured
 * image's longest side (about 4 mm of an A4 page: type up to about 30 pt) and its longer side at most TEXT_LONG.
 */
const TEXT_SHORT = 0.04;
/** ... and its longer side at most this share (about 45 mm of an A4 page: a long word in large type). */
const TEXT_LONG = 0.15;

/**
 * The dark pixels (`dark`: 1 = dark) that belong to components (8-connected) of a letter's or a word's size
 * (TEXT_SHORT, TEXT_LONG), as a mask. The skew is the text lines' angle; a picture's long strokes (an engraving's
 * hatching, a striped graphic, ruled lines at an angle) and large blobs (halftone photographs, black borders) are left
 * out: a picture of parallel lines turned 9° under phototest out-weighed its text lines, and the upright page was
 * measured 9° crooked (bench/README.md, "Issue 30, session 11").
 */
function textLike(dark: Uint8Array, width: number, height: number): Uint8Array {
  const parent = new Int32Array(width * height).fill(-1);
  const find = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r]!;
    while (parent[i] !== r) {
      const next = parent[i]!;
      parent[i] = r;
      i = next;
    }
    return r;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!dark[i]) continue;
      parent[i] = i;
      if (x > 0 && dark[i - 1]) union(i, i - 1);
      if (y > 0) {
        const up = i - width;
        if (dark[up]) union(i, up);
        if (x > 0 && dark[up - 1]) union(i, up - 1);
        if (x < width - 1 && dark[up + 1]) union(i, up + 1);
      }
    }
  }
  const boxes = new Map<number, [number, number, number, number]>();
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!dark[i]) continue;
      const r = find(i);
      const b = boxes.get(r);
      if (!b) boxes.set(r, [x, y, x, y]);
      else {
        if (x < b[0]) b[0] = x;
        if (x > b[2]) b[2] = x;
        if (y > b[3]) b[3] = y;
      }
    }
  }
  const side = Math.max(width, height);
  const small = new Set<number>();
  for (const [r, [x0, y0, x1, y1]] of boxes) {
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    if (Math.min(w, h) <= TEXT_SHORT * side && Math.max(w, h) <= TEXT_LONG * side) small.add(r);
  }
  const keep = new Uint8Array(width * height);
  for (let i = 0; i < width * height; i++) if (dark[i] && small.has(find(i))) keep[i] = 1;
  return keep;
}

/** Share of dark pixels from which a page is said to have print on it (a blank scanned page has less). */
const INKED_SHARE = 0.002;

/**
 * From this share of a page's print that is blurred (blurredShare), the page is said to be partly blurred in the
 * result's warnings (docs/processing.md, "OCR", "Pages that read badly"): Tesseract reads a crisp title above a body
 * blurred past reading with high confidence and none of the body, so the words' confidence cannot tell (phototest
 * with its body blurred by 8 px: recall 0.02, confidence 85). Measured on the tune pages (bench/README.md, "Issue 30,
 * blurred pages, session 13"), as ocr-pdf measures them: 127 of 128 clean pages in every form 0.000 to 0.098 (the
 * highest c02-22, a grey book page beside an engraving), c02-22 scaled to 100 dpi and turned 3° 0.296 (warned);
 * phototest blurred by 2 px, which reads 0.93, 0.001; bodies blurred by 8 px at 200 dpi under a crisp top 0.44 to
 * 1.00, by 3 to 6 px 0.02 to 0.91. With the contrast measured per page (session 14, "Issue 30, grey scans"): the same
 * 128 clean pages 0.000 to 0.048 (c02-22 at 100 dpi turned 3°), 56 tune pages as grey scans at most 0.025, the same
 * with their bodies blurred by 8 px 0.42 to 0.96.
 */
export const BLURRED_PRINT_SHARE = 0.15;
/**
 * The levels below, as shares of the page's own contrast (its paper's grey level less its ink's), so that a grey scan
 * (grey or mottled paper, a faded print: its whole contrast 90 to 175 grey levels) is measured as a black-on-white one.
 * With absolute levels (session 13), the solid ink of a low-contrast page was mid-grey and its edges under 48 levels:
 * tune pages as grey scans measured up to 0.96 (bench/README.md, "Issue 30, grey scans, session 14"). On a black
 * page on white paper (contrast 255) they are session 13's 32, 160 and 48 grey levels.
 *
 * A pixel is print when it is at least PRINT_CONTRAST of the contrast darker than the paper (and at least MIN_PRINT
 * levels) ...
 */
const PRINT_CONTRAST = 32 / 255;
const MIN_PRINT = 8;
/** ... and mid-grey (blurred print, not solid ink) when at most MID_GREY_CONTRAST of it darker. */
const MID_GREY_CONTRAST = 160 / 255;
/** A mid-grey pixel is blurred when the grey levels within BLUR_RADIUS pixels of it span less than SHARP_EDGE of it. */
const SHARP_EDGE = 48 / 255;
const BLUR_RADIUS = 2;
/**
 * The page's ink: the grey level of the darkest INK_SHARE of the pixels at least 32 levels darker than its paper (the
 * solid strokes of a crisp title or line; a page blurred all over has only its blurred ink, and a lower contrast).
 */
const INK_SHARE = 0.01;
/**
 * The page's sharpest edges: the span of grey levels (within BLUR_RADIUS) that EDGE_SHARE of its print reaches. From
 * EDGE_HEIGHT of paper less ink the page is crisp and its contrast is paper less ink. Measured on the tune pages: crisp
 * ones, clean or as grey scans, 0.97 to 1.15; phototest blurred all over by 3 px 0.75, 4 px 0.57, 8 px 0.32.
 */
const EDGE_SHARE = 0.01;
const EDGE_HEIGHT = 0.7;
/** Too few pixels this far under the paper to tell (fewer than INKED_SHARE): not blurred, 0. */
const FAINTEST_INK = 32;

/**
 * The share of a page's print that is blurred: mid-grey with no sharp edge within BLUR_RADIUS pixels. Print in focus
 * has an edge beside every grey pixel (a letter's stroke against the paper), even scaled down to MEASURE_SIDE; a
 * halftone picture's dots too; solid ink is not mid-grey. Blurred print keeps its ink but spreads it into soft grey
 * bands with no pixel darker than 128, so it is not print by measureSkew's own threshold: this is measured on the grey
 * levels, each threshold a share of the page's contrast (paper: its most common grey level from 128 up; ink: INK_SHARE).
 * 0 when the page has too little print to tell (under INKED_SHARE).
 */
export function blurredShare(grey: Uint8Array, width: number, height: number): number {
  // The paper: a dark grey paper's level (paperLevel: pageseg3 on paper 115 measured 0.30 to 0.54 from 128 up), else
  // the most common grey level from 128 up (bins of 4): not the brightest, since a page turned on white (the corners
  // a crooked scan uncovers) or a grey page has paper darker than its brightest pixels.
  const bins = new Float64Array(64);
  for (let i = 0; i < grey.length; i++) bins[grey[i]! >> 2]!++;
  let best = 32;
  for (let b = 32; b < 64; b++) if (bins[b]! > bins[best]!) best = b;
  const paper = paperLevel(grey) ?? best * 4 + 3;
  // The ink: the level under which INK_SHARE of the pixels FAINTEST_INK or more under the paper lie.
  const levels = new Float64Array(256);
  let inked = 0;
  for (let i = 0; i < grey.length; i++)
    if (grey[i]! <= paper - FAINTEST_INK) {
      levels[grey[i]!]!++;
      inked++;
    }
  if (inked < INKED_SHARE * grey.length) return 0;
  let ink = 0;
  for (let seen = levels[0]!; seen < INK_SHARE * inked;) seen += levels[++ink]!;
  // The range of grey levels in the (2·BLUR_RADIUS+1)² square about each pixel: max and min, rows then columns.
  const span = (data: Uint8Array, pick: (a: number, b: number) => number, init: number) => {
    const across = new Uint8Array(data.length);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        let m = init;
        for (let d = Math.max(0, x - BLUR_RADIUS); d <= Math.min(width - 1, x + BLUR_RADIUS); d++)
          m = pick(m, data[y * width + d]!);
        across[y * width + x] = m;
      }
    const out = new Uint8Array(data.length);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        let m = init;
        for (let d = Math.max(0, y - BLUR_RADIUS); d <= Math.min(height - 1, y + BLUR_RADIUS); d++)
          m = pick(m, across[d * width + x]!);
        out[y * width + x] = m;
      }
    return out;
  };
  const hi = span(grey, Math.max, 0);
  const lo = span(grey, Math.min, 255);
  // The page's contrast: paper less ink when its print has edges of about that height (a crisp page, however grey);
  // when even its sharpest edges (EDGE_SHARE of the print) are under EDGE_HEIGHT of it, its darkest print is blurred
  // ink and the contrast is that of black ink on its paper.
  const spans = new Float64Array(256);
  for (let i = 0; i < grey.length; i++) if (grey[i]! <= paper - FAINTEST_INK) spans[hi[i]! - lo[i]!]!++;
  let edge = 255;
  for (let seen = spans[255]!; seen < EDGE_SHARE * inked;) seen += spans[--edge]!;
  const contrast = edge >= EDGE_HEIGHT * (paper - ink) ? paper - ink : paper;
  const printLevel = paper - Math.max(MIN_PRINT, PRINT_CONTRAST * contrast);
  const midGreyLevel = paper - MID_GREY_CONTRAST * contrast;
  const sharpEdge = SHARP_EDGE * contrast;
  let print = 0;
  let blurred = 0;
  for (let i = 0; i < grey.length; i++) {
    const v = grey[i]!;
    if (v > printLevel) continue;
    print++;
    if (v >= midGreyLevel && hi[i]! - lo[i]! < sharpEdge) blurred++;
  }
  return print >= INKED_SHARE * grey.length ? Math.round((blurred / print) * 1000) / 1000 : 0;
}

/**
 * The skew of an image in degrees, clockwise (the content turned clockwise by it; straighten by turning it back),
 * 0 when there is too little ink to tell; and whether the page has print on it at all (`inked`).
 */
export async function measureSkew(image: string | Buffer): Promise<{ skew: number; inked: boolean; blurred: number }> {
  const { data, info } = await sharp(image)
    .greyscale()
    .resize({ width: MEASURE_SIDE, height: MEASURE_SIDE, fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const channels = info.channels;
  let count = 0;
  for (let i = 0; i < width * height; i++) if (data[i * channels]! < 128) count++;
  const inked = count >= INKED_SHARE * width * height;
  const grey = channels === 1 ? data : Uint8Array.from({ length: width * height }, (_, i) => data[i * channels]!);
  const blurred = blurredShare(grey, width, height);
  if (count < 200) {
    tracePage(() => ({ kind: 'skew', skew: 0, inked, axis: 'rows', contrast: 0, letterSized: false, blurred }));
    return { skew: 0, inked, blurred };
  }
  const dark = new Uint8Array(width * height);
  for (let i = 0; i < width * height; i++) dark[i] = data[i * channels]! < 128 ? 1 : 0;
  const keep = textLike(dark, width, height);
  const kept = keep.reduce((a, b) => a + b, 0);
  // Too little print of letters' size (a page of pictures, or of large type only): all the print is measured.
  const mask = kept >= 200 ? keep : dark;
  const n = kept >= 200 ? kept : count;
  const xs = new Int32Array(n);
  const ys = new Int32Array(n);
  let k = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (mask[y * width + x]) {
        xs[k] = x;
        ys[k] = y;
        k++;
      }
    }
  }
  count = n;
  const span = Math.ceil(width + height);
  const bins = new Int32Array(4 * span);
  const offset = 2 * span;
  const tan = (deg: number) => Math.tan((deg * Math.PI) / 180);
  const measured: { deg: number; contrast: number; rows: boolean; gaps: number }[] = [];
  for (const rows of [true, false]) {
    const at = (deg: number) => sharpness(xs, ys, count, tan(deg), rows, bins, offset);
    let b = { deg: 0, score: at(0) };
    const scores: number[] = [];
    for (let deg = -MAX_SKEW_DEGREES; deg <= MAX_SKEW_DEGREES + 1e-9; deg += 0.25) {
      const score = at(deg);
      scores.push(score);
      if (score > b.score) b = { deg, score };
    }
    const coarse = b.deg;
    for (let deg = coarse - 0.25; deg <= coarse + 0.25 + 1e-9; deg += 0.05) {
      const score = at(deg);
      if (score > b.score) b = { deg, score };
    }
    // The text lines run along the axis where aligning sharpens the profile most: the best angle's sharpness over
    // the median angle's (its contrast). Not the highest sharpness itself: a picture's strokes (an engraving beside
    // the text) give one axis a high sharpness at every angle, and out-scored the text lines' axis on a real book
    // page (ocrmypdf's c02-22, bilevel, turned 3°: measured 0.1°, so it was read crooked). Measured contrasts: the
    // text lines' axis 3.2 to 58, the other 1.3 to 2.0 on pages of plain text, pictures and columns, and 25 where
    // ruled boxes (congress.jpg) align both axes at the same angle.
    const contrast = b.score / Math.max(1, median(scores));
    sharpness(xs, ys, count, tan(b.deg), rows, bins, offset);
    measured.push({ deg: b.deg, contrast, rows, gaps: gaps(bins, count) });
  }
  // But a narrow column (a sixth of a page) aligns its edge over the whole page height, and its short lines shift
  // little across it at any angle: the columns' contrast (1.9 to 12) beat the lines' (1.4 to 9.4) in 49 of 480 narrow
  // strips of the tune pages turned ±3°, and some were measured over 2° off (bench/README.md, "Issue 30, narrow
  // columns, session 15"). So the lines' axis is the one whose aligned profile has clearly more gaps between lines
  // (GAPS_RATIO, GAPS_MORE); the contrast decides when the gaps are about as many on both axes: a newspaper page in four
  // columns whose lines do not line up from column to column (each column's lines fill the others' gaps) has 3-4 gaps
  // on its lines' axis and 4-5 between its columns, and was measured on its columns, 0.55° off its lines; a page of
  // three short lines, 2 against 3-5 (bench/README.md, "Issue 30, columns that do not line up, session 16").
  const [r, c] = measured as [(typeof measured)[0], (typeof measured)[0]];
  const [more, fewer] = r.gaps >= c.gaps ? [r, c] : [c, r];
  const best =
    more.gaps >= GAPS_RATIO * fewer.gaps && more.gaps - fewer.gaps >= GAPS_MORE
      ? more
      : r.contrast >= c.contrast
        ? r
        : c;
  const skew = Math.round(best.deg * 100) / 100;
  tracePage(() => ({
    kind: 'skew',
    skew,
    inked,
    axis: best.rows ? 'rows' : 'columns',
    contrast: best.contrast,
    letterSized: kept >= 200,
    blurred,
  }));
  return { skew, inked, blurred };
}

/**
 * `image` straightened into `out` when its skew is at least MIN_DESKEW_DEGREES: turned back about its centre with
 * sharp (bicubic; the corners it uncovers white) and cut to its own size, so its resolution and page size stay the
 * same. Resolves the image to read (`image` itself when straight), the measured skew, whether the page is inked and the
 * share of its print that is blurred (blurredShare).
 */
export async function straighten(
  image: string,
  out: string,
): Promise<{ path: string; skew: number; inked: boolean; blurred: number }> {
  const { skew, inked, blurred } = await measureSkew(image);
  if (Math.abs(skew) < MIN_DESKEW_DEGREES) return { path: image, skew, inked, blurred };
  return { path: await straightenBy(image, skew, out), skew, inked, blurred };
}

/**
 * Paper darker than this grey level is brightened to white when a page is straightened (paperLevel). A crooked sheet
 * scanned in grey leaves white corners (the scanner's lid, or the corners straightening uncovers); on a page whose
 * paper is dark grey they made Tesseract's threshold take the paper for ink, and every path read nothing: Leptonica's
 * pageseg3 as a grey scan with paper at 115, turned 3°, read 0.000 on ocr-text, ocr-pdf and extraction (bench/README.md,
 * "Issue 30, session 9"). Chosen, not tuned: white paper scans at 230–255.
 */
export const DARK_PAPER_LEVEL = 200;
/** The share of a page's pixels that its paper level must hold (below it the page is taken to be on white paper). */
const PAPER_SHARE = 0.4;

/**
 * The grey level of a page's paper when it is not white: the most common level from 32 to 247 (bins of 4), if it
 * holds at least PAPER_SHARE of the pixels and is under DARK_PAPER_LEVEL; else null (white paper, leave it).
 */
export function paperLevel(grey: Uint8Array | Buffer): number | null {
  const bins = new Float64Array(64);
  for (let i = 0; i < grey.length; i++) bins[grey[i]! >> 2]!++;
  let best = 8;
  for (let b = 8; b < 62; b++) if (bins[b]! > bins[best]!) best = b;
  const level = best * 4 + 2;
  return bins[best]! + bins[best - 1]! + bins[best + 1]! >= PAPER_SHARE * grey.length && level < DARK_PAPER_LEVEL
    ? level
    : null;
}

/**
 * `image` turned back by `skew` degrees about its centre into `out` (the corners it uncovers white), cut to its own
 * size; a page on dark paper (paperLevel) is brightened so its paper is as white as those corners.
 */
export async function straightenBy(image: string, skew: number, out: string): Promise<string> {
  const density = (await sharp(image).metadata()).density;
  const { width, height } = await sharp(image).metadata();
  const turned = await sharp(image)
    .rotate(-skew, { background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { info } = turned;
  const cut = () =>
    sharp(turned.data, { raw: { width: info.width, height: info.height, channels: info.channels } }).extract({
      left: Math.floor((info.width - width!) / 2),
      top: Math.floor((info.height - height!) / 2),
      width: width!,
      height: height!,
    });
  const paper = paperLevel(await cut().greyscale().raw().toBuffer());
  await (paper === null ? cut() : cut().linear(255 / paper, 0))
    .withMetadata(density ? { density } : {})
    .png()
    .toFile(out);
  return out;
}
