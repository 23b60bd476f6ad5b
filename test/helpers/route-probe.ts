import http from 'node:http';
import { expect } from 'vitest';
import type Koa from 'koa';
import { routesOf, type RouteInfo } from '../../api/http/router.js';
import type { InterfaceName } from '../../api/http/context.js';
import { createCompany, issueCompanyKey } from '../../services/company/memberships.js';
import { createMerchant } from '../../db/repositories/merchants.repo.js';
import { addVerifiedWallet, issueMerchantKey } from '../../services/proof/account.js';
import type { Db } from '../../db/connection.js';
import { createCompanyAdmin, createDashboardUser, DashboardClient } from './dashboard.js';
import { newIdem, randomAddress } from './proof.js';

/**
 * Probing every route of the real app with odd or hostile requests: the routes come from the app itself
 * (routesOf), so a route added later is probed without anyone adding it here.
 */

export interface Credentials {
  v1Key: string;
  proofKey: string;
  dashboard: DashboardClient;
  /** A signed-in billing administrator of a processing company (`/api/company`). */
  company: DashboardClient;
}

/**
 * A company with a read+write key, a merchant with a wallet and a read+write key, a signed-in dashboard user, and a
 * signed-in billing administrator of another company.
 */
export async function seedCredentials(db: Db, baseUrl: string): Promise<Credentials> {
  const now = new Date();
  const { company, owner } = await createCompany(db, {
    name: 'Probe Co',
    ownerEmail: `probe-${newIdem()}@example.com`,
  });
  const v1Key = (
    await issueCompanyKey(
      db,
      { companyId: company.id, memberId: owner.id, name: 'probe', scopes: ['read', 'write'] },
      now,
    )
  ).secret;
  const merchant = await createMerchant(db, { name: 'Probe Shop', trial: true }, now);
  await addVerifiedWallet(db, { merchantId: merchant.id, network: 'base', address: randomAddress('base') }, now);
  const proofKey = (
    await issueMerchantKey(
      db,
      { merchantId: merchant.id, name: 'probe', scopes: ['read', 'write'], expiresAt: null },
      now,
    )
  ).secret;
  const user = await createDashboardUser(db, merchant.id);
  const dashboard = new DashboardClient(baseUrl);
  const signIn = await dashboard.signIn(user.email, user.password);
  expect(signIn.status).toBe(201);
  const admin = await createCompanyAdmin(db, 'Probe Session Co');
  const session = new DashboardClient(baseUrl, '/api/company');
  expect((await session.signIn(admin.email, admin.password, { idem: null })).status).toBe(201);
  return { v1Key, proofKey, dashboard, company: session };
}

/** The headers that authenticate a request on an interface (none on /x402 and the root). */
export function authHeaders(creds: Credentials, iface: InterfaceName, method: string): Record<string, string> {
  if (iface === 'v1') return { Authorization: `Bearer ${creds.v1Key}` };
  if (iface === 'proof') return { Authorization: `Bearer ${creds.proofKey}` };
  if (iface === 'integrations' || iface === 'company') {
    const d = iface === 'company' ? creds.company : creds.dashboard;
    return {
      Cookie: d.cookie!,
      'X-CSRF-Token': d.csrf!,
      ...(method === 'GET' || method === 'HEAD' ? {} : { Origin: d.origin }),
    };
  }
  return {};
}

/** A well-formed id of the kind a path parameter names, that no row has. */
const ABSENT_ID = (prefix: string) => `${prefix}_${'A'.repeat(20)}`;

/** The route's path with every parameter filled: `:id` with an absent id of the route's kind. */
export function concretePath(route: RouteInfo, fill: Partial<Record<string, string>> = {}): string {
  return route.path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    if (fill[name] !== undefined) return fill[name];
    if (name === 'index') return '0';
    if (name === 'operation') return 'pdf-merge';
    const segment = route.path.split('/').slice(-3).join('/');
    const prefix = /uploads/.test(segment)
      ? 'upl'
      : /jobs/.test(segment)
        ? 'job'
        : /batches/.test(segment)
          ? 'bat'
          : /requests|pay/.test(segment)
            ? 'req'
            : /invoices/.test(segment)
              ? 'inv'
              : /contacts/.test(segment)
                ? 'con'
                : /keys/.test(segment)
                  ? 'key'
                  : /webhooks/.test(segment)
                    ? 'whe'
                    : /deliveries/.test(segment)
                      ? 'dlv'
                      : /members/.test(segment)
                        ? 'mem'
                        : /invitations/.test(segment)
                          ? 'cin'
                          : /purchases/.test(segment)
                            ? 'pur'
                            : 'obj';
    return ABSENT_ID(prefix);
  });
}

