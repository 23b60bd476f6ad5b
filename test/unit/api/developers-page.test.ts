import { describe, expect, it } from 'vitest';
import { developersPage } from '../../../api/proof/developers.page.js';
import { proofOpenApi } from '../../../api/proof/openapi.document.js';
import { INVOICE_STATUSES, REQUEST_STATUSES } from '../../../domain/proof/statuses.js';

const settings = { rateLimits: { perKeyPerMinute: 60, perIpPerMinute: 120, proPerHour: 300 }, bodyLimitJson: '1mb' };
const document = proofOpenApi();
const html = developersPage(document, settings);

/** The text of one section of the page (from its heading to the next h2). */
const section = (id: string): string => {
  const start = html.indexOf(`id="${id}"`);
  expect(start, id).toBeGreaterThan(-1);
  const end = html.indexOf('<h2', start);
  return html.slice(start, end === -1 ? undefined : end);
};

describe('/proof/developers', () => {
  it('lists every payment-request and invoice status the API answers, from the same constants as the OpenAPI enums', () => {
    const schemas = (
      document['components'] as {
        schemas: Record<string, { enum?: string[]; properties?: Record<string, { enum?: string[] }> }>;
      }
    ).schemas;
    expect(schemas['RequestStatus']!.enum).toEqual([...REQUEST_STATUSES]);
    expect(schemas['Invoice']!.properties!['status']!.enum).toEqual([...INVOICE_STATUSES]);
    const requests = section('request-statuses');
    for (const status of REQUEST_STATUSES) expect(requests, status).toContain(`<code>${status}</code>`);
    expect(requests).toContain('VOIDED');
    const invoices = section('invoice-statuses');
    for (const status of INVOICE_STATUSES) expect(invoices, status).toContain(`<code>${status}</code>`);
  });

  it('says how keys and destinations are really managed: the management routes or the operator, not a dashboard that does not exist yet', () => {
    expect(html).not.toMatch(/(in|from) the dashboard/i);
    const auth = section('auth');
    expect(auth).toContain('/api/integrations/keys');
    expect(auth).toContain('X-CSRF-Token');
    expect(auth).toContain('keys:create');
    expect(section('webhooks')).toContain('/api/integrations/webhooks');
    expect(section('webhooks')).toContain('/api/integrations/deliveries/{id}/retry');
  });
});
