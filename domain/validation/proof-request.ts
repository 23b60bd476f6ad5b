import { z } from 'zod';
import { idRegex } from '../ids.js';
import { DomainError } from '../errors.js';
import { decimalToAtomic } from '../money.js';
import { MAX_QUOTED_USDC } from '../proof/matching-delta.js';
import { AMOUNT_MAX_SENTENCE as MAX_SENTENCE, POSITIVE_AMOUNT, trimmedLength } from './patterns.js';

/**
 * The body of `POST /proof/v1/requests` (spec section 2), validated strictly. Rules that need the merchant
 * (the wallet must be one of its verified wallets, `expected_payer` must be an address of that wallet's
 * network, the plan's longest `valid_hours`) are checked by the service with `checkAgainstWallet`.
 */
export const DEFAULT_VALID_HOURS = 72;
export const MAX_VALID_HOURS = 720;

const id = (prefix: string) => z.string().regex(idRegex(prefix), `must be a ${prefix}_ id`);

/** Which rule of `POSITIVE_AMOUNT` an amount breaks: the grammar, zero, or the maximum. */
function amountMessage(input: unknown): string {
  const atomic = typeof input === 'string' ? decimalToAtomic(input) : null;
  if (atomic === null)
    return 'amount_usdc must be a decimal string: 1 to 17 integer digits, optionally a dot and 1 to 6 fraction digits';
  if (atomic === 0n) return 'amount_usdc must be greater than zero';
  return `amount_usdc must be at most ${MAX_QUOTED_USDC} USDC`;
}

/** An optional text of at most `max` characters after trimming; `null` is accepted as absent. */
const optionalTrimmed = (max: number, message: string | undefined, description: string) =>
  z
    .string()
    .regex(trimmedLength(0, max), message ?? `Too big: expected string to have <=${max} characters`)
    .transform((s) => s.trim())
    .nullable()
    .optional()
    .meta({ description: `${description} \`null\` is the same as leaving it out.` });

export const requestCreateSchema = z
  .strictObject({
    wallet_id: id('wal').meta({
      description:
        'One of the verified wallets of `GET /proof/v1/me`; the request is paid to its address on its network. Any other well-formed id is 404.',
    }),
    amount_usdc: z
      .string()
      .max(24)
      .regex(POSITIVE_AMOUNT, { error: (iss) => amountMessage(iss.input) })
      .meta({
        description: `Requested amount in USDC, greater than zero and ${MAX_SENTENCE}: 1 to 17 integer digits, optionally a dot and 1 to 6 fraction digits (no sign, exponent or separators).`,
      }),
    description: z
      .string()
      .regex(trimmedLength(3, 350), 'description must be 3 to 350 characters')
      .transform((s) => s.trim())
      .meta({ description: 'What the payment is for, shown on the payment page; 3 to 350 characters after trimming.' }),
    // null is accepted as absent: responses show these fields as null, so a client may send back what it read.
    customer_label: optionalTrimmed(
      120,
      'customer_label has at most 120 characters',
      'Optional label of the payer shown on the payment page; at most 120 characters after trimming.',
    ),
    expected_payer: optionalTrimmed(
      64,
      undefined,
      'Optional address of the wallet expected to pay, checked by the server against the network of `wallet_id` (422 naming `expected_payer`): on EVM networks `0x` and 40 hex ' +
        'characters, all lower case, all upper case or with a valid EIP-55 checksum (mixed case that does not match is refused), never the zero address; on Solana a base58 ' +
        'public key of 32 bytes (the owner, not a token account), never the all-zero key. A payment from another address goes to `REVIEW`.',
    ),
    valid_hours: z
      .number()
      .int('valid_hours must be a whole number')
      .min(1, 'valid_hours must be 1 to 720')
      .max(MAX_VALID_HOURS, 'valid_hours must be 1 to 720')
      .optional()
      .meta({ description: 'Hours the request stays open (default 72); the plan may allow less (a trial: 72).' }),
  })
  .meta({
    description:
      'Body of `POST /proof/v1/requests`, validated strictly: an unknown field (e.g. a custom receiver) is a 422.',
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