export interface ProbeResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: Record<string, unknown> | null;
}

/**
 * One raw HTTP request (the path is sent byte for byte, unnormalised, which fetch would not do). A request the
 * server leaves unanswered fails the test after `hangMs`: that is a hang detector, not a speed limit.
 */
export function probe(
  baseUrl: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: Buffer | string; hangMs?: number } = {},
): Promise<ProbeResponse> {
  const url = new URL(baseUrl);
  const body = opts.body === undefined ? undefined : Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(opts.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { ...(body ? { 'Content-Length': String(body.length) } : {}), ...opts.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          let json: Record<string, unknown> | null = null;
          try {
            json = /json/.test(res.headers['content-type'] ?? '')
              ? (JSON.parse(text) as Record<string, unknown>)
              : null;
          } catch {
            json = null;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`${method} ${path} was not answered within ${opts.hangMs ?? 60_000} ms`));
    }, opts.hangMs ?? 60_000);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end(body);
  });
}

/** The error field of an interface's documented body. */
export const errorField = (iface: InterfaceName): 'detail' | 'error' =>
  iface === 'v1' || iface === 'company' ? 'detail' : 'error';

/** The fields of an interface's error body beside its message: the body itself, or (/mcp) the JSON-RPC error's data. */
export function errorFields(res: ProbeResponse, iface: InterfaceName): Record<string, unknown> {
  if (iface === 'mcp') return (res.json?.['error'] as { data?: Record<string, unknown> } | undefined)?.data ?? {};
  return res.json ?? {};
}

/** The message of an interface's documented error body (/mcp: a JSON-RPC error's message). */
export function errorMessage(res: ProbeResponse, iface: InterfaceName): unknown {
  if (iface === 'mcp') return (res.json?.['error'] as { message?: unknown } | undefined)?.message;
  return res.json?.[errorField(iface)];
}

/** Asserts the documented error body of the interface: message, stable code, request id. */
export function expectErrorShape(res: ProbeResponse, iface: InterfaceName, label: string): void {
  expect(res.json, `${label}: JSON error body, got ${res.status} ${res.text.slice(0, 200)}`).not.toBeNull();
  if (iface === 'mcp') {
    // JSON-RPC: {jsonrpc, id: null, error: {code (integer), message, data?}}. The platform's own refusals (before the
    // MCP layer) carry data {code, request_id}; the MCP transport's (a body that is JSON but not JSON-RPC, an Accept
    // without application/json) carry the JSON-RPC code only.
    const error = res.json!['error'] as
      { code?: unknown; message?: unknown; data?: Record<string, unknown> } | undefined;
    expect(res.json!['jsonrpc'], `${label}: jsonrpc`).toBe('2.0');
    expect(Number.isInteger(error?.code), `${label}: error.code`).toBe(true);
    expect(typeof error?.message, `${label}: error.message`).toBe('string');
    if (error?.data !== undefined) {
      expect(typeof error.data['code'], `${label}: error.data.code`).toBe('string');
      expect(error.data['request_id'], `${label}: error.data.request_id`).toBe(res.headers['x-request-id']);
    }
    return;
  }
  expect(typeof res.json![errorField(iface)], `${label}: ${errorField(iface)} field`).toBe('string');
  expect(typeof res.json!['code'], `${label}: code`).toBe('string');
  expect(res.json!['request_id'], `${label}: request_id`).toBe(res.headers['x-request-id']);
}

export function appRoutes(app: Koa): RouteInfo[] {
  const routes = routesOf(app);
  expect(routes.length).toBeGreaterThan(40);
  return routes;
}
