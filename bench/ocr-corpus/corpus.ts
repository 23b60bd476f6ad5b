/**
 * The real OCR corpus (bench/ocr-corpus/NOTICE.md): scans from Tesseract's test data as Debian ships it, pinned by
 * SHA-256, with their known text, and the forms the benchmark and the tests read them in (a PDF of the scan, the page
 * turned 0/90/180/270° in one PDF, skewed, at 150 dpi). The tune pages are committed beside this file; the held-out
 * ones are fetched into the cache on first use.
 *
 * Run `node --import tsx bench/ocr-corpus/corpus.ts --fetch` to fetch and check everything (progress on stderr).
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import sharp, { type Sharp } from 'sharp';
import { scannedPdf } from '../../support/ocr-corpus.js';

const run = promisify(execFile);
const HERE = dirname(fileURLToPath(import.meta.url));

/** Debian's tesseract 5.3.0-2 test tarball (its .dsc pins the SHA-256). */
export const TESSERACT_TEST_TARBALL = {
  url: 'http://deb.debian.org/debian/pool/main/t/tesseract/tesseract_5.3.0.orig-test.tar.gz',
  file: 'tesseract_5.3.0.orig-test.tar.gz',
  sha256: '2788d27de6e448f8ffa7dd19a22c5781768440dee60a34607099f0c66d44b911',
  bytes: 14_949_199,
  root: 'tesseract-0.0~git20210423.3ea1099/testing/',
  licence: 'Apache-2.0',
} as const;

/**
 * ocrmypdf 14.0.1's sdist from PyPI (`pip download`), whose `tests/resources/` has real pages with columns and
 * pictures (NOTICE.md: licences; all tune).
 */
export const OCRMYPDF_SDIST = {
  requirement: 'ocrmypdf==14.0.1',
  file: 'ocrmypdf-14.0.1.tar.gz',
  sha256: '77fdd52cb925bb94291ae62d22f2cb8253fb4199d0bf33b43e7fb7f078cac51c',
  root: 'ocrmypdf-14.0.1/tests/resources/',
} as const;

/**
 * Leptonica 1.82.0's source as Debian's `leptonlib` 1.82.0-3 (bookworm) ships it (its .dsc pins the SHA-256), whose
 * `prog/pageseg1-4.tif` are real 300-dpi magazine pages with columns and halftone pictures (NOTICE.md; all tune).
 */
export const LEPTONICA_SOURCE_TARBALL = {
  url: 'http://deb.debian.org/debian/pool/main/l/leptonlib/leptonlib_1.82.0.orig.tar.gz',
  file: 'leptonlib_1.82.0.orig.tar.gz',
  sha256: '155302ee914668c27b6fe3ca9ff2da63b245f6d62f3061c8f27563774b8ae2d6',
  bytes: 14_041_481,
  root: 'leptonica-1.82.0/prog/',
  licence: 'BSD-2-Clause',
} as const;

/**
 * A member of the Tesseract tarball's `testing/` folder (or, `from: 'ocrmypdf'`, of the ocrmypdf sdist's
 * `tests/resources/`; `from: 'leptonica'`, of Leptonica's `prog/`) and its SHA-256; `committed` ones are in
 * ./tesseract/ (./ocrmypdf/, ./leptonica/).
 */
interface Member {
  name: string;
  sha256: string;
  committed?: boolean;
  from?: 'tesseract' | 'ocrmypdf' | 'leptonica';
}

export type Split = 'tune' | 'held-out';

export interface OcrCorpusScan {
  /** The scan's own name. */
  id: string;
  /** The document it shows (the split is by document: two scans of one page are on the same side). */
  document: string;
  image: Member;
  /** The known text; null: none ships, the text ocr-text reads on the upright scan is taken as its truth. */
  truth: Member | null;
  /** The scan's resolution when its file states none or a wrong one (a PDF's image is rendered at it). */
  dpi?: number;
  /** The `language` a client would name for it. */
  language: string;
  /**
   * Tune whatever its document's hash says: a Tesseract page brought in after the split was fixed, as tune material
   * for a failure class of the held-out part (the held-out part stays the three magazine scans; NOTICE.md).
   */
  addedAsTune?: true;
}

