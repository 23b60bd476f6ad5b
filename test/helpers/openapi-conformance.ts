import { expect } from 'vitest';
import { DomainError } from '../../domain/errors.js';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Checks real HTTP responses against an OpenAPI 3.1 document with ajv 8 (JSON Schema 2020-12, the OpenAPI 3.1
 * dialect), and records which operation/status pairs were seen. Component schemas are registered once under
 * a synthetic $id so `#/components/schemas/…` references resolve.
 */

function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats.default(ajv);
  // The documents' one extension keyword: a length JSON Schema cannot count (the NFKC form of a password, the company
  // session's accept-invitation body), checked here as the server checks it.
  ajv.addKeyword({
    keyword: 'x-nfkc-length',
    type: 'string',
    schemaType: 'object',
    validate: (bounds: { minimum: number; maximum: number }, data: string) => {
      const length = [...data.normalize('NFKC')].length;
      return length >= bounds.minimum && length <= bounds.maximum;
    },
  });
  return ajv;
}

export type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const COMPONENTS_ID = 'https://openapi-conformance.invalid/components';
export const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

export function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Obj)[key] : undefined), doc);
}
export function walk(node: unknown, visit: (key: string, value: unknown, parent: Obj) => void): void {
  if (Array.isArray(node)) node.forEach((n) => walk(n, visit));
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      visit(k, v, node as Obj);
      walk(v, visit);
    }
}
/** A schema of the document with its component references pointed at the registered components schema. */
const forAjv = (schema: unknown): object =>
  JSON.parse(JSON.stringify(schema), (k, v: unknown) =>
    k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')
      ? `${COMPONENTS_ID}#/$defs/${v.slice(21)}`
      : v,
  ) as object;

/** Validates real responses and request bodies against the document, and records which responses were seen. */
export class Conformance {
  readonly ajv = createAjv();
  readonly covered = new Set<string>();
  private readonly compiled = new Map<unknown, ValidateFunction>();

  constructor(readonly doc: Obj) {
    this.ajv.addSchema({ $id: COMPONENTS_ID, $defs: forAjv(obj(doc['components'])['schemas']) });
  }

  deref(node: unknown): Obj {
    const ref = obj(node)['$ref'];
    return typeof ref === 'string' ? obj(resolvePointer(this.doc, ref)) : obj(node);
  }

  validator(schema: unknown): ValidateFunction {
    let v = this.compiled.get(schema);
    if (!v) this.compiled.set(schema, (v = this.ajv.compile(forAjv(schema))));
    return v;
  }

  expectValid(schema: unknown, data: unknown, what: string): void {
    const v = this.validator(schema);
    expect(v(data), `${what}: ${JSON.stringify(v.errors, null, 1)}\n${JSON.stringify(data)}`).toBe(true);
  }

  operation(key: string): Obj {
    const [method, path] = key.split(' ') as [string, string];
    const op = obj(obj(obj(this.doc['paths'])[path])[method.toLowerCase()]);
    expect(op['responses'], `${key} is not documented`).toBeDefined();
    return op;
  }

  jobRequestSchema(): unknown {
    return obj(obj(obj(this.operation('POST /v1/jobs')['requestBody'])['content'])['application/json'])['schema'];
  }

  /** Checks status, content type, JSON body and headers of a real response against `METHOD /path`. */
  async check(key: string, res: Response): Promise<unknown> {
    const raw = Buffer.from(await res.arrayBuffer());
    const documented = obj(this.operation(key)['responses']);
    const response = this.deref(documented[String(res.status)]);
    expect(
      response['description'],
      `${key} answered ${res.status}, which is not documented (${Object.keys(documented).join(', ')}): ${raw.toString().slice(0, 300)}`,
    ).toBeDefined();
    this.covered.add(`${key} ${res.status}`);
    const content = obj(response['content']);
    let body: unknown = raw;
    if (Object.keys(content).length === 0) {
      expect(raw.length, `${key} ${res.status} has no documented body`).toBe(0);
    } else {
      const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
      expect(Object.keys(content), `${key} ${res.status}: undocumented content type ${type}`).toContain(type);
      if (type === 'application/json') {
        body = JSON.parse(raw.toString('utf8'));
        this.expectValid(obj(content[type])['schema'], body, `${key} ${res.status} body`);
      }
    }
    for (const [name, h] of Object.entries(obj(response['headers']))) {
      const header = this.deref(h);
      const value = res.headers.get(name);
      if (header['required'] === true) expect(value, `${key} ${res.status}: required header ${name}`).not.toBeNull();
      if (value === null) continue;
      const schema = obj(header['schema']);
      this.expectValid(
        schema,
        schema['type'] === 'integer' ? Number(value) : value,
        `${key} ${res.status} header ${name}`,
      );
    }
    return body;
  }
}

