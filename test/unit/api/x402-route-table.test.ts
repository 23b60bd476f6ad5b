import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  declareDiscoveryExtension,
  validateDiscoveryExtension,
  validateDiscoveryExtensionSpec,
  type DiscoveryExtension,
} from '@x402/extensions/bazaar';
import { PAID_ROUTES } from '../../../services/x402/route-table.js';
import { parseMatchQuery, parseTxQuery } from '../../../domain/validation/x402-query.js';

/**
 * Every paid route carries a real query example and a real answer example (bazaar discovery): a catalog that
 * validates the 402 challenge's `info` against its `schema` must accept them, and a client that copies the
 * query example must get past the route's own validation.
 */
const routes = Object.values(PAID_ROUTES);
const ajv = () => {
  const a = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats.default(a);
  return a;
};

describe('paid route examples', () => {
  it.each(routes.map((r) => [r.operation, r] as const))(
    '%s: the output example validates against the output schema',
    (_op, route) => {
      expect(route.outputExample).toBeDefined();
      const validate = ajv().compile(route.outputSchema);
      expect(validate(route.outputExample), JSON.stringify(validate.errors)).toBe(true);
    },
  );

  it.each(routes.map((r) => [r.operation, r] as const))(
    '%s: the input example validates against the input schema and the query parser',
    (_op, route) => {
      expect(Object.keys(route.inputExample ?? {})).not.toHaveLength(0);
      const validate = ajv().compile(route.inputSchema);
      expect(validate(route.inputExample), JSON.stringify(validate.errors)).toBe(true);
      const parsed =
        route.operation === 'match' ? parseMatchQuery(route.inputExample!) : parseTxQuery(route.inputExample!);
      expect(parsed).toMatchObject({ ok: true });
    },
  );

  it('a Match example matches: the recipient and amount of its query are its one matching transfer', () => {
    const { inputExample, outputExample } = PAID_ROUTES.match;
    const answer = outputExample as {
      matched: boolean;
      recipient: string;
      amount_usdc: string;
      matching_transfers: Array<{ to: string }>;
    };
    expect(answer).toMatchObject({
      matched: true,
      status: 'confirmed',
      recipient: inputExample!['recipient'],
      amount_usdc: inputExample!['amount'],
      tx_hash: inputExample!['tx_hash'],
    });
    expect(answer.matching_transfers).toHaveLength(1);
  });

  it.each(routes.map((r) => [r.operation, r] as const))(
    '%s: the bazaar declaration built from the table passes the official validators',
    (_op, route) => {
      const { bazaar } = declareDiscoveryExtension({
        input: route.inputExample!,
        inputSchema: route.inputSchema,
        output: { example: route.outputExample, schema: route.outputSchema },
      }) as { bazaar: DiscoveryExtension };
      (bazaar.info.input as { method?: string }).method = route.method; // as the server's enrichDeclaration sets it
      expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
      expect(validateDiscoveryExtensionSpec(bazaar as unknown as Record<string, unknown>)).toEqual({ valid: true });
    },
  );
});
