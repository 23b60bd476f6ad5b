/** The DNS/TLS audit behind the MCP tool `domain_dns_tls_audit` (docs/x402.md, "domain_dns_tls_audit"). */
export {
  createDomainAuditor,
  DomainAuditError,
  DEFAULT_DOMAIN_AUDIT_RESOLVERS,
  DEFAULT_DNS_TIMEOUT_MS,
  DEFAULT_TLS_TIMEOUT_MS,
  type DomainAuditor,
  type DomainAuditorOptions,
  type DomainAuditErrorKind,
} from './auditor.js';
export {
  DOMAIN_AUDIT_INPUT_SCHEMA,
  DOMAIN_AUDIT_OUTPUT_SCHEMA,
  DOMAIN_AUDIT_INPUT_EXAMPLE,
  DOMAIN_AUDIT_OUTPUT_EXAMPLE,
  NOT_A_VULNERABILITY_SCAN_NOTICE,
  DOMAIN_AUDIT_TOOL_DESCRIPTION,
  domainAuditReportSchema,
  type DomainAuditReport,
  type DomainAuditFinding,
  type DomainAuditCertificate,
} from './schema.js';
export {
  parseAuditDomain,
  parseAuditDomainArguments,
  type AuditDomainIssue,
  type ParsedAuditDomain,
} from '../../domain/validation/audit-domain.js';
