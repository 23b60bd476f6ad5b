import type { Obj } from './http/openapi-kit.js';
import { integrationsOpenApi } from './integrations/openapi.document.js';
import { proofOpenApi } from './proof/openapi.document.js';
import { processingOpenApi } from './processing/openapi.document.js';
import { companyOpenApi } from './company/openapi.document.js';

/**
 * The OpenAPI documents generated from the interfaces' zod schemas and committed (path relative to the repository).
 * `npm run openapi:generate` writes them; `npm run openapi:check` and test/unit/api/openapi-generated.test.ts fail
 * when a committed one differs from what the schemas generate. Each interface also serves its document, built by
 * the same function, so what is served is what is committed. A new generated document is one line here.
 */
export const GENERATED_DOCUMENTS: ReadonlyArray<{ file: string; build: () => Obj }> = [
  // Release 1.2.0 of the /v1 spec, every /v1 route (POST /v1/webhooks, a company-session route, included).
  { file: 'docs/openapi/v1.json', build: processingOpenApi },
  // The company session (/api/company): the dashboard's client is generated from it.
  { file: 'docs/openapi/company.json', build: companyOpenApi },
  { file: 'docs/openapi/proof-v1.json', build: proofOpenApi },
  // Its /proof objects (payment requests, contacts, invoices, events) come from the /proof zod schemas; its own
  // shapes (session, keys, webhooks, wallets, plan) are still written beside its handlers, to move like /proof's.
  { file: 'docs/openapi/integrations.json', build: integrationsOpenApi },
];

/** The bytes of a generated document as committed: JSON, two-space indented, one final newline. */
export const documentText = (document: Obj): string => `${JSON.stringify(document, null, 2)}\n`;
