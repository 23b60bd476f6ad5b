import { createHash } from 'node:crypto';
import jsqrModule from 'jsqr';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { qrSvg } from '../../../adapters/documents/qr-code.js';
import { EVM, NETWORKS, SOLANA, type Network } from '../../../domain/networks.js';
import { paymentUri } from '../../../domain/proof/payment-uri.js';
import {
  NETWORK_NAMES,
  PAYMENT_PAGE_CSP,
  PAYMENT_PAGE_HEADERS,
  paymentPageHtml,
  renderPaymentPage,
  renderPaymentPageNotFound,
  type PaymentPageView,
} from '../../../api/proof/payment-page.js';

const EVM_PAY_TO = '0x52908400098527886E0F7030069857D2E4169EE7';
const SOL_PAY_TO = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const TX_EVM = `0x${'ab'.repeat(32)}`;

const view = (over: Partial<PaymentPageView> = {}): PaymentPageView => ({
  merchantName: 'Acme Studio',
  requestId: 'req_9f3Kx2LmQ7',
  status: 'AWAITING',
  network: 'base',
  payTo: EVM_PAY_TO,
  amountAtomic: 12_500_042n,
  quotedAmountAtomic: 12_500_000n,
  description: 'Logo design, second instalment',
  customerLabel: 'Order #1042',
  expiresAt: new Date('2025-11-22T17:48:00Z'),
  txHash: null,
  paidAt: null,
  now: new Date('2025-11-22T14:00:00Z'),
  ...over,
});

// jsqr is CommonJS whose typings declare `export default`: under NodeNext the default import is `module.exports`.
const jsQR = jsqrModule.default;

const svgOf = (html: string): string | null => /<svg[\s\S]*?<\/svg>/.exec(html)?.[0] ?? null;

