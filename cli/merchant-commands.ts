import { DomainError } from '../domain/errors.js';
import { addressKey, isNetwork } from '../domain/networks.js';
import { entitlementAt, PAID_PLANS, PLAN_PERIOD_DAYS, type PaidPlan } from '../domain/proof/plans.js';
import { parseVoidReason, type VoidOutcome } from '../domain/proof/invoice-lifecycle.js';
import type { Db } from '../db/connection.js';
import { findInvoiceMerchant } from '../db/repositories/invoice-lifecycle.repo.js';
import { voidInvoiceThroughWorkflow, type WorkflowGateway } from '../services/workflows/workflow-client.js';
import { listApiKeys } from '../db/repositories/api-keys.repo.js';
import { getMerchant, listHeldWallets, listVerifiedWallets } from '../db/repositories/merchants.repo.js';
import {
  addVerifiedWallet,
  openMerchant,
  releaseWallet,
  setMerchantPlan,
  setMerchantStatus,
} from '../services/proof/account.js';
import { required } from './admin-commands.js';

/** Operator commands for `/proof` merchants (until the dashboard and plan checkout exist). */
type Flags = Record<string, string | undefined>;

const merchantId = (flags: Flags) => required(flags['merchant'], '--merchant');

export async function merchantsCreate(db: Db, flags: Flags, now: Date) {
  const trial = flags['trial'] !== 'false';
  return { merchant: await openMerchant(db, { name: required(flags['name'], '--name'), trial }, now) };
}

export async function merchantsShow(db: Db, flags: Flags, now: Date) {
  const merchant = await getMerchant(db, merchantId(flags));
  if (!merchant) throw new DomainError('not_found', 'no such merchant');
  const ent = entitlementAt(merchant, now);
  return {
    merchant,
    entitlement: ent.kind === 'none' ? { kind: 'none' } : { kind: ent.kind, ends_at: ent.endsAt, limits: ent.limits },
    wallets: await listVerifiedWallets(db, merchant.id),
    keys: await listApiKeys(db, 'proof', merchant.id),
  };
}

/** Records a paid plan period: `--days` (default 30) from now. */
export async function merchantsPlan(db: Db, flags: Flags, now: Date) {
  const plan = flags['plan'];
  if (!PAID_PLANS.includes(plan as PaidPlan))
    throw new DomainError('validation_failed', `--plan must be one of ${PAID_PLANS.join(', ')}`);
  const days = flags['days'] === undefined ? PLAN_PERIOD_DAYS : Number(flags['days']);
  if (!Number.isInteger(days) || days < 0 || days > 3660)
    throw new DomainError('validation_failed', '--days must be a whole number of days (0 ends the plan now)');
  return {
    merchant: await setMerchantPlan(
      db,
      merchantId(flags),
      plan as PaidPlan,
      new Date(now.getTime() + days * 86_400_000),
    ),
  };
}

export async function merchantsSuspend(db: Db, flags: Flags, status: 'active' | 'suspended') {
  return { merchant: await setMerchantStatus(db, merchantId(flags), status) };
}

/**
 * `wallets:duplicates`: the wallets on hold because several verified wallets shared one receiving address (the report
 * of migration 20261127100200), grouped by address, each with its account, its open requests and the transfers to the
 * address that paid nothing meanwhile. docs/operations.md "Receiving addresses held as duplicates" says what to do.
 */
export async function walletsDuplicates(db: Db) {
  const held = await listHeldWallets(db);
  const groups = new Map<
    string,
    { network: string; address: string; wallets: unknown[]; unmatched_transfers: number }
  >();
  for (const w of held) {
    const key = `${w.network}:${addressKey(w.network, w.address)}`;
    const group = groups.get(key) ?? {
      network: w.network,
      address: w.address,
      wallets: [],
      unmatched_transfers: w.unmatchedTransfers,
    };
    group.unmatched_transfers = Math.max(group.unmatched_transfers, w.unmatchedTransfers);
    group.wallets.push({
      wallet: w.id,
      merchant: w.merchantId,
      address: w.address,
      reason: w.heldReason,
      held_at: w.heldAt,
      verified_at: w.verifiedAt,
      created_at: w.createdAt,
      open_requests: w.openRequests,
    });
    groups.set(key, group);
  }
  return { addresses: [...groups.values()] };
}

/** `wallets:release --wallet <id>`: the wallet receives again; refused while another wallet receives at its address. */
export async function walletsRelease(db: Db, flags: Flags) {
  return { wallet: await releaseWallet(db, required(flags['wallet'], '--wallet')) };
}

/** Adds a receiving wallet the operator verified the merchant controls (refused when another account receives at the address). */
export async function walletsAdd(db: Db, flags: Flags, now: Date) {
  const network = required(flags['network'], '--network');
  if (!isNetwork(network))
    throw new DomainError(
      'validation_failed',
      '--network must be base, polygon, arbitrum, optimism, ethereum, avalanche or solana',
    );
  const label = flags['label'];
  return {
    wallet: await addVerifiedWallet(
      db,
      {
        merchantId: merchantId(flags),
        network,
        address: required(flags['address'], '--address'),
        ...(label ? { label } : {}),
      },
      now,
    ),
  };
}

/**
 * `invoices:void <invoice id> [--reason <text>]`: voids an issued invoice through its `invoice:<id>` workflow
 * (the `void` update; the workflow is started if it is missing) and answers the outcome: `voided` (its request
 * is VOIDED, `invoice.voided` is emitted, quota is not restored), `already_voided` (nothing changes, no event) or
 * `already_paid` (a paid invoice cannot be voided). The reason is stored with the invoice, never emitted.
 */
export async function invoicesVoid(db: Db, gw: WorkflowGateway, flags: Flags): Promise<VoidOutcome> {
  const invoiceId = required(flags['invoice'], 'the invoice id (invoices:void <invoice id>)');
  const reason = parseVoidReason(flags['reason']);
  if (!reason.ok) throw new DomainError('validation_failed', `--reason: ${reason.message}`);
  // An unknown id starts no workflow.
  if (!(await findInvoiceMerchant(db, invoiceId))) throw new DomainError('not_found', `no such invoice: ${invoiceId}`);
  return voidInvoiceThroughWorkflow(gw, { invoiceId, reason: reason.reason });
}
