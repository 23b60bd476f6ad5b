/**
 * OCR word recall on real scans (bench/ocr-corpus/NOTICE.md), per page and form, for each way the platform reads a
 * scan, the engines called directly (no API, no Temporal): `ocr-text`, `ocr-docx` (the Word file's text), `ocr-pdf`
 * (its text layer, `pdftotext -raw`) through the OCR runners, and extraction's OCR (`readSourceText`). Tune pages are
 * printed page by page; held-out pages only as aggregates per form and path. See bench/README.md, "Real scans".
 *
 * Run: npm run bench:ocr-real -- [--split tune|held-out|all] [--scans a,b] [--forms scan,rotated] [--paths text,pdf]
 *      [--variants skew:3,blur:8:0.25] [--blurred-shares]
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import { readSourceText } from '../../adapters/extraction/source-text.js';
import { createOcrEngine, HARD_TO_READ_CONFIDENCE } from '../../adapters/media/ocr/ocr-engine.js';
import { createOcrRunners } from '../../adapters/media/ocr/ocr-runners.js';
import { pageTrace, readsBadly, type PageTrace } from '../../adapters/media/ocr/page-retry.js';
import { BLURRED_PRINT_SHARE, measureSkew } from '../../adapters/media/ocr/page-skew.js';
import type { RunnerOutput } from '../../adapters/media/runner-contract.js';
import { wordAccuracy } from '../../support/ocr-corpus.js';
import {
  FORMS,
  loadScans,
  makeForm,
  SKEW_DEGREES,
  variantForm,
  type Form,
  type FormName,
  type Split,
} from './corpus.js';

export const PATHS = ['text', 'docx', 'pdf', 'extraction'] as const;
export type PathName = (typeof PATHS)[number];

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const list = <T extends string>(name: string, all: readonly T[]): T[] => {
  const v = arg(name);
  if (!v) return [...all];
  const picked = v.split(',') as T[];
  for (const p of picked) if (!all.includes(p)) throw new Error(`--${name}: ${p} is not one of ${all.join(', ')}`);
  return picked;
};

const bytesOf = (o: RunnerOutput | undefined): Buffer => {
  if (!o || !('data' in o)) throw new Error('expected an in-memory output');
  return Buffer.from(o.data);
};

/** The text of each page of a Word file the OCR wrote (a page starts at a paragraph with pageBreakBefore). */
export function docxPages(docx: Buffer): string[] {
  const xml = new AdmZip(docx).readAsText('word/document.xml');
  const pages: string[] = [''];
  for (const p of xml.match(/<w:p[ >][\s\S]*?<\/w:p>/g) ?? []) {
    if (p.includes('<w:pageBreakBefore')) pages.push('');
    const text = (p.match(/<w:t[^>]*>[^<]*<\/w:t>|<w:br\/>/g) ?? [])
      .map((t) => (t === '<w:br/>' ? '\n' : t.replace(/<[^>]+>/g, '')))
      .join('');
    pages[pages.length - 1] += `${text
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")}\n`;
  }
  return pages;
}

/** Each page's text as `path` reads the file. */
export async function readPages(
  path: PathName,
  file: string,
  language: string,
  work: string,
  engine = createOcrEngine({ concurrency: 1 }),
): Promise<string[]> {
  return (await readPagesWarned(path, file, language, work, engine)).pages;
}

