import { qrSvg } from '../../adapters/documents/qr-code.js';
import { formatUsdc } from '../../domain/money.js';
import { networkInfo, type Network } from '../../domain/networks.js';
import { paymentUri } from '../../domain/proof/payment-uri.js';
import type { RequestStatus } from '../../domain/proof/statuses.js';
import { escapeHtml, htmlPageCsp, htmlPageHeaders } from '../http/html.js';

/**
 * The public payment page of a payment request (`url` of the request object): server-rendered HTML, no
 * JavaScript, no external resources (inline CSS, inline SVG QR code). Every interpolated string is escaped.
 * The route serves it (or `renderPaymentPageNotFound()` with 404, or `renderPaymentPageSuspended()` with 403 while the
 * account is suspended) with `PAYMENT_PAGE_HEADERS`.
 */

export type PaymentPageStatus = RequestStatus;

export interface PaymentPageView {
  merchantName: string;
  requestId: string;
  status: PaymentPageStatus;
  network: Network;
  payTo: string;
  /** Exact transfer amount: the quote plus the unique matching delta. */
  amountAtomic: bigint;
  quotedAmountAtomic: bigint;
  description: string;
  customerLabel: string | null;
  expiresAt: Date;
  txHash: string | null;
  paidAt: Date | null;
  now: Date;
}

/** Human names of the networks, as a payer's wallet shows them. */
export const NETWORK_NAMES: Readonly<Record<Network, string>> = {
  base: 'Base',
  polygon: 'Polygon PoS',
  arbitrum: 'Arbitrum One',
  optimism: 'OP Mainnet',
  ethereum: 'Ethereum',
  avalanche: 'Avalanche C-Chain',
  solana: 'Solana',
};

// The one escaping of every server-rendered page (api/http/html.ts), re-exported for this module's callers.
export { escapeHtml };
const esc = escapeHtml;

const CSS = `
body{font:16px/1.55 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1c1c1c;overflow-wrap:break-word}
h1{font-size:1.5rem;margin-bottom:.2rem}h2{font-size:1.15rem;margin-top:1.8rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.92em;background:#f4f4f4;border-radius:4px;padding:.1rem .3rem}
.addr{display:block;padding:.5rem .6rem;word-break:break-all;user-select:all;-webkit-user-select:all}
.amount{font-size:1.8rem;font-weight:700;font-family:ui-monospace,Menlo,Consolas,monospace;user-select:all;-webkit-user-select:all}
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.45rem 1rem}dt{font-weight:600}dd{margin:0;min-width:0;overflow-wrap:anywhere}
.status{border-left:5px solid;padding:.6rem .9rem;margin:1rem 0;border-radius:4px}.status strong{display:block;font-size:1.1rem}
.s-AWAITING{border-color:#1f6feb;background:#eef4ff}.s-REVIEW{border-color:#f0b400;background:#fff8e1}
.s-PAID{border-color:#1a7f37;background:#e9f7ee}.s-EXPIRED,.s-VOIDED,.s-SUSPENDED{border-color:#b42318;background:#fdecea}
.qr{text-align:center;margin:1rem 0}.qr svg{width:16.5rem;max-width:100%;height:auto}
.desc{white-space:pre-wrap;overflow-wrap:anywhere}.muted{color:#666}.note{font-size:.92rem}
.inactive .amount{color:#666}
@media (max-width:30rem){body{margin:1rem auto}dl{grid-template-columns:minmax(0,1fr);gap:.1rem}dd{margin-bottom:.6rem}}
`;

/**
 * CSP of the page (api/http/html.ts): nothing may load or run; only the page's own `<style>` element (by
 * hash) applies. Inline SVG needs no `img-src`. No forms, no `<base>`, no framing (clickjacking on a page
 * that shows where to pay).
 */
export const PAYMENT_PAGE_CSP = htmlPageCsp([CSS]);

