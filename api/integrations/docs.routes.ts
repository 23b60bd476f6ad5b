import type Router from '@koa/router';
import type { AppState } from '../http/context.js';
import { mountSessionDocs } from '../http/session-document.js';
import {
  INTEGRATIONS_DOCS_PATH,
  INTEGRATIONS_ERRORS,
  INTEGRATIONS_OPENAPI_PATH,
  integrationsOpenApi,
} from './openapi.document.js';

/**
 * `GET /api/integrations/openapi.json` and `GET /api/integrations/docs`: public, mounted on the `/api/integrations`
 * router before its guards (they answer without calling `next`). The document route is named like every other, so the
 * schemathesis test finds it.
 */
export function mountIntegrationsDocs(router: Router<AppState>): void {
  mountSessionDocs(router, {
    iface: 'integrations',
    prefix: '/api/integrations',
    documentPath: INTEGRATIONS_OPENAPI_PATH,
    docsPath: INTEGRATIONS_DOCS_PATH,
    title: 'Merchant dashboard session',
    document: integrationsOpenApi(),
    errors: INTEGRATIONS_ERRORS,
  });
}