export const SCANS: readonly OcrCorpusScan[] = [
  {
    id: 'phototest',
    document: 'phototest',
    language: 'eng',
    image: {
      name: 'phototest.tif',
      sha256: 'd2241a1eb6d6cd2eb6544b8e228c2862c852b7467d16ed636caa32179b780692',
      committed: true,
    },
    truth: {
      name: 'phototest.txt',
      sha256: '76ef157baeb6ab275b7d90f310477a8060d5822aea2b2e05d480f459b016a6ed',
      committed: true,
    },
  },
  {
    id: 'eurotext',
    document: 'eurotext',
    language: 'eng+deu+fra',
    image: {
      name: 'eurotext.tif',
      sha256: '7b9bd14aba7d5e30df686fbb6f71782a97f48f81b32dc201a1b75afe6de747d6',
      committed: true,
    },
    truth: {
      name: 'eurotext.txt',
      sha256: '26a43b5107b51054910b89f6fea67a03125b5737c0200e588121d4d132c7f3cb',
      committed: true,
    },
  },
  {
    id: '8071_093.3B',
    document: '8071_093',
    language: 'eng',
    image: { name: '8071_093.3B.tif', sha256: 'd4f01cba19c99f8894d94a6d43eb8ed8013f8cf17fc08af9346bb9fb3697d452' },
    truth: { name: '8071_093.3B.txt', sha256: '29f290e47012a809f5139c796493b3c693e44e009dd8fb3dafe15420e8b4c7d5' },
  },
  {
    id: '8087_054.3B',
    document: '8087_054',
    language: 'eng',
    image: { name: '8087_054.3B.tif', sha256: 'dab6db0f4c32296f313c7f1e7e139b13d7c69be65c64d6016f85ea67ebca9102' },
    truth: { name: '8087_054.3B.txt', sha256: '9965c66f974f85c25e51041b47aceed287dd2302abd64d7e969af674dca83edb' },
  },
  {
    id: '8087_054.3G',
    document: '8087_054',
    language: 'eng',
    image: { name: '8087_054.3G.tif', sha256: 'ab4db0234f906ea602f49fdcb44267143d645284f62ac11f3fc56a6efb08bf4d' },
    truth: { name: '8087_054.3B.txt', sha256: '9965c66f974f85c25e51041b47aceed287dd2302abd64d7e969af674dca83edb' },
  },
  {
    id: 'linn',
    document: 'linn',
    language: 'eng',
    dpi: 300,
    image: {
      name: 'linn.png',
      sha256: 'dcd90f08a6b8a733612f818330153636c13283dd548e2e092cad1fe628ec7bf3',
      from: 'ocrmypdf',
    },
    truth: {
      name: 'linn.txt',
      sha256: '18fbd25ca0fc7783f3b7f0e93e91e9408d2d517739f646fecbdf6209628204b1',
      from: 'ocrmypdf',
    },
  },
  {
    id: 'c02-22',
    document: 'c02-22',
    language: 'eng',
    dpi: 150,
    image: {
      name: 'c02-22.pdf',
      sha256: 'ae6a3bec3809e1540911bda42dabb42ffbd63cfda17e74a5c3e9dcd87129462a',
      from: 'ocrmypdf',
      committed: true,
    },
    truth: null,
  },
  {
    id: 'pageseg1',
    document: 'pageseg1',
    language: 'eng',
    image: {
      name: 'pageseg1.tif',
      sha256: '259d73c5deecbfa92969121786042b7242abb9e0dd871d2750e2761f316316fc',
      from: 'leptonica',
    },
    truth: null,
  },
  {
    id: 'pageseg2',
    document: 'pageseg2',
    language: 'eng',
    image: {
      name: 'pageseg2.tif',
      sha256: '580693657a0db7b24cfe67cf345d04db166034dfdf0b9f7811554998e72611ae',
      from: 'leptonica',
    },
    truth: null,
  },
  {
    id: 'pageseg3',
    document: 'pageseg3',
    language: 'eng',
    image: {
      name: 'pageseg3.tif',
      sha256: '6df7d25335bc4fc0c516a82bb8de688db063617a04891f343a8857da01622020',
      from: 'leptonica',
      committed: true,
    },
    truth: null,
  },
  {
    id: 'pageseg4',
    document: 'pageseg4',
    language: 'eng',
    image: {
      name: 'pageseg4.tif',
      sha256: '169d69c9e62f89c672a06918f4b8ceb7770bf8b5d7d12eca90d1ce86ff54c377',
      from: 'leptonica',
    },
    truth: null,
  },
  {
    // Session 16 (s16-page): a real 300-dpi newspaper page in four columns whose lines do not line up from column to
    // column, under vertical rules; measured on its columns axis upright (NOTICE.md).
    id: 'scots-frag',
    document: 'scots-frag',
    language: 'eng',
    image: {
      name: 'scots-frag.tif',
      sha256: '2edc2ef83275d2dfbcadd5778c11eceaae80f0d992e52c081c099c16935d7232',
      from: 'leptonica',
      committed: true,
    },
    truth: null,
  },
  {
    // Session 16: a ruled table (150 dpi) in four groups of columns whose rows do not line up from group to group.
    id: 'table.15',
    document: 'table.15',
    language: 'eng',
    image: {
      name: 'table.15.tif',
      sha256: '27c4d606ce859d8522500355e76b9b52af5ca6077198061b1755424d11c824e8',
      from: 'leptonica',
    },
    truth: null,
  },
  {
    // Session 16: a typewritten table (150 dpi), columns of figures with wide gutters.
    id: 'table.27',
    document: 'table.27',
    language: 'eng',
    image: {
      name: 'table.27.tif',
      sha256: '643a634d6530e446f09051df425b65620bc975e29121f61e36638c705cf8af47',
      from: 'leptonica',
    },
    truth: null,
  },
  {
    // Session 16: three short lines and a page number on a landscape page, mostly white (Tesseract's test of its
    // segmentation modes); measured on its columns axis, turned ±3° over 4° off.
    id: 'segmodeimg',
    document: 'segmodeimg',
    language: 'eng',
    addedAsTune: true,
    image: {
      name: 'segmodeimg.tif',
      sha256: 'c2e1b17784099cde8af0984ebeddd2ec7181601519f8398ef509080cd39543f6',
      committed: true,
    },
    truth: null,
  },
];

