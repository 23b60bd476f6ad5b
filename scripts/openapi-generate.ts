import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentText, GENERATED_DOCUMENTS } from '../api/openapi-documents.js';

/**
 * `npm run openapi:generate`: writes every generated OpenAPI document (api/openapi-documents.ts) from the zod
 * schemas. `npm run openapi:check` (`--check`) writes nothing and fails when a committed document is stale.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');
let stale = 0;
for (const { file, build } of GENERATED_DOCUMENTS) {
  const path = join(root, file);
  const text = documentText(build());
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
      `[paycore] ${file} differs from what the zod schemas generate: run \`npm run openapi:generate\` and commit it`,
    );
  } else {
    writeFileSync(path, text);
    console.log(`[paycore] ${file}: written`);
  }
}
if (stale) process.exit(1);