/**
 * The checks every OpenAPI 3.1 document of ours must pass before its operations are examined: the version,
 * an info block, every `$ref` resolving, and every component schema registered with the validator.
 */
export function expectSoundDocument(c: Conformance, doc: Obj, minRefs: number): void {
  expect(doc['openapi']).toMatch(/^3\.1\.\d+$/);
  expect(obj(doc['info'])).toMatchObject({ title: expect.any(String), version: expect.any(String) });
  const refs: string[] = [];
  walk(doc, (k, v) => {
    if (k === '$ref') refs.push(String(v));
  });
  expect(refs.length).toBeGreaterThan(minRefs);
  for (const ref of new Set(refs)) expect(resolvePointer(doc, ref), ref).toBeDefined();
  for (const name of Object.keys(obj(obj(doc['components'])['schemas']))) {
    expect(c.ajv.getSchema(`${COMPONENTS_ID}#/$defs/${name}`), name).toBeTypeOf('function');
  }
}

/** Which operations of a document to check: a top-level section, the form of its keys and of its statuses. */
export interface OperationSection {
  section: 'paths' | 'webhooks';
  keyPattern: RegExp;
  statusPattern: RegExp;
}

/**
 * Checks every operation of the given sections: known methods, unique operation ids, declared tags and security
 * schemes, path parameters matching the template (required), compiling parameter, header and body schemas,
 * valid examples, a success status and described responses. Returns how many examples were validated.
 */
export function expectSoundOperations(c: Conformance, doc: Obj, sections: readonly OperationSection[]): number {
  const components = obj(doc['components']);
  const tags = new Set((doc['tags'] as Array<{ name: string }>).map((t) => t.name));
  const schemes = new Set(Object.keys(obj(components['securitySchemes'])));
  const operationIds = new Set<string>();
  let examples = 0;
  for (const { section, keyPattern, statusPattern } of sections) {
    for (const [key, item] of Object.entries(obj(doc[section]))) {
      expect(key).toMatch(keyPattern);
      for (const [method, raw] of Object.entries(obj(item))) {
        expect(METHODS).toContain(method);
        const op = obj(raw);
        const where = `${section}: ${method} ${key}`;
        expect(operationIds.has(String(op['operationId'])), `duplicate operationId at ${where}`).toBe(false);
        operationIds.add(String(op['operationId']));
        for (const t of op['tags'] as string[]) expect(tags, where).toContain(t);
        for (const req of (op['security'] as Obj[] | undefined) ?? [])
          for (const sc of Object.keys(req)) expect(schemes, where).toContain(sc);
        const params = ((op['parameters'] as unknown[] | undefined) ?? []).map((p) => c.deref(p));
        const templated = [...key.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        expect(
          params.filter((p) => p['in'] === 'path').map((p) => p['name']),
          where,
        ).toEqual(templated);
        for (const p of params) {
          if (p['in'] === 'path') expect(p['required'], where).toBe(true);
          c.validator(p['schema']);
          if (p['example'] !== undefined)
            c.expectValid(p['schema'], p['example'], `${where} parameter ${String(p['name'])} example`);
        }
        const statuses = Object.keys(obj(op['responses']));
        expect(
          statuses.some((st) => /^2(\d\d|XX)$/.test(st)),
          where,
        ).toBe(true);
        for (const st of statuses) expect(st, where).toMatch(statusPattern);
        for (const [status, r] of Object.entries(obj(op['responses']))) {
          for (const hd of Object.values(obj(c.deref(r)['headers']))) c.validator(c.deref(hd)['schema']);
          expect(c.deref(r)['description'], `${where} ${status}`).toEqual(expect.any(String));
        }
        const media = [
          obj(obj(op['requestBody'])['content']),
          ...statuses.map((st) => obj(c.deref(obj(op['responses'])[st])['content'])),
        ];
        for (const content of media) {
          for (const [type, m] of Object.entries(content)) {
            const schema = obj(m)['schema'];
            if (schema !== undefined) c.validator(schema);
            for (const [name, ex] of Object.entries(obj(obj(m)['examples']))) {
              examples++;
              c.expectValid(schema, obj(ex)['value'], `${where} ${type} example ${name}`);
            }
          }
        }
      }
    }
  }
  return examples;
}

/** Whether a request validator accepts `body`: it refuses with a DomainError (any other error is rethrown). */
export function validatorAccepts(parse: (body: unknown) => unknown, body: unknown): boolean {
  try {
    parse(body);
    return true;
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    return false;
  }
}
