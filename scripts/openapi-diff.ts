import { readFileSync } from 'node:fs';

/**
 * `tsx scripts/openapi-diff.ts OLD.json NEW.json`: what a change of an OpenAPI document removed, added or
 * changed, leaf by leaf (a JSON pointer and its value), after reading a schema's nullable forms alike (`type:
 * [t, "null"]` and `anyOf: [{type: t}, {type: "null"}]`) and a lone `allOf` of patterns as one list. Used to check
 * that moving a hand-written document to one generated from zod schemas loses nothing by accident
 * (docs/operations.md, "The API contract").
 */
type Json = unknown;

function normalize(node: Json): Json {
  if (Array.isArray(node)) return node.map(normalize);
  if (!node || typeof node !== 'object') return node;
  const o = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, normalize(v)])) as Record<string, Json>;
  const any = o['anyOf'];
  if (Array.isArray(any) && any.length === 2 && any.some((s) => (s as Record<string, Json>)['type'] === 'null')) {
    const other = any.find((s) => (s as Record<string, Json>)['type'] !== 'null') as Record<string, Json>;
    delete o['anyOf'];
    Object.assign(o, other, { type: [other['type'], 'null'] });
  }
  const all = o['allOf'];
  if (Array.isArray(all) && all.every((s) => Object.keys(s as object).join() === 'pattern')) {
    delete o['allOf'];
    o['pattern'] = [...(o['pattern'] ? [o['pattern']] : []), ...all.map((s) => (s as Record<string, Json>)['pattern'])];
  }
  if (Array.isArray(o['required'])) o['required'] = [...(o['required'] as string[])].sort();
  return o;
}

function flatten(node: Json, at: string, out: Map<string, string>): Map<string, string> {
  if (node && typeof node === 'object' && !Array.isArray(node)) {
    for (const [k, v] of Object.entries(node)) flatten(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
  } else if (Array.isArray(node) && node.some((v) => v && typeof v === 'object')) {
    node.forEach((v, i) => flatten(v, `${at}/${i}`, out));
  } else out.set(at, JSON.stringify(node));
  return out;
}

const [oldFile, newFile] = process.argv.slice(2);
if (!oldFile || !newFile) throw new Error('usage: tsx scripts/openapi-diff.ts OLD.json NEW.json');
const read = (f: string) => flatten(normalize(JSON.parse(readFileSync(f, 'utf8'))), '', new Map());
const before = read(oldFile);
const after = read(newFile);
for (const [k, v] of before) {
  if (!after.has(k)) console.log(`- ${k} ${v.slice(0, 200)}`);
  else if (after.get(k) !== v) console.log(`~ ${k} ${v.slice(0, 200)} -> ${after.get(k)!.slice(0, 200)}`);
}
for (const [k, v] of after) if (!before.has(k)) console.log(`+ ${k} ${v.slice(0, 200)}`);
