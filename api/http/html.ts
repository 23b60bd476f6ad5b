/**
 * HTML escaping shared by every server-rendered page (x402 pages, the /v1 and /proof developer pages, the
 * public payment page): safe for text and for double- or single-quoted attribute values.
 */
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
