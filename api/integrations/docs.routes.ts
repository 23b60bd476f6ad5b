import type Router from '@koa/router';
import type { AppState } from '../http/context.js';
import { statusOf } from '../http/errors.js';
import { htmlPage, md, mountDocumentRoutes, renderEndpoints, type Obj } from '../http/openapi-kit.js';
import { INTEGRATIONS_DOCS_PATH, INTEGRATIONS_ERRORS, INTEGRATIONS_OPENAPI_PATH, integrationsOpenApi } from './openapi.document.js';

/**
 * `GET /api/integrations/openapi.json` and `GET /api/integrations/docs`: public, mounted on the `/api/integrations`
 * router before its guards (they answer without calling `next`). The document route is named like every other, so the
 * schemathesis test finds it.
 */
export function mountIntegrationsDocs(router: Router<AppState>): void {
  const document = integrationsOpenApi();
  const prefix = '/api/integrations';
  mountDocumentRoutes(router, { documentPath: INTEGRATIONS_OPENAPI_PATH.slice(prefix.length), pagePath: INTEGRATIONS_DOCS_PATH.slice(prefix.length), document, page: page(document) });
}

function page(document: Obj): string {
  const errors = INTEGRATIONS_ERRORS.map((e) => `<tr><td>${statusOf('integrations', e.code)}</td><td><code>${e.code}</code></td><td>${md(e.when)}</td></tr>`).join('');
  const nav = [['#session', 'Session'], ['#endpoints', 'Endpoints'], ['#errors', 'Errors'], [INTEGRATIONS_OPENAPI_PATH, 'OpenAPI']] as const;
  return htmlPage('Merchant dashboard session: documentation', nav, `<h1>Merchant dashboard session</h1>
<p class="muted">Machine-readable: <a href="${INTEGRATIONS_OPENAPI_PATH}"><code>${INTEGRATIONS_OPENAPI_PATH}</code></a> (OpenAPI 3.1).</p>
<h2 id="session">Session</h2>
<p>${md(String((document['info'] as Obj)['description']))}</p>
<h2 id="endpoints">Endpoints</h2>
${renderEndpoints(document)}
<h2 id="errors">Errors</h2>
<table><tr><th>Status</th><th>Code</th><th>When</th></tr>${errors}</table>`);
}
