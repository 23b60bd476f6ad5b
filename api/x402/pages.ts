import { EVM, EVM_NETWORKS, SOLANA } from '../../domain/networks.js';
import { formatUsdc } from '../../domain/money.js';
import { PAID_ROUTES } from '../../services/x402/route-table.js';
import { paymentsConfigured, type X402Settings } from '../../services/x402/discovery.js';
import { escapeHtml as esc, htmlPageHeaders } from '../http/html.js';

const CSS = `
body{font:16px/1.55 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1c1c1c}
h1{font-size:1.7rem;margin-bottom:.2rem}h2{margin-top:2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em;background:#f4f4f4;border-radius:4px}
code{padding:.05rem .3rem}pre{padding:.8rem;overflow:auto}table{border-collapse:collapse;width:100%;margin:.6rem 0}
th,td{border:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top}th{background:#fafafa}
.note{background:#fff8e1;border-left:4px solid #f0b400;padding:.5rem .8rem}.muted{color:#666}
nav a{margin-right:1rem}
`;

/** Headers of every /x402 page: a CSP that lets only CSS above apply (api/http/html.ts). */
export const X402_PAGE_HEADERS = htmlPageHeaders([CSS]);

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${CSS}</style></head><body>
<nav><a href="/x402/">Overview</a><a href="/x402/docs">Documentation</a><a href="/x402/.well-known/x402">Discovery (JSON)</a><a href="/x402/launch-status">Status</a></nav>
${body}
</body></html>`;
}

const priceRows = () =>
  Object.values(PAID_ROUTES)
    .map(
      (r) =>
        `<tr><td><code>GET /x402${esc(r.path)}</code></td><td>${esc(r.description)}</td><td>${formatUsdc(BigInt(r.priceAtomic))} USDC</td></tr>`,
    )
    .join('');

/** GET /x402/: what the service is, in one page. */
export function landingPage(s: X402Settings): string {
  return layout(
    'Native USDC transfer verification',
    `
<h1>Native USDC transfer verification</h1>
<p class="muted">Pay per call with x402 v2. No account, no API key.</p>
<p>Inspect a public transaction on <strong>Base, Polygon, Arbitrum, Optimism, Ethereum, Avalanche or Solana</strong> and get its
native USDC transfers and whether the chain's finality has been reached. Bridged USDC (USDC.e, USDbC) is not native and is never counted.</p>
<table><tr><th>Operation</th><th>What you get</th><th>Fee</th></tr>${priceRows()}</table>
<p>Every fee settles in native USDC on Base (<code>eip155:8453</code>), whichever network you inspect.
${paymentsConfigured(s) ? 'Payments are live.' : '<strong>Payments are not configured on this server yet; paid calls answer 503.</strong>'}</p>
<p class="note">The service holds no custody and never asks for a private key, seed phrase or wallet secret. A result is only final when its
<code>status</code> is <code>confirmed</code>. The evidence PDF is evidence of a transfer, not a tax invoice.</p>
<p>Read the <a href="/x402/docs">documentation</a>, or let an x402 client discover the resources at <a href="/x402/.well-known/x402"><code>/x402/.well-known/x402</code></a>.</p>`,
  );
}

/**
 * A confirmation threshold and the wait it means: "1 confirmation (about 2 s)", "150 confirmations (about 5 min)".
 * Under a minute the wait is in whole seconds (at least 1), from a minute on in minutes with one decimal at most.
 */
export function finalityText(confirmations: number, averageBlockSeconds: number): string {
  const seconds = confirmations * averageBlockSeconds;
  const wait = seconds < 60 ? `${Math.max(1, Math.round(seconds))} s` : `${Math.round((seconds / 60) * 10) / 10} min`;
  return `${confirmations} confirmation${confirmations === 1 ? '' : 's'} (about ${wait})`;
}

/** GET /x402/docs: the reference a developer follows. */
export function docsPage(s: X402Settings): string {
  const networks = [
    ...EVM_NETWORKS.map(
      (n) =>
        `<tr><td><code>${n}</code></td><td>${EVM[n].chainId}</td><td><code>${EVM[n].usdc}</code></td><td>${finalityText(s.requiredConfirmations[n], EVM[n].averageBlockSeconds)}</td></tr>`,
    ),
    `<tr><td><code>solana</code></td><td>mainnet-beta</td><td><code>${SOLANA.usdcMint}</code></td><td>finalized commitment</td></tr>`,
  ].join('');
  return layout(
    'x402 USDC verification: documentation',
    `
