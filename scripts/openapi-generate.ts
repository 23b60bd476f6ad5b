import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientTypesText } from './openapi-client-types.js';
import { CLIENT_TYPES, documentText, GENERATED_DOCUMENTS } from '../api/openapi-documents.js';

/**
 * `npm run openapi:generate`: writes every generated OpenAPI document (api/openapi-documents.ts) from the zod
 * schemas, then the dashboard's client types from the documents it talks to (openapi-typescript). `npm run
 * openapi:check` (`--check`) writes nothing and fails when a committed file is stale.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');
let stale = 0;

function settle(file: string, text: string, source: string): void {
  const path = join(root, file);
  let committed: string | null = null;
  try {
    committed = readFileSync(path, 'utf8');
  } catch {
    committed = null;
  }
  if (committed === text) {
    console.log(`[paycore] ${file}: up to date`);
  } else if (check) {
    stale++;
    console.error(
      `[paycore] ${file} differs from what ${source} generate: run \`npm run openapi:generate\` and commit it`,
    );
  } else {
    writeFileSync(path, text);
    console.log(`[paycore] ${file}: written`);
  }
}

const documents = new Map<string, string>();
for (const { file, build } of GENERATED_DOCUMENTS) {
  const text = documentText(build());
  documents.set(file, text);
  settle(file, text, 'the zod schemas');
}
for (const { document, file } of CLIENT_TYPES) {
  settle(file, await clientTypesText(document, documents.get(document)!), 'the OpenAPI documents');
}
if (stale) process.exit(1);
