import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES, documentText, GENERATED_DOCUMENTS } from '../../../api/openapi-documents.js';
import { clientTypesText } from '../../../scripts/openapi-client-types.js';
import { newSessionToken } from '../../../adapters/crypto/tokens.js';
import { COMPANY_SESSION_COOKIE } from '../../../api/company/guards.js';
import { sessionCookieHeader, signInCookieSchema } from '../../../api/http/browser-session.js';
import { HEADER_VALUES } from '../../../api/http/openapi-kit.js';
import { SESSION_COOKIE } from '../../../api/integrations/guards.js';

/**
 * The committed OpenAPI documents are what the zod schemas generate (ARCHITECTURE.md, rule 7): a change of a
 * schema, its metadata or an operation table without `npm run openapi:generate` fails here.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('the generated OpenAPI documents', () => {
  for (const { file, build } of GENERATED_DOCUMENTS) {
    it(`${file} is what the schemas generate`, () => {
      const committed = readFileSync(join(root, file), 'utf8');
      const generated = documentText(build());
      if (committed !== generated)
        expect.fail(
          `${file} differs from what the zod schemas generate: run \`npm run openapi:generate\` and commit it`,
        );
      expect(JSON.parse(committed)).toMatchObject({ openapi: '3.1.0' });
    });
  }

  // The dashboard's client types (rule 7): generated from the committed documents, so a changed response shape reaches
  // the dashboard's typecheck.
  for (const { document, file } of CLIENT_TYPES) {
    it(`${file} is what openapi-typescript generates from ${document}`, async () => {
      const committed = readFileSync(join(root, file), 'utf8');
      const generated = await clientTypesText(document, readFileSync(join(root, document), 'utf8'));
      if (committed !== generated)
        expect.fail(`${file} differs from what ${document} generates: run \`npm run openapi:generate\` and commit it`);
      expect(committed).toContain('export interface paths');
    });
  }
});

describe('the response headers of the documents are zod schemas of what the server writes', () => {
  it('a generated request id, and a sign-in cookie as sessionCookieHeader writes it, match their schemas', () => {
    expect(HEADER_VALUES.requestId.safeParse(randomUUID()).success).toBe(true);
    expect(HEADER_VALUES.requestId.safeParse('not a request id').success).toBe(false);
    for (const name of [SESSION_COOKIE, COMPANY_SESSION_COOKIE]) {
      const cookie = signInCookieSchema(name);
      expect(cookie.safeParse(sessionCookieHeader(name, newSessionToken(), 43_200)).success).toBe(true);
      // Sign-out's clearing cookie is not a sign-in's: the schema says which one a 201 of sign-in carries.
      expect(cookie.safeParse(sessionCookieHeader(name, '', 0)).success).toBe(false);
    }
  });

  it('every header of the four documents has a JSON Schema type', () => {
    const untyped: string[] = [];
    for (const { file, build } of GENERATED_DOCUMENTS) {
      const visit = (node: unknown, at: string): void => {
        if (!node || typeof node !== 'object') return;
        const o = node as Record<string, unknown>;
        for (const [name, h] of Object.entries((o['headers'] ?? {}) as Record<string, Record<string, unknown>>)) {
          const schema = h['schema'] as Record<string, unknown> | undefined;
          if (schema && schema['type'] === undefined && schema['$ref'] === undefined)
            untyped.push(`${file} ${at} ${name}`);
        }
        for (const [k, v] of Object.entries(o)) visit(v, `${at}/${k}`);
      };
      visit(build(), '');
    }
    expect(untyped).toEqual([]);
  });
});