<h1>Documentation</h1>
<p>Interface version 1.0.0, paths under <code>/x402/v1</code>, payment protocol x402 version 2.</p>

<h2>Operations</h2>
<table><tr><th>Request</th><th>Purpose</th><th>Fee</th></tr>${priceRows()}</table>
<h3>Query parameters</h3>
<table>
<tr><th>Parameter</th><th>Rules</th></tr>
<tr><td><code>tx_hash</code></td><td>Required. 64 to 100 characters. EVM: <code>0x</code> and 64 hex characters. Solana: a base58 signature of 64 to 88 characters. It must fit the selected network.</td></tr>
<tr><td><code>network</code></td><td>Optional, default <code>base</code>. One of <code>base</code>, <code>polygon</code>, <code>arbitrum</code>, <code>optimism</code>, <code>ethereum</code>, <code>avalanche</code>, <code>solana</code>.</td></tr>
<tr><td><code>recipient</code></td><td>Match only, required. 32 to 44 characters. EVM: <code>0x</code> and 40 hex characters, compared case-insensitively. Solana: the owner wallet in base58, not a token account.</td></tr>
<tr><td><code>amount</code></td><td>Match only, required. 1 to 24 characters: a positive decimal with 1 to 17 integer digits and an optional dot with 1 to 6 fraction digits. No sign, exponent, spaces or separators; zero is rejected.</td></tr>
</table>
<p>Each parameter may appear once; unknown parameters are ignored. Invalid input answers <code>422</code> before any payment is asked:</p>
<pre>{"error": "Invalid query parameters; see issues", "code": "validation_failed",
 "request_id": "…", "issues": [{"param": "amount", "message": "amount must be greater than zero"}]}</pre>

<h2>Paying</h2>
<ol>
<li>Call the operation without payment. You get <code>402</code> and a <code>PAYMENT-REQUIRED</code> header: a base64 x402 v2 requirement
(scheme <code>exact</code>, native USDC on Base, the fee, the payee, an expiry, and input/output schemas).</li>
<li>Your x402 v2 wallet client approves the exact fee and signs a restricted authorization (EIP-3009).</li>
<li>Repeat the same request with the <code>PAYMENT-SIGNATURE</code> header. The operation runs only after the payment verifies.</li>
<li>A successful answer carries <code>PAYMENT-RESPONSE</code>, the settlement receipt. If the operation ends in <code>404</code>, <code>422</code> or
<code>503</code>, nothing is settled and you are not charged.</li>
</ol>
<p>An authorization is accepted once: presenting it again answers <code>402</code>. A refused settlement answers <code>402</code> with a
<code>PAYMENT-RESPONSE</code> of <code>{"success": false}</code>: you were not charged.</p>
<p>If the settlement is not decided within the wait (a slow chain), the answer is <code>503</code> with <code>Retry-After</code> and the result is
kept for you: <strong>repeat the same request with the same <code>PAYMENT-SIGNATURE</code></strong> (do not sign a new authorization). Once the fee is
settled you receive the result and its <code>PAYMENT-RESPONSE</code>; you are charged once.</p>

