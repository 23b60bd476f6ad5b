import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * No circle of imports (type imports included) among the server's modules: a circle means two modules that cannot be
 * understood, tested or moved apart (issue 31 found one through adapters/media/operation-runners.ts, the extraction
 * runner and the OCR runners; the runner contract and the OCR page helpers now live in modules of their own).
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const LAYERS = [
  ...['domain', 'adapters', 'db', 'services', 'activities', 'workflows', 'workers', 'api', 'cli', 'config'],
  ...['bench', 'support', 'scripts'],
];

function importGraph(): Map<string, string[]> {
  const files = execFileSync('git', ['ls-files', ...LAYERS.map((l) => `${l}/*.ts`)], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const deps = [...text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)]
      .map((m) => normalize(join(dirname(file), m[1]!)) + '.ts')
      .filter((dep) => known.has(dep));
    graph.set(file, deps);
  }
  return graph;
}

function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('import graph', () => {
  it('has no circle among the server modules', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(300);
    expect(cycles(graph).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('finds a circle when there is one (the check itself works)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });
});