/**
 * The split, fixed before the engine ran on this material: a Tesseract page is held out when sha256(document)'s first
 * hex digit is 0–7; the ocrmypdf and Leptonica pages, and those added as tune
 * (`addedAsTune`), are all tune (NOTICE.md).
 */
export const splitOf = (scan: Pick<OcrCorpusScan, 'document' | 'image' | 'addedAsTune'>): Split =>
  scan.image.from === 'ocrmypdf' || scan.image.from === 'leptonica' || scan.addedAsTune
    ? 'tune'
    : parseInt(createHash('sha256').update(scan.document).digest('hex')[0]!, 16) <= 7
      ? 'held-out'
      : 'tune';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

export function ocrCorpusCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['PAYCORE_OCR_CORPUS_DIR']) return env['PAYCORE_OCR_CORPUS_DIR'];
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'paycore', 'ocr-corpus');
}

type Progress = (message: string) => void;

async function checked(path: string, hash: string): Promise<Buffer | null> {
  if (!existsSync(path)) return null;
  const b = await readFile(path);
  return sha256(b) === hash ? b : null;
}

async function writeAtomic(path: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
}

/**
 * An archive in the cache (`file`), fetched by `download` into a fresh folder when missing or altered and checked
 * against its pinned SHA-256.
 */