/** Each page's text as `path` reads the file, and the result's warnings. */
export async function readPagesWarned(
  path: PathName,
  file: string,
  language: string,
  work: string,
  engine = createOcrEngine({ concurrency: 1 }),
): Promise<{ pages: string[]; warnings: string[] }> {
  const runners = createOcrRunners(engine);
  await mkdir(work, { recursive: true });
  const input = { sources: [{ path: file, filename: 'scan' }], options: { language }, workDir: work };
  const warningsOf = (o: RunnerOutput | undefined) => [...(o?.warnings ?? [])];
  switch (path) {
    case 'text': {
      const out = (await runners['ocr-text'](input))[0];
      return { pages: bytesOf(out).toString('utf8').split('\f'), warnings: warningsOf(out) };
    }
    case 'docx': {
      const out = (await runners['ocr-docx'](input))[0];
      return { pages: docxPages(bytesOf(out)), warnings: warningsOf(out) };
    }
    case 'pdf': {
      const made = (await runners['ocr-pdf'](input))[0];
      const out = join(work, 'searchable.out.pdf');
      await writeFile(out, bytesOf(made));
      const n = Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [out]).toString())?.[1] ?? 1);
      return {
        pages: Array.from({ length: n }, (_, i) =>
          execFileSync('pdftotext', ['-raw', '-f', String(i + 1), '-l', String(i + 1), out, '-']).toString('utf8'),
        ),
        warnings: warningsOf(made),
      };
    }
    case 'extraction': {
      const read = await readSourceText(file, { engine, workDir: work, language });
      return { pages: read.pages.map((p) => p.text), warnings: [...read.warnings] };
    }
  }
}

/** The pages (1-based) a result's warnings name (`page N ...`). */
export const warnedPages = (warnings: readonly string[]): Set<number> =>
  new Set(warnings.flatMap((w) => [...w.matchAll(/\bpage (\d+)\b/g)].map((m) => Number(m[1]))));

/**
 * What the page guard did on each page of one read (page-retry.ts's pageTrace), in page order: the skew measured, the
 * first read's and the kept read's scores, which read was kept, ocrmypdf's turns. Pages are read one at a time here
 * (concurrency 1), so the n-th measurement and the n-th read belong to the n-th page read by OCR.
 */
export interface GuardRecord {
  skew: number | null;
  axis: 'rows' | 'columns' | null;
  firstBad: boolean;
  retried: number;
  /** 0: the first read; k: the k-th retry (text/docx/pdf: 1 the page as uploaded, 2 sparse mode). */
  kept: number;
  stillBad: boolean;
  confidence: number;
  confident: number;
  /** ocr-pdf: the turn ocrmypdf's orientation detection made and kept (degrees; 0 none). */
  turned: number;
  /** page-orientation.ts: null when the first read's orientation was not in doubt; else the turn kept (0: none). */
  oriented: number | null;
  /** The share of the page's print that is blurred (page-skew.ts, blurredShare; null: not measured). */
  blurred: number | null;
}

export async function traced<T>(work: () => Promise<T>): Promise<{ result: T; guard: GuardRecord[] }> {
  // A page's measurement and ocrmypdf's turns come before its read's outcome: the events up to a `read` are its page's.
  const guard: GuardRecord[] = [];
  let skew: Extract<PageTrace, { kind: 'skew' }> | null = null;
  let turned = 0;
  let oriented: number | null = null;
  const on = (m: unknown) => {
    const t = m as PageTrace;
    if (t.kind === 'skew') skew = t;
    else if (t.kind === 'turn') turned = t.kept ? t.rotation : turned;
    else if (t.kind === 'orient') oriented = t.turn;
    else {
      const kept = t.kept === 0 ? t.first : t.retries[t.kept - 1]!;
      const s = skew as Extract<PageTrace, { kind: 'skew' }> | null;
      guard.push({
        skew: s?.skew ?? null,
        axis: s?.axis ?? null,
        firstBad: readsBadly(t.first, t.inked),
        retried: t.retries.filter((x) => x !== null).length,
        kept: t.kept,
        stillBad: t.stillBad,
        confidence: kept.confidence,
        confident: kept.confident,
        turned,
        oriented,
        blurred: s?.blurred ?? null,
      });
      skew = null;
      turned = 0;
      oriented = null;
    }
  };
  pageTrace.subscribe(on);
  try {
    return { result: await work(), guard };
  } finally {
    pageTrace.unsubscribe(on);
  }
}