/** Headers for both the page and its 404: the page carries an unguessable id and changes with the status. */
export const PAYMENT_PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...htmlPageHeaders([CSS]),
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex, nofollow',
};

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">
<title>${esc(title)}</title>
<style>${CSS}</style></head><body>
${body}
</body></html>`;
}

/** An AWAITING request past its expiry is shown as EXPIRED (the watcher may not have moved it yet). */
export function displayedStatus(view: Pick<PaymentPageView, 'status' | 'expiresAt' | 'now'>): PaymentPageStatus {
  if (view.status === 'AWAITING' && view.now.getTime() >= view.expiresAt.getTime()) return 'EXPIRED';
  return view.status;
}

/** ISO 8601 in UTC to the second: 2025-11-22T17:48:00Z. */
export const isoUtc = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** Readable UTC time, independent of server locale: "Sat 22 Nov 2025, 17:48 UTC". */
export function readableUtc(d: Date): string {
  return `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** "in 3 hours", "in 45 minutes", "2 days ago". Rounded down, so a deadline is never shown later than it is. */
export function relativeTime(target: Date, now: Date): string {
  const ms = target.getTime() - now.getTime();
  const minutes = Math.floor(Math.abs(ms) / 60_000);
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  let span: string;
  if (minutes < 1) span = 'less than a minute';
  else if (minutes < 120) span = plural(minutes, 'minute');
  else if (minutes < 48 * 60) span = plural(Math.floor(minutes / 60), 'hour');
  else span = plural(Math.floor(minutes / 1440), 'day');
  return ms >= 0 ? `in ${span}` : `${span} ago`;
}

const time = (d: Date) => `<time datetime="${esc(isoUtc(d))}">${esc(readableUtc(d))}</time>`;

function statusBox(v: PaymentPageView, status: PaymentPageStatus, amount: string, networkName: string): string {
  const box = (title: string, text: string) =>
    `<div class="status s-${status}" role="status"><strong>${title}</strong>${text}</div>`;
  switch (status) {
    case 'AWAITING':
      return box(
        'Waiting for payment',
        `Send exactly <b>${esc(amount)} USDC</b> on ${esc(networkName)} to the address below before ${time(v.expiresAt)}.
This page shows the payment once it is confirmed on chain; reload it to check.`,
      );
    case 'REVIEW':
      return box(
        'Payment received, being reviewed',
        `A payment for this request has been received and is being reviewed before it is confirmed.
Do not pay again.`,
      );
    case 'PAID':
      return box(
        'Paid',
        `This request has been paid${v.paidAt ? ` on ${time(v.paidAt)}` : ''}. Do not pay again.<br>
Transaction hash: ${v.txHash ? `<code class="addr">${esc(v.txHash)}</code>` : '<span class="muted">not available</span>'}`,
      );
    case 'EXPIRED':
      return box(
        'Expired: do not pay',
        `This payment request expired on ${time(v.expiresAt)}. A payment sent now may not be recognised.
Ask ${esc(v.merchantName)} for a new payment request.`,
      );
    case 'VOIDED':
      return box(
        'Voided: do not pay',
        `${esc(v.merchantName)} voided the invoice of this payment request: it can no longer be paid, and a
payment sent now is not accepted as payment of it. Ask ${esc(v.merchantName)} if you still owe anything.`,
      );
  }
}

/**
 * The page. `qr` is the inline SVG of `paymentUri(view)`; it is shown only while the request can be paid
 * (AWAITING and not expired), so nobody scans a code to pay an expired, voided, paid or reviewed request.
 */
