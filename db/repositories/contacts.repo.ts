import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';
import { merchantPageById } from './paging.js';

export interface Contact {
  id: string;
  merchantId: string;
  legalName: string;
  email: string;
  address: string | null;
  reference: string | null;
  createdAt: Date;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const toContact = (r: any): Contact => ({
  id: r.id,
  merchantId: r.merchant_id,
  legalName: r.legal_name,
  email: r.email,
  address: r.address,
  reference: r.reference,
  createdAt: r.created_at,
});
/* eslint-enable @typescript-eslint/no-explicit-any */

export async function insertContact(
  trx: Db,
  input: { merchantId: string; legalName: string; email: string; address: string | null; reference: string | null },
  now: Date,
): Promise<Contact> {
  const [row] = await trx('contacts')
    .insert({
      id: newId('con'),
      merchant_id: input.merchantId,
      legal_name: input.legalName,
      email: input.email,
      address: input.address,
      reference: input.reference,
      created_at: now,
    })
    .returning('*');
  return toContact(row);
}

export async function getContact(db: Db, merchantId: string, id: string): Promise<Contact | null> {
  const row = await db('contacts').where({ id, merchant_id: merchantId }).first();
  return row ? toContact(row) : null;
}

/** A page of the merchant's contacts ordered by id, descending, strictly before `before`. */
export async function listContacts(
  db: Db,
  merchantId: string,
  limit: number,
  before: string | null,
): Promise<Contact[]> {
  return merchantPageById(db, 'contacts', merchantId, limit, before, toContact);
}