/** One page's outcome on one path: its recall, what the guard did (null: not traced), whether the result warned it. */
interface PageOutcome {
  recall: number;
  guard: GuardRecord | null;
  warned: boolean;
  /** The skew the form gave the page (degrees clockwise). */
  applied: number;
}

/** A measured skew this far (degrees) from the form's own is counted as mis-measured (scans are a little crooked too). */
const SKEW_OFF = 1;

/**
 * The guard's totals of a set of pages (no page named): measured skews off by more than SKEW_OFF, first reads that
 * read badly, retries, which read was kept, pages still reading badly, turned by ocrmypdf, warned, and kept reads
 * under the warning floor (HARD_TO_READ_CONFIDENCE); `all` for every page, `low` for those under 0.5 recall.
 */
export function guardTotals(pages: readonly PageOutcome[]): string {
  const n = (f: (p: PageOutcome) => boolean) => pages.filter(f).length;
  const g = (f: (r: GuardRecord) => boolean) => (p: PageOutcome) => p.guard !== null && f(p.guard);
  return [
    `traced ${n((p) => p.guard !== null)}`,
    `skew-off ${n((p) => p.guard?.skew != null && Math.abs(p.guard.skew - p.applied) > SKEW_OFF)}`,
    `cols ${n(g((r) => r.axis === 'columns'))}`,
    `bad-1st ${n(g((r) => r.firstBad))}`,
    `retried ${n(g((r) => r.retried > 0))}`,
    `kept-uploaded ${n(g((r) => r.kept === 1))}`,
    `kept-sparse ${n(g((r) => r.kept === 2))}`,
    `still-bad ${n(g((r) => r.stillBad))}`,
    `turned ${n(g((r) => r.turned !== 0))}`,
    `in-doubt ${n(g((r) => r.oriented !== null))}`,
    `re-turned ${n(g((r) => !!r.oriented))}`,
    `blurred ${n(g((r) => r.blurred !== null && r.blurred >= BLURRED_PRINT_SHARE))}`,
    `conf<${HARD_TO_READ_CONFIDENCE} ${n(g((r) => r.confidence < HARD_TO_READ_CONFIDENCE))}`,
    `warned ${n((p) => p.warned)}`,
  ].join(' ');
}

/**
 * `--blurred-shares`: the share of each page's print that is blurred (page-skew.ts, blurredShare) on every tune page in
 * every form and `--variants`, measured as ocr-pdf measures it (the page rendered at most 1000 pixels on its longest
 * side), no OCR: the false warnings of the blurred-page warning on clean pages, and which blurred variants it names.
 */
