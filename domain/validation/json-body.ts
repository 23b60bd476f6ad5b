/**
 * Rules every JSON request body obeys, whatever the route, checked once where bodies are parsed:
 * - at most MAX_JSON_DEPTH nested objects or arrays (the platform's deepest body is 4 levels; code that walks a
 *   body recursively, such as the canonical form hashed for idempotency, is then safe from stack overflow);
 * - no NUL character (U+0000) in any string or key: PostgreSQL text cannot store it, and no field of any
 *   interface has a use for it.
 * The walk is iterative, so a hostile body cannot overflow the stack while being checked.
 */
export const MAX_JSON_DEPTH = 32;

export interface JsonBodyIssue {
  kind: 'depth' | 'nul';
  /** Dotted path of the field, e.g. `items.3.name`; '' for the body itself. */
  path: string;
  message: string;
}

const MAX_REPORTED = 20;

export function jsonBodyIssues(body: unknown): JsonBodyIssue[] {
  const issues: JsonBodyIssue[] = [];
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: '', depth: 0 }];
  const join = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
  while (stack.length > 0 && issues.length < MAX_REPORTED) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000'))
        issues.push({ kind: 'nul', path, message: 'must not contain the NUL character (\\u0000)' });
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) {
      return [{ kind: 'depth', path, message: `nested more than ${MAX_JSON_DEPTH} levels deep` }];
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], path: join(path, i), depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      if (key.includes('\u0000')) {
        issues.push({
          kind: 'nul',
          path: join(path, key.replaceAll('\u0000', '\\u0000')),
          message: 'field names must not contain the NUL character (\\u0000)',
        });
        continue;
      }
      stack.push({ value: (value as Record<string, unknown>)[key], path: join(path, key), depth: depth + 1 });
    }
  }
  return issues;
}