async function archive(
  cache: string,
  t: { file: string; sha256: string },
  what: string,
  download: (work: string) => Promise<unknown>,
  progress: Progress,
): Promise<string> {
  const path = join(cache, t.file);
  if (await checked(path, t.sha256)) return path;
  progress(`ocr corpus: downloading ${t.file} (${what})`);
  const work = await mkdtemp(join(tmpdir(), 'ocr-corpus-'));
  try {
    await download(work);
    const bytes = await checked(join(work, t.file), t.sha256);
    if (!bytes) throw new Error(`ocr corpus: ${t.file} does not match its pinned SHA-256 ${t.sha256}`);
    await writeAtomic(path, bytes);
    progress(`ocr corpus: ${t.file} downloaded and checked`);
    return path;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Debian's Tesseract test tarball (curl). */
const tarball = (cache: string, progress: Progress) => {
  const t = TESSERACT_TEST_TARBALL;
  return archive(
    cache,
    t,
    `${(t.bytes / 1e6).toFixed(1)} MB from deb.debian.org`,
    (work) => run('curl', ['-sSfL', '--retry', '3', '-o', join(work, t.file), t.url], { timeout: 15 * 60_000 }),
    progress,
  );
};

/** Leptonica's source tarball as Debian ships it (curl). */
const leptonica = (cache: string, progress: Progress) => {
  const t = LEPTONICA_SOURCE_TARBALL;
  return archive(
    cache,
    t,
    `${(t.bytes / 1e6).toFixed(1)} MB from deb.debian.org`,
    (work) => run('curl', ['-sSfL', '--retry', '3', '-o', join(work, t.file), t.url], { timeout: 15 * 60_000 }),
    progress,
  );
};

/** ocrmypdf's sdist (pip). */
const sdist = (cache: string, progress: Progress) =>
  archive(
    cache,
    OCRMYPDF_SDIST,
    '6.5 MB with pip',
    (work) =>
      run('pip', ['download', '--quiet', '--no-deps', '--no-binary', ':all:', '-d', work, OCRMYPDF_SDIST.requirement], {
        timeout: 15 * 60_000,
      }),
    progress,
  );

/** A member's bytes: the committed copy, else the cached one, else out of its tarball; always checked. */
async function member(m: Member, cache: string, progress: Progress): Promise<Buffer> {
  const from = m.from ?? 'tesseract';
  const local = m.committed ? join(HERE, from, m.name) : join(cache, from === 'tesseract' ? 'testing' : from, m.name);
  const have = await checked(local, m.sha256);
  if (have) return have;
  if (m.committed) throw new Error(`ocr corpus: ${local} does not match its pinned SHA-256`);
  const [archive, root] =
    from === 'ocrmypdf'
      ? [await sdist(cache, progress), OCRMYPDF_SDIST.root]
      : from === 'leptonica'
        ? [await leptonica(cache, progress), LEPTONICA_SOURCE_TARBALL.root]
        : [await tarball(cache, progress), TESSERACT_TEST_TARBALL.root];
  const { stdout } = await run('tar', ['-xzOf', archive, `${root}${m.name}`], {
    encoding: 'buffer',
    maxBuffer: 64 << 20,
  });
  if (sha256(stdout) !== m.sha256)
    throw new Error(`ocr corpus: ${m.name} in the tarball does not match its pinned SHA-256`);
  await writeAtomic(local, stdout);
  return stdout;
}

export interface LoadedScan extends OcrCorpusScan {
  split: Split;
  /** The scan as an image (a PDF's page rendered at `dpi`). */
  bytes: Buffer;
  /** The known text; '' when none ships (`truth: null`). */
  truthText: string;
  /** The scan's resolution (its TIFF states it). */
  dpi: number;
}

/** The scans of `ids` (default all), fetched and checked where needed. */
export async function loadScans(
  opts: { ids?: readonly string[]; progress?: Progress; cacheDir?: string } = {},
): Promise<LoadedScan[]> {
  const cache = opts.cacheDir ?? ocrCorpusCacheDir();
  const progress = opts.progress ?? (() => undefined);
  const out: LoadedScan[] = [];
  for (const scan of SCANS.filter((s) => !opts.ids || opts.ids.includes(s.id))) {
    let bytes = await member(scan.image, cache, progress);
    if (scan.image.name.endsWith('.pdf')) {
      const { stdout } = await run(
        'pdftoppm',
        ['-q', '-r', String(scan.dpi ?? 300), '-png', '-singlefile', join(HERE, 'ocrmypdf', scan.image.name)],
        { encoding: 'buffer', maxBuffer: 64 << 20 },
      );
      bytes = stdout;
    }
    const truthText = scan.truth ? (await member(scan.truth, cache, progress)).toString('utf8') : '';
    const dpi = scan.dpi ?? Math.round((await sharp(bytes).metadata()).density ?? 300);
    out.push({ ...scan, split: splitOf(scan), bytes, truthText, dpi });
  }
  return out;
}

/** The forms a scan is read in. */
export const FORMS = ['scan', 'pdf', 'rotated', 'skewed', 'skewed-bilevel', '150dpi'] as const;
export type FormName = (typeof FORMS)[number];

/** The skew of the `skewed` form, degrees clockwise (a sheet fed a little crooked). */
export const SKEW_DEGREES = 3;
/** The quarter turns of the `rotated` form's pages, in page order. */
export const TURNS = [0, 90, 180, 270] as const;

export interface Form {
  name: FormName;
  /** The file as a client uploads it. */
  file: Buffer;
  ext: 'tif' | 'pdf';
  /** What each page is (e.g. `turned 90°`). */
  pages: string[];
}

const greyPng = (img: Sharp, dpi: number) => img.greyscale().withMetadata({ density: dpi }).png().toBuffer();

/** One form of a scan: the TIFF itself, or an image-only PDF (pages sized at the image's resolution). */
export async function makeForm(scan: LoadedScan, name: FormName): Promise<Form> {
  const src = () => sharp(scan.bytes);
  switch (name) {
    case 'scan':
      return { name, file: scan.bytes, ext: 'tif', pages: [`as scanned, ${scan.dpi} dpi`] };
    case 'pdf':
      return {
        name,
        file: Buffer.from(await scannedPdf([{ png: await greyPng(src(), scan.dpi), dpi: scan.dpi }])),
        ext: 'pdf',
        pages: [`${scan.dpi} dpi`],
      };
    case 'rotated': {
      const pages = [];
      for (const t of TURNS) pages.push({ png: await greyPng(src().rotate(t), scan.dpi), dpi: scan.dpi });
      return { name, file: Buffer.from(await scannedPdf(pages)), ext: 'pdf', pages: TURNS.map((t) => `turned ${t}°`) };
    }
    case 'skewed': {
      const png = await greyPng(src().rotate(SKEW_DEGREES, { background: '#ffffff' }), scan.dpi);
      return {
        name,
        file: Buffer.from(await scannedPdf([{ png, dpi: scan.dpi }])),
        ext: 'pdf',
        pages: [`skewed ${SKEW_DEGREES}°`],
      };
    }
    case 'skewed-bilevel': {
      // A sheet fed crooked into a bilevel scanner: turned, then made black and white (threshold 128).
      const turned = await src().greyscale().rotate(SKEW_DEGREES, { background: '#ffffff' }).png().toBuffer();
      const png = await greyPng(sharp(turned).threshold(128), scan.dpi);
      return {
        name,
        file: Buffer.from(await scannedPdf([{ png, dpi: scan.dpi }])),
        ext: 'pdf',
        pages: [`skewed ${SKEW_DEGREES}°, bilevel`],
      };
    }
    case '150dpi': {
      const meta = await src().metadata();
      const png = await greyPng(
        src().resize({ width: Math.round((meta.width! * 150) / scan.dpi), kernel: 'lanczos3' }),
        150,
      );
      return { name, file: Buffer.from(await scannedPdf([{ png, dpi: 150 }])), ext: 'pdf', pages: ['150 dpi'] };
    }
  }
}

/**
 * The scan in grey with its body blurred past reading under a crisp top (a page photographed out of focus below its
 * title, a smeared print): the top `crispShare` of the page as scanned, the rest blurred by a Gaussian of `sigma`
 * pixels at 200 dpi (scaled to the scan's resolution), as a PNG stating the scan's resolution.
 */
export async function blurredBody(scan: LoadedScan, sigma: number, crispShare: number): Promise<Buffer> {
  const grey = await sharp(scan.bytes).greyscale().png().toBuffer();
  const { width, height } = await sharp(grey).metadata();
  const top = Math.round(height! * crispShare);
  const body = await sharp(grey)
    .extract({ left: 0, top, width: width!, height: height! - top })
    .blur((sigma * scan.dpi) / 200)
    .png()
    .toBuffer();
  return greyPng(sharp(grey).composite([{ input: body, left: 0, top }]), scan.dpi);
}

/**
 * The scan as a grey scanner or a copy of a copy gives it (a page that reads well but is not black on white): in grey,
 * softened by a Gaussian of `sigma` pixels at 300 dpi (scaled to the scan's resolution; 0: not softened, a scanner's
 * optics about 0.7–1), its levels mapped so that white is `paper` and black is `ink` (a grey or yellowed paper, a faded
 * or low-contrast print), with `noise` grey levels of random mottle (a textured or recycled paper; 0: none), as a PNG
 * stating the scan's resolution.
 */
export async function greyScan(
  scan: Pick<LoadedScan, 'bytes' | 'dpi'>,
  paper: number,
  ink: number,
  sigma = 0,
  noise = 0,
): Promise<Buffer> {
  let img = sharp(scan.bytes).greyscale();
  if (sigma > 0) img = img.blur(Math.max(0.3, (sigma * scan.dpi) / 300));
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  // A fixed seed: the same variant is the same image on every run.
  let seed = 0x2545f491;
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 0x100000000;
  };
  const out = Buffer.alloc(data.length);
  for (let i = 0; i < data.length; i++) {
    const v = ink + ((paper - ink) * data[i]!) / 255 + (noise > 0 ? (random() + random() - 1) * noise : 0);
    out[i] = Math.max(0, Math.min(255, Math.round(v)));
  }
  return greyPng(sharp(out, { raw: info }), scan.dpi);
}

/** A variant's page image as a one-page scanned PDF form, upright. */
async function scannedVariant(png: Buffer, dpi: number, spec: string): Promise<Form & { skew: number }> {
  return { name: 'scan', file: Buffer.from(await scannedPdf([{ png, dpi }])), ext: 'pdf', pages: [spec], skew: 0 };
}

/**
 * A variant of the skewed forms for finding what the page guard misses (the bench's `--variants`, tune pages only):
 * `skew:<degrees>[:bilevel][:<n>dpi]`: the scan scaled to n dpi (default its own), turned by degrees clockwise (negative:
 * counter-clockwise) on white, made black and white after the turn when `bilevel` (threshold 128), in a PDF;
 * `blur:<sigma>:<crisp share>`: the page upright with its body blurred under a crisp top (blurredBody), in a PDF;
 * `grey:<paper>:<ink>[:<sigma>[:<noise>]]`: the page upright as a grey scan (greyScan), in a PDF.
 */
export async function variantForm(scan: LoadedScan, spec: string): Promise<Form & { skew: number }> {
  const [kind, deg, ...rest] = spec.split(':');
  if (kind === 'blur') {
    const sigma = Number(deg);
    const crisp = Number(rest[0] ?? 0.25);
    if (!(sigma > 0 && sigma <= 20) || !(crisp >= 0 && crisp < 1))
      throw new Error(`variant ${spec}: expected blur:<sigma>:<crisp share>`);
    return scannedVariant(await blurredBody(scan, sigma, crisp), scan.dpi, spec);
  }
  if (kind === 'grey') {
    const [paper, ink, sigma, noise] = [Number(deg), Number(rest[0]), Number(rest[1] ?? 0), Number(rest[2] ?? 0)];
    if (!(paper > ink && ink >= 0 && paper <= 255) || !(sigma >= 0 && sigma <= 5) || !(noise >= 0 && noise <= 64))
      throw new Error(`variant ${spec}: expected grey:<paper>:<ink>[:<sigma>[:<noise>]]`);
    return scannedVariant(await greyScan(scan, paper, ink, sigma, noise), scan.dpi, spec);
  }
  const degrees = Number(deg);
  if (kind !== 'skew' || !Number.isFinite(degrees) || Math.abs(degrees) > 45)
    throw new Error(`variant ${spec}: expected skew:<degrees>[:bilevel][:<n>dpi]`);
  const bilevel = rest.includes('bilevel');
  const dpiSpec = rest.find((r) => /^\d+dpi$/.test(r));
  const dpi = dpiSpec ? Number(dpiSpec.slice(0, -3)) : scan.dpi;
  let img = sharp(scan.bytes).greyscale();
  if (dpi !== scan.dpi) {
    const meta = await sharp(scan.bytes).metadata();
    img = img.resize({ width: Math.round((meta.width! * dpi) / scan.dpi), kernel: 'lanczos3' });
  }
  const turned = await img.rotate(degrees, { background: '#ffffff' }).png().toBuffer();
  const png = await greyPng(bilevel ? sharp(turned).threshold(128) : sharp(turned), dpi);
  return {
    name: 'skewed',
    file: Buffer.from(await scannedPdf([{ png, dpi }])),
    ext: 'pdf',
    pages: [spec],
    skew: degrees,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && process.argv.includes('--fetch')) {
  const scans = await loadScans({ progress: (m) => process.stderr.write(`[paycore] ${m}\n`) });
  process.stderr.write(`[paycore] ocr corpus: ${scans.length} scans checked (${ocrCorpusCacheDir()})\n`);
}
