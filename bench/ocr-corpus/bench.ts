/**
 * OCR word recall on real scans (bench/ocr-corpus/NOTICE.md), per page and form, for each way the platform reads a
 * scan, the engines called directly (no API, no Temporal): `ocr-text`, `ocr-docx` (the Word file's text), `ocr-pdf`
 * (its text layer, `pdftotext -raw`) through the OCR runners, and extraction's OCR (`readSourceText`). Tune pages are
 * printed page by page; held-out pages only as aggregates per form and path. See bench/README.md, "Real scans".
 *
 * Run: npm run bench:ocr-real -- [--split tune|held-out|all] [--scans a,b] [--forms scan,rotated] [--paths text,pdf]
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import { readSourceText } from '../../adapters/extraction/source-text.js';
import { createOcrEngine } from '../../adapters/media/ocr/ocr-engine.js';
import { createOcrRunners } from '../../adapters/media/ocr/ocr-runners.js';
import type { RunnerOutput } from '../../adapters/media/runner-contract.js';
import { wordAccuracy } from '../../support/ocr-corpus.js';
import { FORMS, loadScans, makeForm, type FormName, type Split } from './corpus.js';

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
  const runners = createOcrRunners(engine);
  await mkdir(work, { recursive: true });
  const input = { sources: [{ path: file, filename: 'scan' }], options: { language }, workDir: work };
  switch (path) {
    case 'text':
      return bytesOf((await runners['ocr-text'](input))[0])
        .toString('utf8')
        .split('\f');
    case 'docx':
      return docxPages(bytesOf((await runners['ocr-docx'](input))[0]));
    case 'pdf': {
      const out = join(work, 'searchable.out.pdf');
      await writeFile(out, bytesOf((await runners['ocr-pdf'](input))[0]));
      const n = Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [out]).toString())?.[1] ?? 1);
      return Array.from({ length: n }, (_, i) =>
        execFileSync('pdftotext', ['-raw', '-f', String(i + 1), '-l', String(i + 1), out, '-']).toString('utf8'),
      );
    }
    case 'extraction':
      return (await readSourceText(file, { engine, workDir: work, language })).pages.map((p) => p.text);
  }
}

async function main(): Promise<void> {
  const split = (arg('split') ?? 'tune') as Split | 'all';
  const forms = list<FormName>('forms', FORMS);
  const paths = list<PathName>('paths', PATHS);
  const ids = arg('scans')?.split(',');
  const scans = (await loadScans({ ...(ids ? { ids } : {}), progress: (m) => process.stderr.write(`${m}\n`) })).filter(
    (s) => split === 'all' || s.split === split,
  );
  const work = await mkdtemp(join(os.tmpdir(), 'bench-ocr-real-'));
  const engine = createOcrEngine({ concurrency: 1 });
  const rows: string[][] = [['scan', 'split', 'form', 'page', 'words', ...paths]];
  const agg = new Map<string, number[]>();
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
      for (const formName of forms) {
        const form = await makeForm(scan, formName);
        const file = join(work, `${scan.id}-${formName}.${form.ext}`);
        await writeFile(file, form.file);
        const read: Record<string, string[]> = {};
        for (const p of paths) {
          const t = performance.now();
          read[p] = await readPages(p, file, scan.language, join(work, `${scan.id}-${formName}-${p}`), engine);
          process.stderr.write(`${scan.id} ${formName} ${p}: ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
        }
        form.pages.forEach((what, i) => {
          const recalls = paths.map((p) => wordAccuracy(scan.truthText, read[p]![i] ?? '').recall);
          paths.forEach((p, k) => {
            const key = `${scan.split}|${formName}|${p}`;
            agg.set(key, [...(agg.get(key) ?? []), recalls[k]!]);
          });
          if (scan.split === 'tune')
            rows.push([
              scan.id,
              scan.split,
              formName,
              what,
              String(wordAccuracy(scan.truthText, '').truthWords),
              ...recalls.map((r) => r.toFixed(3)),
            ]);
        });
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const print = (r: string[][]) =>
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
  process.stdout.write(
    `engines: ${execFileSync('tesseract', ['--version']).toString().split('\n')[0]}, ocrmypdf ${execFileSync('ocrmypdf', ['--version']).toString().trim()}\n\nword recall per page (tune pages):\n`,
  );
  print(rows);
  process.stdout.write('\naggregates (pages; mean recall; lowest; pages >= 0.95):\n');
  for (const [key, v] of [...agg.entries()].sort()) {
    process.stdout.write(
      `  ${key.replace(/\|/g, '  ').padEnd(32)} ${String(v.length).padStart(3)}  ${(v.reduce((a, b) => a + b, 0) / v.length).toFixed(3)}  ${Math.min(...v).toFixed(3)}  ${v.filter((x) => x >= 0.95).length}/${v.length}\n`,
    );
  }
}

if (process.argv[1]?.endsWith('bench.ts')) await main();
