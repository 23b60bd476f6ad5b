import { z } from 'zod';
import { idRegex } from '../ids.js';
import { DomainError } from '../errors.js';
import { decimalToAtomic } from '../money.js';
import { MAX_QUOTED_ATOMIC, MAX_QUOTED_USDC } from '../proof/matching-delta.js';

/**
 * The body of `POST /proof/v1/requests` (spec section 2), validated strictly. Rules that need the merchant
 * (the wallet must be one of its verified wallets, `expected_payer` must be an address of that wallet's
 * network, the plan's longest `valid_hours`) are checked by the service with `checkAgainstWallet`.
 */
export const DEFAULT_VALID_HOURS = 72;
export const MAX_VALID_HOURS = 720;

const id = (prefix: string) => z.string().regex(idRegex(prefix), `must be a ${prefix}_ id`);

export const requestCreateSchema = z.strictObject({
  wallet_id: id('wal'),
  amount_usdc: z
    .string()
    .max(24)
    .refine(
      (v) => decimalToAtomic(v) !== null,
      'amount_usdc must be a decimal string: 1 to 17 integer digits, optionally a dot and 1 to 6 fraction digits',
    )
    .refine((v) => decimalToAtomic(v) !== 0n, 'amount_usdc must be greater than zero')
    .refine(
      (v) => (decimalToAtomic(v) ?? 0n) <= MAX_QUOTED_ATOMIC,
      `amount_usdc must be at most ${MAX_QUOTED_USDC} USDC`,
    ),
  description: z
    .string()
    .trim()
    .min(3, 'description must be 3 to 350 characters')
    .max(350, 'description must be 3 to 350 characters'),
  // null is accepted as absent: responses show these fields as null, so a client may send back what it read.
  customer_label: z.string().trim().max(120, 'customer_label has at most 120 characters').nullable().optional(),
  expected_payer: z.string().trim().max(64).nullable().optional(),
  valid_hours: z
    .number()
    .int('valid_hours must be a whole number')
    .min(1, 'valid_hours must be 1 to 720')
    .max(MAX_VALID_HOURS, 'valid_hours must be 1 to 720')
    .optional(),
});

export interface RequestCreate {
  walletId: string;
  quotedAtomic: bigint;
  description: string;
  customerLabel: string | null;
  expectedPayer: string | null;
  validHours: number;
}

export interface FieldIssue {
  path: string;
  message: string;
}

export const zodIssues = (e: z.ZodError, prefix: string[] = []): FieldIssue[] =>
  e.issues.map((i) => ({ path: [...prefix, ...i.path.map(String)].join('.') || '(body)', message: i.message }));

export function invalidBody(issues: FieldIssue[]): never {
  throw new DomainError(
    'validation_failed',
    `Invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    { issues },
  );
}

export function parseRequestCreate(body: unknown): RequestCreate {
  const parsed = requestCreateSchema.safeParse(body);
  if (!parsed.success) invalidBody(zodIssues(parsed.error));
  const b = parsed.data;
  return {
    walletId: b.wallet_id,
    quotedAtomic: decimalToAtomic(b.amount_usdc)!,
    description: b.description,
    customerLabel: b.customer_label || null,
    expectedPayer: b.expected_payer || null,
    validHours: b.valid_hours ?? DEFAULT_VALID_HOURS,
  };
}