async function blurredShares(scans: Awaited<ReturnType<typeof loadScans>>, forms: FormName[], variants: string[]) {
  const work = await mkdtemp(join(os.tmpdir(), 'bench-ocr-blur-'));
  const rows: string[][] = [['scan', 'form', 'page', 'blurred', 'warned']];
  let pages = 0;
  let warned = 0;
  try {
    for (const scan of scans) {
      const made: Form[] = [];
      for (const f of forms) made.push(await makeForm(scan, f));
      for (const v of variants) made.push({ ...(await variantForm(scan, v)), name: v as FormName });
      for (const form of made) {
        const file = join(work, `form.${form.ext}`);
        await writeFile(file, form.file);
        for (let i = 0; i < form.pages.length; i++) {
          let image = file;
          if (form.ext === 'pdf') {
            execFileSync('pdftoppm', [
              '-q',
              '-f',
              String(i + 1),
              '-l',
              String(i + 1),
              '-scale-to',
              '1000',
              '-gray',
              '-png',
              '-singlefile',
              file,
              join(work, 'page'),
            ]);
            image = join(work, 'page.png');
          }
          const { blurred } = await measureSkew(image);
          const warn = blurred >= BLURRED_PRINT_SHARE;
          pages++;
          if (warn) warned++;
          rows.push([scan.id, form.name, form.pages[i]!, blurred.toFixed(3), String(warn)]);
        }
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  for (const r of rows)
    process.stdout.write(
      `${r
        .map((v, c) => v.padEnd(c === 2 ? 24 : 16))
        .join('')
        .trimEnd()}\n`,
    );
  process.stdout.write(`\nwarned as blurred: ${warned} of ${pages} pages\n`);
}

async function main(): Promise<void> {
  const split = (arg('split') ?? 'tune') as Split | 'all';
  const variants = arg('variants')?.split(',') ?? [];
  const forms = variants.length > 0 && !arg('forms') ? [] : list<FormName>('forms', FORMS);
  const paths = list<PathName>('paths', PATHS);
  const ids = arg('scans')?.split(',');
  const scans = (await loadScans({ ...(ids ? { ids } : {}), progress: (m) => process.stderr.write(`${m}\n`) })).filter(
    (s) => split === 'all' || s.split === split,
  );
  // Variants are for finding what fails on tune pages; the held-out part is read only in the fixed forms.
  if (variants.length > 0 && scans.some((s) => s.split !== 'tune')) throw new Error('--variants: tune pages only');
  if (process.argv.includes('--blurred-shares')) {
    if (scans.some((s) => s.split !== 'tune')) throw new Error('--blurred-shares: tune pages only');
    return blurredShares(scans, forms, variants);
  }
  const work = await mkdtemp(join(os.tmpdir(), 'bench-ocr-real-'));
  const engine = createOcrEngine({ concurrency: 1 });
  const rows: string[][] = [['scan', 'split', 'form', 'page', 'words', ...paths]];
  const guardRows: string[][] = [
    [
      'scan',
      'form',
      'page',
      'path',
      'recall',
      'skew',
      'axis',
      'bad-1st',
      'kept',
      'still-bad',
      'conf',
      'confident',
      'turned',
      'orient',
      'blurred',
      'warned',
    ],
  ];
  const agg = new Map<string, PageOutcome[]>();
  try {
    for (const scan of scans) {
      if (scan.truth === null) {
        // No transcript ships (c02-22): its truth is what ocr-text reads on the upright scan (NOTICE.md), so its figures
        // say whether a form is read as the upright page is, not how good that read is.
        const upright = await makeForm(scan, 'scan');
        const file = join(work, `${scan.id}-truth.${upright.ext}`);
        await writeFile(file, upright.file);
        scan.truthText =
          (await readPages('text', file, scan.language, join(work, `${scan.id}-truth`), engine))[0] ?? '';
      }
      const made: Array<{ key: string; form: Form; applied: number }> = [];
      for (const f of forms)
        made.push({ key: f, form: await makeForm(scan, f), applied: f.startsWith('skewed') ? SKEW_DEGREES : 0 });
      for (const v of variants) {
        const form = await variantForm(scan, v);
        made.push({ key: v, form, applied: form.skew });
      }
      for (const { key: formName, form, applied } of made) {
        const file = join(work, `${scan.id}-${formName.replace(/[^\w.-]/g, '_')}.${form.ext}`);
        await writeFile(file, form.file);
        const read: Record<string, { pages: string[]; warnings: string[] }> = {};
        const guard: Record<string, GuardRecord[]> = {};
        for (const p of paths) {
          const t = performance.now();
          const dir = join(work, `${scan.id}-${formName.replace(/[^\w.-]/g, '_')}-${p}`);
          const r = await traced(() => readPagesWarned(p, file, scan.language, dir, engine));
          read[p] = r.result;
          guard[p] = r.guard;
          process.stderr.write(`${scan.id} ${formName} ${p}: ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
        }
        form.pages.forEach((what, i) => {
          const outcomes = paths.map((p): PageOutcome => ({
            recall: wordAccuracy(scan.truthText, read[p]!.pages[i] ?? '').recall,
            // Each page is read by OCR once per path: the i-th trace is page i's (null when the counts differ).
            guard: guard[p]!.length === form.pages.length ? guard[p]![i]! : null,
            warned: warnedPages(read[p]!.warnings).has(i + 1),
            applied: formName === 'rotated' ? 0 : applied,
          }));
          paths.forEach((p, k) => {
            const key = `${scan.split}|${formName}|${p}`;
            agg.set(key, [...(agg.get(key) ?? []), outcomes[k]!]);
          });
          if (scan.split === 'tune') {
            rows.push([
              scan.id,
              scan.split,
              formName,
              what,
              String(wordAccuracy(scan.truthText, '').truthWords),
              ...outcomes.map((o) => o.recall.toFixed(3)),
            ]);
            paths.forEach((p, k) => {
              const o = outcomes[k]!;
              const r = o.guard;
              guardRows.push([
                scan.id,
                formName,
                String(i + 1),
                p,
                o.recall.toFixed(3),
                r?.skew?.toFixed(2) ?? '-',
                r?.axis ?? '-',
                r ? String(r.firstBad) : '-',
                r ? String(r.kept) : '-',
                r ? String(r.stillBad) : '-',
                r ? r.confidence.toFixed(0) : '-',
                r ? String(r.confident) : '-',
                r ? String(r.turned) : '-',
                r?.oriented != null ? String(r.oriented) : '-',
                r?.blurred?.toFixed(3) ?? '-',
                String(o.warned),
              ]);
            });
          }
        });
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const print = (r: string[][]) => {
    const widths = r[0]!.map((_, c) => Math.max(...r.map((row) => row[c]!.length)));
    process.stdout.write(
      `${r
        .map((row) =>
          row
            .map((v, c) => v.padEnd(widths[c]! + 2))
            .join('')
            .trimEnd(),
        )
        .join('\n')}\n`,
    );
  };
  process.stdout.write(
    `engines: ${execFileSync('tesseract', ['--version']).toString().split('\n')[0]}, ocrmypdf ${execFileSync('ocrmypdf', ['--version']).toString().trim()}\n\nword recall per page (tune pages):\n`,
  );
  print(rows);
  if (guardRows.length > 1) {
    process.stdout.write('\nthe page guard per page (tune pages; kept: 0 first read, 1 as uploaded, 2 sparse):\n');
    print(guardRows);
  }
  process.stdout.write('\naggregates (pages; mean recall; lowest; pages >= 0.95):\n');
  for (const [key, v] of [...agg.entries()].sort()) {
    const r = v.map((o) => o.recall);
    process.stdout.write(
      `  ${key.replace(/\|/g, '  ').padEnd(32)} ${String(r.length).padStart(3)}  ${(r.reduce((a, b) => a + b, 0) / r.length).toFixed(3)}  ${Math.min(...r).toFixed(3)}  ${r.filter((x) => x >= 0.95).length}/${r.length}\n`,
    );
  }
  // Totals only, so a held-out run tells which way the guard went on a page that read badly without naming the page.
  process.stdout.write(
    `\nthe page guard, totals (skew-off: measured more than ${SKEW_OFF}° from the form's turn; cols: lines found vertical;\n` +
      'bad-1st: the first read read badly; kept-uploaded/-sparse: a retry was kept; still-bad: the kept read reads badly;\n' +
      `turned: ocrmypdf turned the page; in-doubt: its orientation was in doubt; re-turned: a turn was kept for it;\n` +
      `blurred: ${BLURRED_PRINT_SHARE * 100} % or more of its print blurred;\n` +
      `conf<${HARD_TO_READ_CONFIDENCE}: the kept read is under the warning floor; warned: in the result's warnings):\n`,
  );
  for (const [key, v] of [...agg.entries()].sort()) {
    const low = v.filter((o) => o.recall < 0.5);
    process.stdout.write(
      `  ${key.replace(/\|/g, '  ').padEnd(32)} all ${String(v.length).padStart(2)}: ${guardTotals(v)}\n`,
    );
    if (low.length > 0)
      process.stdout.write(`  ${''.padEnd(32)} <0.5 ${String(low.length).padStart(2)}: ${guardTotals(low)}\n`);
  }
}

if (process.argv[1]?.endsWith('bench.ts')) await main();
