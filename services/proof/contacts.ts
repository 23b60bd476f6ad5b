import { DomainError } from '../../domain/errors.js';
import type { ContactCreate } from '../../domain/validation/proof-invoice.js';
import type { Db } from '../../db/connection.js';
import { getContact, insertContact, type Contact } from '../../db/repositories/contacts.repo.js';

/** A merchant's contacts (the buyers its invoices are made out to), for /proof/v1 and the merchant's session. */

/** Records a contact of the merchant, in the caller's (idempotent) transaction. */
export function createContact(trx: Db, merchantId: string, body: ContactCreate, now: Date): Promise<Contact> {
  return insertContact(
    trx,
    {
      merchantId,
      legalName: body.legal_name,
      email: body.email,
      address: body.address ?? null,
      reference: body.reference ?? null,
    },
    now,
  );
}

/** The contact `id` of this merchant; `not_found` otherwise (a foreign id included). */
export async function getMerchantContact(db: Db, merchantId: string, id: string): Promise<Contact> {
  const contact = await getContact(db, merchantId, id);
  if (!contact) throw new DomainError('not_found', 'Contact not found');
  return contact;
}