<h2>Results</h2>
<p><code>status</code> is <code>confirmed</code> when the network's finality is reached, otherwise <code>waiting_confirmations</code>: check it before
trusting a result. Match answers <code>matched: true</code> only when exactly one transfer pays the recipient exactly the amount and the status is
<code>confirmed</code>; <code>matching_transfers</code> lists every transfer that matched. Amounts are decimal strings with six decimals
(<code>amount_usdc</code>) and integers of the smallest unit (<code>amount_atomic</code>, 1 USDC = 1,000,000). Confirmed results never change and
are served from storage.</p>
<table><tr><th>Network</th><th>Chain</th><th>Native USDC</th><th>Finality required for <code>confirmed</code></th></tr>${networks}</table>
<p>Solana reports <code>confirmations</code> and <code>required_confirmations</code> as commitment levels (<code>"confirmed"</code>,
<code>"finalized"</code>); EVM networks report counts (head − block + 1).</p>

<h2>Errors</h2>
<table><tr><th>Status</th><th>When</th></tr>
<tr><td>402</td><td>Payment required, invalid, expired or already used (<code>PAYMENT-REQUIRED</code> present).</td></tr>
<tr><td>404</td><td>The transaction is not on the selected network.</td></tr>
<tr><td>422</td><td>Invalid input, or the transaction failed (reverted) on chain.</td></tr>
<tr><td>429</td><td>Too many requests from your address; see <code>Retry-After</code>.</td></tr>
<tr><td>503</td><td>The network's RPC is unavailable or timed out, the chain reorganised, or the evidence is inconsistent; retry later.</td></tr>
</table>
<p>Error bodies: <code>{"error": "…", "code": "…", "request_id": "…"}</code>.</p>

<h2>Evidence PDF</h2>
<p>Shows the network, transaction, status, confirmations, block and time, every transfer and the time of the check, with the statement that
it is evidence and not a tax invoice. The Verify JSON is attached to the PDF as <code>evidence.json</code>; its SHA-256 is printed on the page and
returned in the <code>X-Evidence-SHA256</code> header.</p>

<h2>Connecting from an MCP client</h2>
<p>The same operations are tools of the MCP server at <code>/mcp</code> (Streamable HTTP, stateless), plus a public DNS and TLS check of a domain:</p>
<table><tr><th>Tool</th><th>Fee</th><th>Arguments</th></tr>
<tr><td><code>verify_native_usdc</code></td><td>0.02 USDC</td><td><code>tx_hash</code>, <code>network</code> (optional)</td></tr>
<tr><td><code>match_native_usdc_payment</code></td><td>0.03 USDC</td><td><code>tx_hash</code>, <code>recipient</code>, <code>amount</code>, <code>network</code> (optional)</td></tr>
<tr><td><code>usdc_transfer_evidence_pdf</code></td><td>0.05 USDC</td><td><code>tx_hash</code>, <code>network</code> (optional); the PDF comes back as an embedded resource with its SHA-256</td></tr>
<tr><td><code>domain_dns_tls_audit</code></td><td>0.05 USDC</td><td><code>domain</code>; public DNS records and the TLS service on port 443. It is not a vulnerability scan.</td></tr>
</table>
<p>Add the server to your MCP client by its URL (<code>/mcp</code> on this host). Listing tools is free and needs no key; adding the server
authorizes no spending. A client without an x402 wallet cannot pay automatically. Paying follows the x402 MCP transport:</p>
<ol>
<li>Call the tool. Unpaid, the result has <code>isError: true</code> and an x402 v2 <code>PaymentRequired</code> in <code>structuredContent</code> (and as
JSON text): native USDC on Base, the fee, the payee, an expiry.</li>
<li>Your x402 wallet signs the exact fee. Call the same tool with the same arguments and the payment in <code>params._meta["x402/payment"]</code>.</li>
<li>The result comes with the settlement receipt in <code>_meta["x402/payment-response"]</code>. Invalid arguments, a transaction or domain that is
not found and other refusals are not charged; an undecided settlement says so (<code>payment_settlement_uncertain</code>): call again with the same
payment to receive the kept result.</li>
</ol>

<h2>Document processing</h2>
<p><code>/x402/v1/processing</code> is disabled: it answers every method with a JSON body saying so, and never executes a document.</p>`,
  );
}
