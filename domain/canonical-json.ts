/**
 * Deterministic JSON: object keys sorted, no insignificant whitespace. Two payloads that differ only in
 * key order or formatting serialize identically, so their hashes compare equal; payloads that differ in any
 * own key (`"__proto__"` and `"constructor"` included) serialize differently.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    // A prototype-less copy: assigning "__proto__" on a plain object would set its prototype, not a key, and
    // the key would vanish from the output.
    const out = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value).sort()) {
      out[key] = sortKeys((value as Record<string, unknown>)[key]);
    }
    return out;
  }
  return value;
}
