import { invitationAcceptSchema } from '../../domain/validation/company.js';
import {
  companySessionSchema,
  companySignedInSchema,
  joinedSchema,
} from '../../domain/validation/company-responses.js';
import { signInSchema } from '../../domain/validation/integrations.js';
import { header, htmlContent } from '../http/openapi-kit.js';
import { signInCookieSchema } from '../http/browser-session.js';
import { COMPANY_SESSION_COOKIE } from './guards.js';
import { COMPANY_OPENAPI_PATH, COMPANY_DOCS_PATH, openApiDocumentSchema, companyRoutes } from './openapi.contract.js';
import { EX, memberEx, companyEx, sessionEx } from './openapi.examples.js';

/** Sign-in, the session and accepting an invitation. */
export const SESSION_ROUTES = companyRoutes('Session', [
  {
    method: 'post',
    path: '/api/company/session',
    operationId: 'signIn',
    summary: 'Sign in',
    security: 'public',
    description: `Sets the session cookie \`${COMPANY_SESSION_COOKIE}\` (HttpOnly, Secure, SameSite=Strict, Path=/) and returns the CSRF token every mutation must send as \`X-CSRF-Token\`. A wrong address and a wrong password get the same 401. Attempts per address are limited (429 with Retry-After). Needs an allowed \`Origin\`.`,
    body: {
      schema: signInSchema,
      examples: { signIn: { email: 'ops@example.com', password: 'correct horse battery staple' } },
    },
    response: {
      status: '201',
      description: 'Signed in.',
      schema: companySignedInSchema,
      examples: { signedIn: { ...sessionEx, expires_at: EX.at } },
      headers: {
        'Set-Cookie': header('The session cookie.', signInCookieSchema(COMPANY_SESSION_COOKIE), true),
      },
    },
    errors: { public: true },
  },
  {
    method: 'get',
    path: '/api/company/session',
    operationId: 'getSession',
    summary: 'Who is signed in',
    description: 'The member, the company and the CSRF token again (for a reloaded page).',
    response: { description: 'The session.', schema: companySessionSchema, examples: { session: sessionEx } },
  },
  {
    method: 'delete',
    path: '/api/company/session',
    operationId: 'signOut',
    summary: 'Sign out',
    description: 'Ends the session and clears the cookie.',
    response: { status: '204', description: 'Signed out.' },
  },
  {
    method: 'post',
    path: '/api/company/invitations/accept',
    operationId: 'acceptInvitation',
    tag: 'Members',
    summary: 'Accept an invitation',
    security: 'public',
    description:
      "Joins the company with the role of the invitation and sets the account's password (12 to 256 characters once NFKC-normalised); then sign in. Once per invitation, before it expires; an unknown, used, revoked or expired token is one answer (404 `invitation_invalid`).",
    body: {
      schema: invitationAcceptSchema,
      examples: {
        accept: { token: 'Zm9yLWV4YW1wbGUtb25seS1ub3QtYS1yZWFsLXRva2V', password: 'a long and personal passphrase' },
      },
    },
    response: {
      status: '201',
      description: 'Joined.',
      schema: joinedSchema,
      examples: { joined: { member: { ...memberEx, role: 'member' }, company: companyEx } },
    },
    errors: {
      public: true,
      notFound: ['invitation_invalid'],
      codes409: ['limit_reached', 'account_in_other_company'],
    },
  },
]);

/** This document and its page (public). */
export const DOCUMENTATION_ROUTES = companyRoutes('Documentation', [
  {
    method: 'get',
    path: COMPANY_OPENAPI_PATH,
    operationId: 'getOpenApi',
    summary: 'This document',
    security: 'public',
    response: { description: 'The OpenAPI 3.1 document.', schema: openApiDocumentSchema },
    errors: { none: true },
  },
  {
    method: 'get',
    path: COMPANY_DOCS_PATH,
    operationId: 'getDocs',
    summary: 'This guide (HTML)',
    security: 'public',
    response: { description: 'The page.', content: htmlContent() },
    errors: { none: true },
  },
]);