export function renderPaymentPage(view: PaymentPageView, qr: string | null): string {
  const status = displayedStatus(view);
  const payable = status === 'AWAITING';
  const amount = formatUsdc(view.amountAtomic);
  const delta = view.amountAtomic - view.quotedAmountAtomic;
  const networkName = NETWORK_NAMES[view.network];
  const info = networkInfo(view.network);
  const token =
    info.kind === 'evm'
      ? { label: 'USDC token contract', address: info.usdc }
      : { label: 'USDC mint', address: info.usdcMint };
  const matching =
    delta > 0n
      ? ` (the requested ${esc(formatUsdc(view.quotedAmountAtomic))} USDC plus ${esc(formatUsdc(delta))} USDC)`
      : '';
  const uri = payable ? paymentUri(view) : null;

  const payBlock =
    payable && qr && uri
      ? `<div class="qr" role="img" aria-label="QR code of the payment: ${esc(amount)} USDC on ${esc(networkName)}">${qr}</div>
<p class="note muted">Scan with a wallet that supports ${info.kind === 'evm' ? 'EIP-681 payment links' : 'Solana Pay'}, or <a href="${esc(uri)}">open the payment link in a wallet app</a>.
Check the amount, network and address in your wallet before you confirm.</p>`
      : '';

  return layout(
    `Payment request from ${view.merchantName}`,
    `
<h1>Payment request from ${esc(view.merchantName)}</h1>
${view.customerLabel ? `<p>For: <strong>${esc(view.customerLabel)}</strong></p>` : ''}
<p class="desc">${esc(view.description)}</p>
${statusBox(view, status, amount, networkName)}
<section class="${payable ? 'payable' : 'inactive'}">
<h2>${payable ? 'Pay exactly' : 'Amount requested'}</h2>
<p class="amount">${esc(amount)} USDC</p>
<p class="note">This amount includes a small unique matching amount${matching} so that ${
      payable
        ? 'your payment can be recognised.\nPay exactly this amount, with all six decimals: a rounded or different amount may not be recognised.'
        : 'the payment can be recognised.'
    }</p>
${payBlock}
<h2>Payment details</h2>
<dl>
<dt>Network</dt><dd>${esc(networkName)}</dd>
<dt>Token</dt><dd>Native USDC on ${esc(networkName)} only: bridged USDC (such as USDC.e or USDbC) or USDC sent on another network is not recognised.</dd>
<dt>Receiving wallet</dt><dd><code class="addr">${esc(view.payTo)}</code></dd>
<dt>${esc(token.label)}</dt><dd><code class="addr">${esc(token.address)}</code></dd>
<dt>Expires</dt><dd>${time(view.expiresAt)} (${esc(relativeTime(view.expiresAt, view.now))})<br><code>${esc(isoUtc(view.expiresAt))}</code></dd>
<dt>Status</dt><dd><code>${esc(status)}</code></dd>
<dt>Reference</dt><dd><code>${esc(view.requestId)}</code></dd>
</dl>
</section>
<p class="note muted">This page never asks for a private key, seed phrase or wallet password. Payment is confirmed only from the transfer on chain.</p>`,
  );
}

/** Renders the page with its QR code (built only while the request can be paid). */
export async function paymentPageHtml(view: PaymentPageView): Promise<string> {
  const qr = displayedStatus(view) === 'AWAITING' ? await qrSvg(paymentUri(view)) : null;
  return renderPaymentPage(view, qr);
}

/**
 * The page of a request whose account is suspended (served with 403): nothing to pay — no amount, receiving
 * address, token contract, QR code or payment link — and a clear "do not pay". The suspension is the
 * account's, not the request's: reactivated, the same URL shows the request as it stands (payable if still
 * AWAITING before its expiry). A payment already confirmed or under review is still said so, so a payer who
 * paid is not told to pay again.
 */
export function renderPaymentPageSuspended(
  view: Pick<
    PaymentPageView,
    'merchantName' | 'requestId' | 'status' | 'description' | 'customerLabel' | 'expiresAt' | 'paidAt' | 'now'
  >,
): string {
  const status = displayedStatus(view);
  const settled =
    status === 'PAID'
      ? `<p>A payment for this request was confirmed${view.paidAt ? ` on ${time(view.paidAt)}` : ''}: do not pay again.</p>`
      : status === 'REVIEW'
        ? '<p>A payment for this request was received and is being reviewed: do not pay again.</p>'
        : '';
  return layout(
    `Payment request from ${view.merchantName}`,
    `
<h1>Payment request from ${esc(view.merchantName)}</h1>
${view.customerLabel ? `<p>For: <strong>${esc(view.customerLabel)}</strong></p>` : ''}
<p class="desc">${esc(view.description)}</p>
<div class="status s-SUSPENDED" role="status"><strong>Not accepting payments: do not pay</strong>${esc(view.merchantName)} is not accepting payments through
this service at the moment. Do not send a payment for this request; contact ${esc(view.merchantName)} directly.</div>
${settled}
<dl>
<dt>Reference</dt><dd><code>${esc(view.requestId)}</code></dd>
</dl>
<p class="note muted">This page never asks for a private key, seed phrase or wallet password.</p>`,
  );
}

/** The 404 page of an unknown (or foreign-looking) request id; it says nothing about why. */
export function renderPaymentPageNotFound(): string {
  return layout(
    'Payment request not found',
    `
<h1>Payment request not found</h1>
<p>This payment link is not valid. Check that you copied the whole link, or ask the sender for a new one.</p>
<p class="note muted">Do not send a payment without a valid payment page.</p>`,
  );
}
