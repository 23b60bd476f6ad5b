import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES, documentText, GENERATED_DOCUMENTS } from '../../../api/openapi-documents.js';
import { clientTypesText } from '../../../scripts/openapi-client-types.js';

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
