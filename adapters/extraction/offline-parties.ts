/**
 * Parties' names the offline engine reads without a label (issue 29), from the blocks of the pages
 * (domain/extraction-parties.ts): the seller's legal footer (its name over its registered office, its registration or
 * its VAT id), the seller's letterhead (the first block at the top of page 1 over an address), the addressee's block
 * (the next address block at the top of page 1), and the name under a party's label alone on its line ("Service
 * Provider:" over a note in brackets). A reading the layout alone suggests, or that another reading contradicts, comes
 * with a confidence under 0.5 and the reason, for a reviewer.
 */
import type { ExtractedValue, PageText } from '../../domain/extraction.js';
import {
  addresseeUnderSender,
  blockAt,
  blockName,
  carriesParty,
  legalBlocks as legalBlocksOf,
  nameContains,
  ownName,
  pageBlocks,
  sameName,
  senderLineOf,
  type BlockName,
} from '../../domain/extraction-parties.js';
import { evidenceOf } from './offline-layout.js';

/** A name read from a block, with the reason to review it (null: none). */
export interface PartyReading {
  value: ExtractedValue;
  reason: string | null;
}

/** The engine's confidence in a name it is unsure of (under the checks' 0.5: a review flag). */
const UNSURE = 0.45;

const reading = (page: PageText, name: BlockName, confidence: number, reason: string | null): PartyReading => ({
  value: {
    value: name.text.trim().replace(/\s+/gu, ' '),
    evidence: evidenceOf(page, name.start, name.start + name.text.trimEnd().length),
    confidence,
  },
  reason,
});

/** The seller's legal blocks (domain/extraction-parties.ts), each with why it is the seller's, for a reviewer. */
function legalBlocks(pages: readonly PageText[], sellerVat: string | null) {
  return legalBlocksOf(pages, sellerVat).map((l) => ({
    ...l,
    why: l.ownVat ? `the seller's VAT id ${sellerVat}` : "the company's registration and registered office",
  }));
}

/** Page 1's blocks at its top, or in its upper half, that carry an address (or a VAT id, IBAN, registration) under an unlabelled name. */
function addressBlocks(pages: readonly PageText[]) {
  const page = pages.find((p) => p.page === 1);
  if (!page) return [];
  const half = page.height > 0 ? page.height / 2 : Infinity;
  return pageBlocks(page).flatMap((b) => {
    const name = ownName(b);
    const upper = b.top || (b.segments[0]!.y < half && page.height > 0);
    return name && upper && carriesParty(b) ? [{ page, block: b, name }] : [];
  });
}

/**
 * The seller's name from the blocks: the legal footer's name, confirmed by the letterhead when both are printed
 * (contradicted: flagged); else the first address block at the top of page 1 when another address block (the
 * addressee's) follows it (alone: flagged, it may be the addressee's window); else null.
 */
export function sellerFromBlocks(pages: readonly PageText[], sellerVat: string | null): PartyReading | null {
  const legal = legalBlocks(pages, sellerVat)[0];
  const top = addressBlocks(pages).filter((a) => !legal || a.block !== legal.block);
  const head = top.find((a) => a.block.top);
  if (legal) {
    if (!head || nameContains(head.name.text, legal.name.text))
      return reading(legal.page, legal.name, head ? 0.7 : 0.6, null);
    return reading(
      legal.page,
      legal.name,
      UNSURE,
      `read from the block with ${legal.why} on page ${legal.page.page}; the address block at the top of page 1 names "${head.name.text.trim()}", which may be the seller's letterhead or the addressee's`,
    );
  }
  const sender = senderLine(pages);
  if (sender) return sender;
  if (!head) return null;
  if (top.length > 1) return reading(head.page, head.name, 0.6, null);
  return reading(
    head.page,
    head.name,
    UNSURE,
    "no label names the seller; read as the only address block at the top of page 1, which may be the addressee's rather than the seller's letterhead",
  );
}

/** The buyer's name from the blocks: the first address block in the upper half of page 1 that is not the seller's; flagged. */
export function buyerFromBlocks(
  pages: readonly PageText[],
  seller: string | null,
  sellerVat: string | null,
): PartyReading | null {
  const page1 = pages.find((p) => p.page === 1);
  const addressee = page1 ? addresseeUnderSender(page1) : null;
  if (addressee && (seller === null || !sameName(addressee.text, seller))) return reading(page1!, addressee, 0.6, null);
  const legal = legalBlocks(pages, sellerVat).map((l) => l.block);
  const cand = addressBlocks(pages).find(
    (a) =>
      !legal.includes(a.block) &&
      (seller === null || !sameName(a.name.text, seller)) &&
      !(seller !== null && nameContains(a.name.text, seller)),
  );
  if (!cand) return null;
  return reading(
    cand.page,
    cand.name,
    UNSURE,
    `no label names the buyer; read as the address block at the top of page 1 that is not the seller's${seller ? ` ("${seller}")` : ''}`,
  );
}

/** The name under a party's label that stands alone at the head of its block ("Service Provider:" / "(note)" / name). */
export function nameUnderLabel(page: PageText, labelStart: number): PartyReading | null {
  const where = blockAt(page, labelStart);
  if (!where) return null;
  const name = blockName(where.block);
  const seg = where.block.segments[where.segment]!;
  if (!name || !name.labelled || name.start <= seg.end) return null;
  return reading(page, name, 0.8, null);
}

function senderLine(pages: readonly PageText[]): PartyReading | null {
  const page = pages.find((p) => p.page === 1);
  const s = page ? senderLineOf(page) : null;
  return s ? reading(s.page, s.name, 0.6, null) : null;
}
