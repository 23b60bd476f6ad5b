import type Router from '@koa/router';
import type { AppState } from '../http/context.js';
import { mountSessionDocs } from '../http/session-document.js';
import { COMPANY_DOCS_PATH, COMPANY_ERRORS, COMPANY_OPENAPI_PATH, companyOpenApi } from './openapi.document.js';
import { COMPANY_SESSION_COOKIE } from './guards.js';

/**
 * `GET /api/company/openapi.json` and `GET /api/company/docs`: public, mounted on the `/api/company` router before its
 * guards (they answer without calling `next`). The document route is named like every other, so the schemathesis test
 * finds it.
 */
export function mountCompanyDocs(router: Router<AppState>): void {
  mountSessionDocs(router, {
    iface: 'company',
    prefix: '/api/company',
    documentPath: COMPANY_OPENAPI_PATH,
    docsPath: COMPANY_DOCS_PATH,
    title: 'Company session',
    document: companyOpenApi(),
    errors: COMPANY_ERRORS,
    note: `The cookie is \`${COMPANY_SESSION_COOKIE}\` (HttpOnly, Secure, SameSite=Strict, Path=/). Billing administrators manage API keys, members, invitations and webhooks; every member may read the session and the company's jobs.`,
  });
}
