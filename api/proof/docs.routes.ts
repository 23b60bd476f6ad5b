import type Router from '@koa/router';
import type { AppState } from '../http/context.js';
import { mountDocumentRoutes } from '../http/openapi-kit.js';
import { developersPage } from './developers.page.js';
import { DEVELOPERS_PATH, OPENAPI_PATH, proofOpenApi, type ProofDocsSettings } from './openapi.document.js';

/**
 * GET /proof/openapi.json and GET /proof/developers: public (no API key, no rate-limit row, no merchant).
 * They are outside `/proof/v1`, so the key, throttle, merchant and body middlewares that the proof router
 * scopes to `/v1` never run for them; the router-wide refusal of keys in URLs still applies. The document is
 * generated from the zod schemas, the same on every server (it is committed as docs/openapi/proof-v1.json); the
 * developers page adds this server's configured limits. Both are built once, at mount.
 */
export function mountProofDocs(router: Router<AppState>, settings: ProofDocsSettings): void {
  const document = proofOpenApi();
  mountDocumentRoutes(router, {
    documentPath: OPENAPI_PATH.slice('/proof'.length),
    pagePath: DEVELOPERS_PATH.slice('/proof'.length),
    document,
    page: developersPage(document, settings),
  });
}
