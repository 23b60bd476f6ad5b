import { createHash } from 'node:crypto';
import {
  parseMatchQuery,
  parseTxQuery,
  type MatchQuery,
  type Parsed,
  type TxQuery,
} from '../../domain/validation/x402-query.js';
import { renderEvidencePdf } from '../../adapters/media/pdf/evidence-pdf.js';
import type { EvidenceService } from './evidence.js';
import { evidencePdfInput, matchJson, verifyJson } from './responses.js';
import { PAID_ROUTES, type PaidRoute } from './route-table.js';
import type { PaidRouteSpec } from './paid-route.js';
import { DomainError } from '../../domain/errors.js';
import {
  DOMAIN_AUDIT_INPUT_EXAMPLE,
  DOMAIN_AUDIT_INPUT_SCHEMA,
  DOMAIN_AUDIT_OUTPUT_EXAMPLE,
  DOMAIN_AUDIT_OUTPUT_SCHEMA,
  DOMAIN_AUDIT_TOOL_DESCRIPTION,
  DomainAuditError,
  parseAuditDomain,
  type DomainAuditor,
} from '../../adapters/domain-audit/index.js';

/** Raw arguments as both transports deliver them: an HTTP query, or an MCP tool's string arguments. */
export type RawArgs = Readonly<Record<string, string | string[] | undefined>>;

/** What a paid operation produced: a JSON document, or a PDF file. */
export type OperationResult =
  | { kind: 'json'; value: Record<string, unknown> }
  | {
      kind: 'pdf';
      pdf: Uint8Array;
      filename: string;
      /** SHA-256 of the attached evidence.json */ evidenceSha256: string;
      /** SHA-256 of the PDF bytes */ sha256: string;
    };

/**
 * One paid operation of the x402 service, whatever transport calls it: the HTTP route (/x402/v1/usdc/...) and
 * the MCP tool are two views of the same entry: the same argument rules, the same fee, the same answer.
 */
/** What a paid operation costs and how it is described: its HTTP route's entry, or (MCP only) its own. */
export type PaidOperationSpec = Omit<PaidRoute, 'operation' | 'path' | 'method'> & {
  operation: PaidRouteSpec['operation'];
};

export interface PaidOperation<Q = unknown> {
  /** Fee, description, bazaar schemas and examples (route-table.ts for the HTTP routes). */
  spec: PaidOperationSpec;
  /** The HTTP route of the operation under /x402, if it has one (the DNS/TLS audit is an MCP tool only). */
  http?: PaidRoute;
  /** The MCP tool of this operation. */
  tool: { name: string; title: string; description: string };
  parse(args: RawArgs): Parsed<Q>;
  /** Runs the operation; throws DomainError for its documented refusals (404, 422, 503). */
  execute(args: Q): Promise<OperationResult>;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The DNS/TLS audit's refusals, none of them charged. */
const AUDIT_REFUSALS = {
  invalid_domain: 'validation_failed',
  not_found: 'domain_not_found',
  not_public: 'domain_not_public',
  unavailable: 'dns_unavailable',
} as const;

/** The paid operations of /x402 and /mcp, on one evidence service and one DNS/TLS auditor. */
export function createPaidOperations(deps: { evidence: EvidenceService; auditor: DomainAuditor }) {
  const verify: PaidOperation<TxQuery> = {
    spec: PAID_ROUTES.verify,
    http: PAID_ROUTES.verify,
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
    spec: PAID_ROUTES.match,
    http: PAID_ROUTES.match,
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
    spec: PAID_ROUTES.evidence,
    http: PAID_ROUTES.evidence,
    tool: {
      name: 'usdc_transfer_evidence_pdf',
      title: 'USDC transfer evidence PDF',
      description:
        'A PDF of the evidence of one native USDC transaction (its transfers, confirmation status, and the Verify JSON attached as evidence.json), ' +
        'returned as an embedded resource with its SHA-256. It is evidence, not a tax invoice. Read-only. Fee 0.05 USDC on Base, paid with x402 v2.',
    },
    parse: parseTxQuery,
    async execute(q) {
      const { pdf, sha256: evidenceSha256 } = await renderEvidencePdf(
        evidencePdfInput(await deps.evidence.getEvidence(q.network, q.txHash)),
      );
      return {
        kind: 'pdf',
        pdf,
        evidenceSha256,
        sha256: sha256(pdf),
        filename: `usdc-evidence-${q.network}-${q.txHash.slice(0, 18)}.pdf`,
      };
    },
  };
  const domainAudit: PaidOperation<string> = {
    spec: {
      operation: 'domain_audit',
      priceAtomic: '50000',
      description: DOMAIN_AUDIT_TOOL_DESCRIPTION,
      mimeType: 'application/json',
      inputSchema: DOMAIN_AUDIT_INPUT_SCHEMA as Record<string, unknown>,
      outputSchema: DOMAIN_AUDIT_OUTPUT_SCHEMA as Record<string, unknown>,
      inputExample: DOMAIN_AUDIT_INPUT_EXAMPLE,
      outputExample: DOMAIN_AUDIT_OUTPUT_EXAMPLE,
    },
    tool: {
      name: 'domain_dns_tls_audit',
      title: 'Public DNS and TLS check of a domain',
      description: `${DOMAIN_AUDIT_TOOL_DESCRIPTION} Fee 0.05 USDC on Base, paid with x402 v2; not charged when the name does not exist, is not public, or DNS does not answer.`,
    },
    parse(args) {
      const parsed = parseAuditDomain(args['domain']);
      return parsed.ok
        ? { ok: true, value: parsed.value }
        : { ok: false, issues: parsed.issues.map((i) => ({ param: 'domain', message: i.message })) };
    },
    async execute(domain) {
      try {
        return { kind: 'json', value: (await deps.auditor.audit(domain)) as unknown as Record<string, unknown> };
      } catch (err) {
        if (err instanceof DomainAuditError) throw new DomainError(AUDIT_REFUSALS[err.kind], err.message);
        throw err;
      }
    },
  };
  return { verify, match, evidence, domainAudit };
}

export type PaidOperations = ReturnType<typeof createPaidOperations>;
