import type Router from '@koa/router';
import type { AppState } from '../http/context.js';
import { htmlPage, md, mountDocumentRoutes, renderEndpoints, type Obj } from '../http/openapi-kit.js';
import { COMPANY_DOCS_PATH, COMPANY_ERRORS, COMPANY_OPENAPI_PATH, companyOpenApi } from './openapi.document.js';
import { statusOf } from '../http/errors.js';
import { COMPANY_SESSION_COOKIE } from './guards.js';

/**
 * `GET /api/company/openapi.json` and `GET /api/company/docs`: public, mounted on the `/api/company` router before its
 * guards (they answer without calling `next`). The document route is named like every other, so the schemathesis test
 * finds it.
 */
export function mountCompanyDocs(router: Router<AppState>): void {
  const document = companyOpenApi();
  mountDocumentRoutes(router, { documentPath: COMPANY_OPENAPI_PATH.slice('/api/company'.length), pagePath: COMPANY_DOCS_PATH.slice('/api/company'.length), document, page: page(document) });
}

function page(document: Obj): string {
  const errors = COMPANY_ERRORS.map((e) => `<tr><td>${statusOf('company', e.code)}</td><td><code>${e.code}</code></td><td>${md(e.when)}</td></tr>`).join('');
  const nav = [['#session', 'Session'], ['#endpoints', 'Endpoints'], ['#errors', 'Errors'], [COMPANY_OPENAPI_PATH, 'OpenAPI']] as const;
  return htmlPage('Company session: documentation', nav, `<h1>Company session</h1>
<p class="muted">Machine-readable: <a href="${COMPANY_OPENAPI_PATH}"><code>${COMPANY_OPENAPI_PATH}</code></a> (OpenAPI 3.1).</p>
<h2 id="session">Session</h2>
<p>${md(String((document['info'] as Obj)['description']))}</p>
<p>${md(`The cookie is \`${COMPANY_SESSION_COOKIE}\` (HttpOnly, Secure, SameSite=Strict, Path=/). Billing administrators manage API keys, members, invitations and webhooks; every member may read the session and the company's jobs.`)}</p>
<h2 id="endpoints">Endpoints</h2>
${renderEndpoints(document)}
<h2 id="errors">Errors</h2>
<table><tr><th>Status</th><th>Code</th><th>When</th></tr>${errors}</table>`);
}
