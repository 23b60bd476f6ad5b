import { createHash } from 'node:crypto';
import { parseMatchQuery, parseTxQuery, type MatchQuery, type Parsed, type TxQuery } from '../../domain/validation/x402-query.js';
import { renderEvidencePdf } from '../../adapters/media/pdf/evidence-pdf.js';
import type { EvidenceService } from './evidence.service.js';
import { evidencePdfInput, matchJson, verifyJson } from './responses.js';
import { PAID_ROUTES, type PaidRoute } from './route-table.js';

/** Raw arguments as both transports deliver them: an HTTP query, or an MCP tool's string arguments. */
export type RawArgs = Readonly<Record<string, string | string[] | undefined>>;

/** What a paid operation produced: a JSON document, or a PDF file. */
export type OperationResult =
  | { kind: 'json'; value: Record<string, unknown> }
  | { kind: 'pdf'; pdf: Uint8Array; filename: string; /** SHA-256 of the attached evidence.json */ evidenceSha256: string; /** SHA-256 of the PDF bytes */ sha256: string };

/**
 * One paid operation of the x402 service, whatever transport calls it: the HTTP route (/x402/v1/usdc/...) and
 * the MCP tool are two views of the same entry: the same argument rules, the same fee, the same answer.
 */
export interface PaidOperation<Q = unknown> {
  /** The HTTP route: fee, description, bazaar schemas and examples (route-table.ts). */
  route: PaidRoute;
  /** The MCP tool of this operation. */
  tool: { name: string; title: string; description: string };
  parse(args: RawArgs): Parsed<Q>;
  /** Runs the operation; throws DomainError for its documented refusals (404, 422, 503). */
  execute(args: Q): Promise<OperationResult>;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The paid operations of /x402 and /mcp, on one evidence service. */
export function createPaidOperations(deps: { evidence: EvidenceService }) {
  const verify: PaidOperation<TxQuery> = {
    route: PAID_ROUTES.verify,
    tool: {
      name: 'verify_native_usdc',
      title: 'Verify native USDC transfers',
      description:
        'Lists the native USDC transfers of one public transaction on base, polygon, arbitrum, optimism, ethereum, avalanche or solana, ' +
        'with its confirmation status. Check `status` before trusting the result: only `confirmed` has reached the required finality. ' +
        'Read-only. Fee 0.02 USDC on Base per call, paid with x402 v2.',
    },
    parse: parseTxQuery,
    execute: async (q) => ({ kind: 'json', value: verifyJson(await deps.evidence.getEvidence(q.network, q.txHash)) }),
  };
  const match: PaidOperation<MatchQuery> = {
    route: PAID_ROUTES.match,
    tool: {
      name: 'match_native_usdc_payment',
      title: 'Match a native USDC payment',
      description:
        'Checks that exactly one finalized native USDC transfer in a transaction pays `recipient` exactly `amount` USDC (a decimal string). ' +
        '`matched` is true only when exactly one transfer matches and the transaction is confirmed. Read-only. Fee 0.03 USDC on Base, paid with x402 v2.',
    },
    parse: parseMatchQuery,
    execute: async (q) => ({ kind: 'json', value: matchJson(await deps.evidence.getEvidence(q.network, q.txHash), q) }),
  };
  const evidence: PaidOperation<TxQuery> = {
    route: PAID_ROUTES.evidence,
    tool: {
      name: 'usdc_transfer_evidence_pdf',
      title: 'USDC transfer evidence PDF',
      description:
        'A PDF of the evidence of one native USDC transaction (its transfers, confirmation status, and the Verify JSON attached as evidence.json), ' +
        'returned as an embedded resource with its SHA-256. It is evidence, not a tax invoice. Read-only. Fee 0.05 USDC on Base, paid with x402 v2.',
    },
    parse: parseTxQuery,
    async execute(q) {
      const { pdf, sha256: evidenceSha256 } = await renderEvidencePdf(evidencePdfInput(await deps.evidence.getEvidence(q.network, q.txHash)));
      return { kind: 'pdf', pdf, evidenceSha256, sha256: sha256(pdf), filename: `usdc-evidence-${q.network}-${q.txHash.slice(0, 18)}.pdf` };
    },
  };
  return { verify, match, evidence };
}

export type PaidOperations = ReturnType<typeof createPaidOperations>;
