import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import {
  DOMAIN_AUDIT_INPUT_EXAMPLE,
  DOMAIN_AUDIT_INPUT_SCHEMA,
  DOMAIN_AUDIT_OUTPUT_EXAMPLE,
  DOMAIN_AUDIT_OUTPUT_SCHEMA,
  domainAuditReportSchema,
} from '../../../adapters/domain-audit/index.js';
import { parseDnsServer } from '../../../adapters/domain-audit/dns.js';

// The schemas carry no $schema: they must mean the same to a draft-07 validator and to a 2020-12 one (MCP's default).
const validators = [new Ajv({ allErrors: true }), new Ajv2020({ allErrors: true })].map((ajv) => {
  addFormats.default(ajv);
  return { input: ajv.compile(DOMAIN_AUDIT_INPUT_SCHEMA), output: ajv.compile(DOMAIN_AUDIT_OUTPUT_SCHEMA) };
});

describe('domain_dns_tls_audit schemas', () => {
  it('the output example validates against the output JSON Schema (draft-07 and 2020-12) and the zod schema', () => {
    for (const v of validators)
      expect(v.output(DOMAIN_AUDIT_OUTPUT_EXAMPLE), JSON.stringify(v.output.errors)).toBe(true);
    expect(domainAuditReportSchema.parse(DOMAIN_AUDIT_OUTPUT_EXAMPLE)).toEqual(DOMAIN_AUDIT_OUTPUT_EXAMPLE);
    expect(DOMAIN_AUDIT_OUTPUT_SCHEMA).toMatchObject({ type: 'object', additionalProperties: false });
    expect(DOMAIN_AUDIT_OUTPUT_SCHEMA).not.toHaveProperty('$schema');
  });

  it('the output schema holds the notice as a constant true and refuses unknown or missing fields', () => {
    for (const v of validators) {
      expect(v.output({ ...DOMAIN_AUDIT_OUTPUT_EXAMPLE, not_a_vulnerability_scan: false })).toBe(false);
      expect(v.output({ ...DOMAIN_AUDIT_OUTPUT_EXAMPLE, extra: 1 })).toBe(false);
      const { tls: _tls, ...noTls } = DOMAIN_AUDIT_OUTPUT_EXAMPLE;
      expect(v.output(noTls)).toBe(false);
      expect(v.output({ ...DOMAIN_AUDIT_OUTPUT_EXAMPLE, checked_at: 'yesterday' })).toBe(false);
    }
  });

  it('the input schema: one required string property domain, nothing else', () => {
    expect(DOMAIN_AUDIT_INPUT_SCHEMA).toMatchObject({
      type: 'object',
      required: ['domain'],
      additionalProperties: false,
    });
    expect(Object.keys(DOMAIN_AUDIT_INPUT_SCHEMA.properties)).toEqual(['domain']);
    for (const v of validators) {
      expect(v.input(DOMAIN_AUDIT_INPUT_EXAMPLE)).toBe(true);
      expect(v.input({})).toBe(false);
      expect(v.input({ domain: 'example.com', port: 443 })).toBe(false);
      expect(v.input({ domain: 42 })).toBe(false);
      expect(v.input({ domain: '' })).toBe(false);
    }
  });
});

describe('parseDnsServer', () => {
  it.each([
    ['1.1.1.1', { address: '1.1.1.1', port: 53 }],
    ['127.0.0.1:5353', { address: '127.0.0.1', port: 5353 }],
    ['2606:4700:4700::1111', { address: '2606:4700:4700::1111', port: 53 }],
    ['[::1]:5353', { address: '::1', port: 5353 }],
  ])('%s', (raw, expected) => expect(parseDnsServer(raw)).toEqual(expected));

  it.each(['dns.google', 'dns.google:53', '1.1.1.1:0', '1.1.1.1:70000', '[::1]', '', '1.1.1.1:53:53'])(
    'refuses %j',
    (raw) => {
      expect(parseDnsServer(raw)).toBeNull();
    },
  );
});