/** Rasterizes an inline SVG QR code and decodes it as a phone camera would. */
async function decodeQr(svg: string): Promise<string | null> {
  const { data, info } = await sharp(Buffer.from(svg))
    .flatten({ background: '#ffffff' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return (
    jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height)?.data ?? null
  );
}

const usdcOf = (n: Network): string => (n === 'solana' ? SOLANA.usdcMint : EVM[n].usdc);
const payToOf = (n: Network): string => (n === 'solana' ? SOL_PAY_TO : EVM_PAY_TO);

describe('payment page: what the payer must see', () => {
  it.each(NETWORKS.map((n) => [n]))(
    '%s: amount with six decimals, network name, wallet, USDC address, expiry, QR',
    async (network) => {
      const v = view({ network, payTo: payToOf(network) });
      const html = await paymentPageHtml(v);
      expect(html.startsWith('<!doctype html>')).toBe(true);
      expect(html).toContain('12.500042 USDC');
      expect(html).toContain('includes a small unique matching amount');
      expect(html).toContain('Pay exactly this amount');
      expect(html).toContain(`<dd>${NETWORK_NAMES[network]}</dd>`);
      expect(html).toContain(`<code class="addr">${payToOf(network)}</code>`);
      expect(html).toContain(`<code class="addr">${usdcOf(network)}</code>`);
      expect(html).toContain(network === 'solana' ? 'USDC mint' : 'USDC token contract');
      expect(html).toContain('2025-11-22T17:48:00Z');
      expect(html).toContain('Sat 22 Nov 2025, 17:48 UTC');
      expect(html).toContain('in 3 hours');
      expect(html).toContain('Waiting for payment');

      const svg = svgOf(html);
      expect(svg).not.toBeNull();
      expect(await decodeQr(svg!)).toBe(paymentUri({ network, payTo: payToOf(network), amountAtomic: 12_500_042n }));
    },
  );

  it('names every network as wallets do', () => {
    expect(NETWORK_NAMES).toEqual({
      base: 'Base',
      polygon: 'Polygon PoS',
      arbitrum: 'Arbitrum One',
      optimism: 'OP Mainnet',
      ethereum: 'Ethereum',
      avalanche: 'Avalanche C-Chain',
      solana: 'Solana',
    });
  });

  it('states the quote and the matching delta, and never rounds the amount', () => {
    const html = renderPaymentPage(view({ amountAtomic: 1_000_001n, quotedAmountAtomic: 1_000_000n }), null);
    expect(html).toContain('1.000001 USDC');
    expect(html).toContain('the requested 1.000000 USDC plus 0.000001 USDC');
    expect(html).not.toMatch(/>1\.00 USDC|>1 USDC/);
  });

  it('shows the merchant name, the customer label and the description', () => {
    const html = renderPaymentPage(view(), null);
    expect(html).toContain('Payment request from Acme Studio');
    expect(html).toContain('For: <strong>Order #1042</strong>');
    expect(html).toContain('Logo design, second instalment');
    expect(html).toContain('req_9f3Kx2LmQ7');
    expect(renderPaymentPage(view({ customerLabel: null }), null)).not.toContain('For:');
  });

  it('the QR adapter encodes any text that decodes back exactly', async () => {
    const text =
      'solana:9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM?amount=0.000001&spl-token=EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
    const svg = await qrSvg(text);
    expect(svg).toMatch(/^<svg [^>]*>/);
    expect(svg.endsWith('</svg>')).toBe(true);
    expect(svg).not.toMatch(/<(script|text|image|use|foreignObject|style)\b|href=/i);
    expect(await decodeQr(svg)).toBe(text);
  });
});

describe('payment page: one clear message per status', () => {
  it.each(['AWAITING', 'REVIEW', 'PAID', 'EXPIRED', 'VOIDED'] as const)(
    '%s: still shows amount, network, wallet, USDC address and expiry',
    (status) => {
      const html = renderPaymentPage(
        view({ status, network: 'polygon', txHash: status === 'PAID' ? TX_EVM : null }),
        null,
      );
      expect(html).toContain('12.500042 USDC');
      expect(html).toContain('includes a small unique matching amount');
      expect(html).toContain('<dd>Polygon PoS</dd>');
      expect(html).toContain(EVM_PAY_TO);
      expect(html).toContain(EVM.polygon.usdc);
      expect(html).toContain('2025-11-22T17:48:00Z');
      expect(html).toContain(`<code>${status}</code>`);
      // Only a payable request tells the payer to pay.
      expect(html.includes('Pay exactly this amount')).toBe(status === 'AWAITING');
    },
  );

  it('AWAITING: waiting for payment, with QR code and wallet link', async () => {
    const html = await paymentPageHtml(view());
    expect(html).toContain('Waiting for payment');
    expect(html).toContain('s-AWAITING');
    expect(svgOf(html)).not.toBeNull();
    expect(html).toContain(`href="ethereum:${EVM.base.usdc}@8453/transfer?address=${EVM_PAY_TO}&amp;uint256=12500042"`);
  });

  it('REVIEW: payment received and being reviewed; no QR, do not pay again', async () => {
    const html = await paymentPageHtml(view({ status: 'REVIEW' }));
    expect(html).toContain('Payment received, being reviewed');
    expect(html).toContain('Do not pay again');
    expect(svgOf(html)).toBeNull();
    expect(html).toContain('12.500042 USDC');
    expect(html).toContain(EVM_PAY_TO);
  });

  it('PAID: paid, with the transaction hash and time; no QR', async () => {
    const html = await paymentPageHtml(
      view({ status: 'PAID', txHash: TX_EVM, paidAt: new Date('2025-11-22T15:01:30Z') }),
    );
    expect(html).toContain('<strong>Paid</strong>');
    expect(html).toContain(TX_EVM);
    expect(html).toContain('2025-11-22T15:01:30Z');
    expect(html).toContain('Do not pay again');
    expect(html).not.toContain('Waiting for payment');
    expect(svgOf(html)).toBeNull();
  });

  it('EXPIRED: do not pay; no QR, no wallet link', async () => {
    const html = await paymentPageHtml(view({ status: 'EXPIRED', now: new Date('2025-11-24T18:00:00Z') }));
    expect(html).toContain('Expired: do not pay');
    expect(html).toContain('2 days ago');
    expect(html).toContain('2025-11-22T17:48:00Z');
    expect(svgOf(html)).toBeNull();
    expect(html).not.toContain('ethereum:');
  });

  it('VOIDED: do not pay, the invoice was voided; no QR, no wallet link, even before its expiry', async () => {
    const html = await paymentPageHtml(view({ status: 'VOIDED' }));
    expect(html).toContain('Voided: do not pay');
    expect(html).toContain('Acme Studio voided the invoice of this payment request: it can no longer be paid');
    expect(html).not.toContain('Waiting for payment');
    expect(html).not.toContain('Pay exactly this amount');
    expect(svgOf(html)).toBeNull();
    expect(html).not.toContain('ethereum:');
  });

  it('an AWAITING request past its expiry is shown as EXPIRED', async () => {
    const html = await paymentPageHtml(view({ now: new Date('2025-11-22T17:48:00Z') }));
    expect(html).toContain('Expired: do not pay');
    expect(html).not.toContain('Waiting for payment');
    expect(svgOf(html)).toBeNull();
  });
});

describe('payment page: hostile merchant and payer text is escaped', () => {
  const hostile = view({
    merchantName: '"><img src=x onerror=alert(1)>Evil & Co',
    description: '<script>alert("x")</script>\nsecond line</p><a href="https://phish.example">',
    customerLabel: "</title><script>alert('y')</script>",
    requestId: 'req_<b>',
  });

  it('no markup from the view reaches the page', async () => {
    for (const html of [
      await paymentPageHtml(hostile),
      renderPaymentPage({ ...hostile, status: 'EXPIRED' }, null),
      renderPaymentPage({ ...hostile, status: 'VOIDED' }, null),
    ]) {
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/<img/i);
      expect(html).not.toContain('<a href="https://phish.example">');
      expect(html).not.toContain('req_<b>');
      expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;Evil &amp; Co');
      expect(html).toContain('&lt;/title&gt;&lt;script&gt;alert(&#39;y&#39;)&lt;/script&gt;');
      expect(html.match(/<title>/g)).toHaveLength(1);
    }
  });
});

describe('payment page: self-contained under a strict CSP', () => {
  it("the CSP allows nothing but the page's own stylesheet", () => {
    expect(PAYMENT_PAGE_CSP).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; /);
    expect(PAYMENT_PAGE_CSP).toContain("frame-ancestors 'none'");
    expect(PAYMENT_PAGE_CSP).not.toMatch(/unsafe-eval|script-src|\*/);
    expect(PAYMENT_PAGE_HEADERS['Content-Security-Policy']).toBe(PAYMENT_PAGE_CSP);
  });

  it.each([
    ['the page', () => paymentPageHtml(view())],
    ['the 404 page', () => Promise.resolve(renderPaymentPageNotFound())],
  ])('%s: its one <style> element matches the CSP hash; no script, no external resource', async (_l, render) => {
    const html = await render();
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)];
    expect(styles).toHaveLength(1);
    const hash = createHash('sha256').update(styles[0]![1]!, 'utf8').digest('base64');
    expect(PAYMENT_PAGE_CSP).toContain(`'sha256-${hash}'`);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|\sstyle=|url\(|@import/i);
  });

  it('the 404 page is real HTML that says the request was not found', () => {
    const html = renderPaymentPageNotFound();
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('Payment request not found');
  });
});
