import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { parseUnits, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { EVM } from '../../domain/networks.js';
import { createCompanyAdmin, createDashboardUser } from '../helpers/dashboard.js';
import { startEvmNode, type EvmAccount, type EvmNode } from '../../support/evm-node.js';
import { watchBase } from '../helpers/evm-watcher.js';
import { pdfPageText } from '../helpers/pdf-inspect.js';
import { ProofHarness } from '../helpers/proof.js';
import { startReceiver } from '../helpers/receiver.js';
import { until } from '../helpers/until.js';
import { Journey, launchBrowser, signIn, takeSecret } from './browser.js';

/**
 * The merchant's self-service journey of issue 18 in Debian's Chromium, against the real app, PostgreSQL, Temporal
 * (a worker with the payment watcher and every other activity) and a local Hardhat chain (chain id 8453, a USDC-like
 * token at Base's USDC address): the merchant adds and verifies a receiving wallet by signature, buys a plan paid in
 * USDC (the test pays as the payer would, and the page follows the purchase until it is paid), creates a key and a
 * webhook destination, issues an invoice, downloads its PDF and voids it, asks for a payment that the wrong payer pays
 * (it shows in the review queue with the transfer), and visits every merchant page (axe-core on each). The same chain,
 * watcher and platform wallet serve a company administrator buying a credit pack paid in USDC (the same purchase).
 */
const CONFIRMATIONS = 3;
const h = new ProofHarness();
let browser: Browser;
let node: EvmNode;
let payer: EvmAccount;
let platform: Address;
let watcher: Awaited<ReturnType<typeof watchBase>> | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  node = await startEvmNode({ chainId: 8453 });
  payer = node.accounts[1]!;
  platform = node.accounts[6]!.address;
  await node.placeToken(EVM.base.usdc);
  await node.mint(EVM.base.usdc, payer.address, 1_000_000_000n);
  await h.start({ PLATFORM_RECEIVING_WALLETS: `base:${platform}` }, { workflows: true });
  watcher = await watchBase(h, node, CONFIRMATIONS);
  receiver = await startReceiver(() => 200);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await watcher?.stop();
  await node?.stop();
  await h.stop();
});

describe('the merchant journey in a browser', () => {
  it('verifies a wallet by signature, buys a plan paid in USDC, creates a key and a webhook, issues an invoice and downloads its PDF', async () => {
    const m = await h.merchant({ trial: true, networks: [] });
    const user = await createDashboardUser(h.tdb.db, m.id);
    const j = await Journey.open(browser, h.app.url, 'merchant-journey');
    const { page } = j;
    await signIn(j, 'merchant', user.email, user.password, 'Plan and usage');
    await page.getByText('Active keys').waitFor();
    await j.checkPage('plan and usage (trial)');

    // 1. A receiving wallet, verified by signing the shown challenge (as the merchant's wallet would).
    const wallet = privateKeyToAccount(generatePrivateKey());
    await page.getByRole('link', { name: 'Wallets' }).click();
    await page.getByText('No receiving wallet yet').waitFor();
    await j.checkPage('wallets (empty)');
    await page.getByLabel('Network').selectOption('base');
    await page.getByLabel('Wallet address').fill(wallet.address);
    await page.getByLabel('Label (optional)').fill('shop wallet');
    await page.getByRole('button', { name: 'Get the message to sign' }).click();
    const message = await page.getByLabel('Message to sign').inputValue();
    // The focus moves to the signing step, so a keyboard or screen-reader user lands on it.
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe(
      `Sign this message with ${wallet.address}`,
    );
    expect(message).toContain(wallet.address);
    expect(message).toContain(m.id);
    await j.checkPage('wallets (challenge shown)');
    await j.screenshot('wallet-challenge');
    // A signature by another wallet is refused with the API's message; the challenge stays open for the right one.
    await page.getByLabel('Signature').fill(await privateKeyToAccount(generatePrivateKey()).signMessage({ message }));
    await page.getByRole('button', { name: 'Verify wallet' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'The wallet was not verified' });
    await refused
      .filter({ hasText: 'not the signature of this wallet over the challenge message' })
      .filter({ hasText: 'signature_invalid' })
      .waitFor();
    await j.checkPage('wallets (signature refused)');
    // By keyboard: the signature pasted, the button pressed with Enter.
    await page.getByLabel('Signature').fill(await wallet.signMessage({ message }));
    await page.getByRole('button', { name: 'Verify wallet' }).press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: `Wallet ${wallet.address} on base is verified` })
      .waitFor();
    await page
      .getByRole('table', { name: 'Receiving wallets' })
      .getByRole('rowheader', { name: wallet.address })
      .waitFor();
    await j.checkPage('wallets (verified)');

    // 2. A plan bought with USDC: the page shows the payment request; the payer sends exactly that to that address.
    await page.getByRole('link', { name: 'Plan and usage' }).click();
    await page.getByRole('heading', { name: 'Buy or renew a plan' }).waitFor();
    await page.getByLabel('Plan', { exact: true }).selectOption('business');
    await page.getByLabel('Network').selectOption('base');
    await page.getByLabel('Paying from (wallet address)').fill(payer.address);
    await page.getByLabel('Paying from (wallet address)').press('Enter'); // the form submits from the keyboard
    const payment = page.getByRole('region', { name: 'Payment for the business plan' });
    await payment.getByText('Status: awaiting payment').waitFor();
    await j.checkPage('plan (payment awaited)');
    const amountText = (await payment.locator('.amount').textContent())!;
    const amount = parseUnits(amountText.replace(' USDC', ''), 6);
    expect(amount > 19_000_000n && amount < 19_010_000n).toBe(true);
    const payTo = (await payment.locator('dd code').first().textContent()) as Address;
    expect(payTo).toBe(platform);
    await node.transfer(EVM.base.usdc, payer, payTo, amount);
    await node.mine(CONFIRMATIONS);
    // The page follows the purchase on its own until the watcher confirmed it; then the plan shown is business.
    await payment.getByText('Status: paid').waitFor();
    await page.locator('.facts').getByText('business', { exact: true }).waitFor();
    await j.checkPage('plan (paid)');
    await j.screenshot('plan-paid');

    // 3. A key (business allows three) and a webhook destination.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await j.checkPage('keys');
    await page.getByLabel('Name').fill('checkout server');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await takeSecret(j, /Key checkout server is ready/);
    const me = await fetch(`${h.app.url}/proof/v1/me`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(me.status, await me.clone().text()).toBe(200);
    expect(((await me.json()) as { plan: string }).plan).toBe('business');

    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('group', { name: 'Events' }).waitFor();
    await j.checkPage('webhooks');
    // The merchant's receiver (on this machine): the events below are delivered to it.
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Register webhook' }).click();
    expect(
      await takeSecret(j, new RegExp(`Webhook ${receiver.url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is registered`)),
    ).toMatch(/^whsec_/);

    // 4. An invoice: a customer, lines, issued; its PDF downloaded; then voided with a reason.
    await page.getByRole('link', { name: 'Invoices' }).click();
    await page.getByText('Add a customer first').waitFor();
    await j.checkPage('invoices (no customer)');
    await page.getByLabel('Legal name').fill('Acme Trading Ltd');
    await page.getByLabel('Customer e-mail').fill('billing@acme.example');
    await page.getByRole('button', { name: 'Add customer' }).click();
    await page.getByRole('button', { name: 'Issue invoice' }).waitFor();
    await page.getByLabel('Description').fill('Consulting, November');
    await page.getByLabel('Quantity').fill('3');
    await page.getByLabel('Unit price (USDC)').fill('12.5');
    await page.getByRole('button', { name: 'Issue invoice' }).click();
    await page.getByRole('status').filter({ hasText: 'Invoice INV-000001 is issued for 37.500000 USDC' }).waitFor();
    await page.getByRole('table', { name: 'Lines of invoice INV-000001' }).waitFor();
    await j.checkPage('invoices (issued)');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the PDF of invoice INV-000001' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('INV-000001.pdf');
    const { readFile } = await import('node:fs/promises');
    const pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfPageText(pdf, 1)).toContain('INV-000001');
    await page.getByLabel('Reason for voiding (optional)').fill('Issued to the wrong entity');
    await page.getByRole('button', { name: 'Void invoice INV-000001' }).click();
    await page.getByRole('button', { name: 'Yes, void it' }).click();
    await page.getByRole('status').filter({ hasText: 'Invoice INV-000001 is voided' }).waitFor();
    await page
      .getByRole('table', { name: /^Invoices/ })
      .getByText('voided', { exact: true })
      .waitFor();
    await j.checkPage('invoices (voided)');
    await j.screenshot('invoice-voided');
    const [voided] = await h.tdb.db('invoices').where({ merchant_id: m.id }).select('void_reason', 'status');
    expect(voided).toMatchObject({ void_reason: 'Issued to the wrong entity', status: 'voided' });

    // 5. Payment requests: listed, filtered, one asked for on the page; paid by the wrong payer it lands in the review
    // queue with the transfer as evidence.
    await page.getByRole('link', { name: 'Payment requests' }).click();
    const requests = page.getByRole('table', { name: /^Payment requests/ });
    await requests.getByText('INV-000001').waitFor();
    await j.checkPage('payment requests');
    await page.getByLabel('Show').selectOption('AWAITING');
    await page.getByText('No AWAITING payment requests').waitFor();
    await j.checkPage('payment requests (none awaiting)');
    await page.getByLabel('Amount (USDC)').fill('5');
    await page.getByLabel('Description').fill('Order 42');
    await page.getByLabel('Expected payer address (optional)').fill(node.accounts[2]!.address);
    await page.getByRole('button', { name: 'Create payment request' }).click();
    const created = page
      .getByRole('status')
      .filter({ hasText: /Payment request req_\w+ is ready: ask for exactly [\d.]+ USDC on base/ });
    await created.waitFor();
    const [, requestId, asked] = /Payment request (req_\w+) is ready: ask for exactly ([\d.]+) USDC/.exec(
      (await created.textContent())!,
    )!;
    await requests.getByText('Order 42').waitFor();

    // A description of 350 characters without a break (the longest the API takes) wraps, on a phone too; so does the
    // payment page the payer opens.
    const longDescription = `Ref-${'0123456789abcdef'.repeat(22)}`.slice(0, 350);
    await page.getByLabel('Amount (USDC)').fill('7');
    await page.getByLabel('Description').fill(longDescription);
    await page.getByRole('button', { name: 'Create payment request' }).click();
    await requests.getByText(longDescription).waitFor();
    await j.checkPage('payment requests (a 350-character description)');
    const payUrl = await page.getByRole('status').getByRole('link', { name: 'Its payment page' }).getAttribute('href');
    expect(payUrl).toMatch(new RegExp(`^${h.app.url}/proof/pay/req_\\w+$`));
    await page.goto(payUrl!);
    await page.getByRole('heading', { level: 1, name: /^Payment request from / }).waitFor();
    await page.getByText(longDescription).waitFor();
    await j.checkPage('payment page (a 350-character description)');
    await page.goBack();
    await requests.getByText(longDescription).waitFor();

    // The list is in the API's order, by id (not by creation time: spec section 4 and docs/proof.md), and its caption
    // says so. Made to differ from the creation order: the request with the lowest id is the newest.
    const byId = await h.tdb.db('payment_requests').where({ merchant_id: m.id }).orderBy('id', 'desc').pluck('id');
    expect(
      await h.tdb
        .db('payment_requests')
        .where({ merchant_id: m.id })
        .whereNot({ id: byId.at(-1) })
        .update({ created_at: h.tdb.db.raw("created_at - interval '1 hour'") }),
    ).toBe(byId.length - 1);
    await page.reload();
    await requests.getByText(longDescription).waitFor();
    const shown = await requests.locator('tbody > tr > th .small').allInnerTexts();
    const newest = await h.tdb
      .db('payment_requests')
      .where({ merchant_id: m.id })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .pluck('id');
    expect(shown).toEqual(byId);
    expect(newest).not.toEqual(byId);
    expect(await requests.locator('caption').innerText(), 'the caption of a list in id order').toBe(
      'Payment requests, in id order (not by date)',
    );
    await j.checkPage('payment requests (in id order)');

    await page.getByLabel('Show').selectOption('VOIDED');
    await requests.getByText('INV-000001').waitFor();
    const [viewed] = await Promise.all([
      page.waitForResponse((r) => /\/api\/integrations\/requests\/req_\w+$/.test(new URL(r.url()).pathname)),
      requests.getByRole('button', { name: /^View request/ }).click(),
    ]);
    expect(viewed.status()).toBe(200);
    await requests.getByText('Payment page of').waitFor();
    await j.checkPage('payment requests (voided, viewed)');
    await j.screenshot('payment-requests');

    const wrongPayer = await node.transfer(EVM.base.usdc, payer, wallet.address, parseUnits(asked!, 6));
    await node.mine(CONFIRMATIONS);
    await until('the payment from the wrong payer to be in review', async () =>
      (await h.tdb.db('payment_requests').where({ id: requestId }).first('status'))?.status === 'REVIEW'
        ? true
        : undefined,
    );
    await page.getByRole('link', { name: 'Review queue' }).click();
    const review = page.getByRole('article', { name: /Order 42/ });
    await review.getByText('unexpected_payer', { exact: true }).waitFor();
    await review
      .getByRole('table', { name: `Transfers seen for ${requestId}` })
      .getByText(wrongPayer)
      .waitFor();
    await j.checkPage('review queue (one)');
    await j.screenshot('review-queue');

    await page.getByRole('link', { name: 'Events' }).click();
    const events = page.getByRole('table', { name: 'Events, oldest first' });
    await events.getByText('invoice.issued').waitFor();
    await events.getByText('invoice.voided').waitFor();
    await j.checkPage('events');
    await j.screenshot('events');

    await page.getByRole('link', { name: 'Deliveries' }).click();
    const deliveries = page.getByRole('table', { name: /^Webhook deliveries/ });
    // Every event reached the receiver: the page follows the deliveries until none is under way.
    await deliveries.getByRole('row').filter({ hasText: 'invoice.voided' }).getByText('delivered').waitFor();
    await page.locator('.progress.ongoing').waitFor({ state: 'detached' });
    expect(await deliveries.getByText('delivered', { exact: true }).count()).toBe(5); // request and invoice created, invoice voided, the two requests created
    // In the API's order (by id), as its caption says.
    const deliveryIds = await h.tdb
      .db('webhook_deliveries')
      .where({ interface: 'proof', tenant_id: m.id })
      .orderBy('id', 'desc')
      .pluck('id');
    expect(await deliveries.locator('tbody > tr > th .small').allInnerTexts()).toEqual(deliveryIds);
    expect(await deliveries.locator('caption').innerText(), 'the caption of a list in id order').toBe(
      'Webhook deliveries, in id order (not by date)',
    );
    const voidedRow = deliveries.getByRole('row').filter({ hasText: 'invoice.voided' });
    await voidedRow.getByRole('button', { name: 'Show attempts' }).click();
    const attempts = page.getByRole('table', { name: /^Attempts of delivery/ });
    await attempts.getByRole('cell', { name: '200', exact: true }).waitFor();
    await attempts.getByRole('cell', { name: /^\d+ ms$/ }).waitFor();
    await j.settled();
    await j.checkPage('deliveries (attempts shown)');
    await j.screenshot('deliveries');

    await page.getByRole('link', { name: 'Plan and usage' }).click();
    await page.locator('.facts').getByText('business', { exact: true }).waitFor();
    await j.checkPage('plan and usage (business)');
    await j.finish();
  });
  it('a merchant whose trial ended buys a plan: an underpayment and an expired purchase are shown as the API says', async () => {
    const m = await h.merchant({ trial: true, networks: [] });
    await h.tdb
      .db('merchants')
      .where({ id: m.id })
      .update({ trial_started_at: new Date(Date.now() - 8 * 86_400_000) });
    const user = await createDashboardUser(h.tdb.db, m.id);
    const j = await Journey.open(browser, h.app.url, 'merchant-plan-problems');
    const { page } = j;
    await signIn(j, 'merchant', user.email, user.password, 'Plan and usage');
    await page.getByText('You have no active plan or trial').waitFor();
    await page.getByRole('heading', { name: 'Buy or renew a plan' }).waitFor();
    await j.checkPage('plan and usage (no plan)');

    // Less than the amount, from the named payer: underpaid, nothing granted.
    await page.getByLabel('Plan', { exact: true }).selectOption('starter');
    await page.getByLabel('Paying from (wallet address)').fill(payer.address);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    const payment = page.getByRole('region', { name: 'Payment for the starter plan' });
    await payment.getByText('Status: awaiting payment').waitFor();
    const payTo = (await payment.locator('dd code').first().textContent()) as Address;
    await node.transfer(EVM.base.usdc, payer, payTo, 5_000_000n);
    await node.mine(CONFIRMATIONS);
    await payment.getByText('Status: underpaid').waitFor();
    await payment.getByText('Received').waitFor();
    await payment.getByText('5.000000 USDC', { exact: true }).waitFor();
    await j.checkPage('plan (underpaid)');
    await j.screenshot('underpaid');

    // A second purchase whose payment request passes its expiry unpaid: the page shows it expired.
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await payment.getByText('Status: awaiting payment').waitFor();
    // The underpaid purchase stays open too (it frees its amount when it expires): expire only the newest.
    const open = h.tdb
      .db('platform_purchases')
      .where({ merchant_id: m.id })
      .orderBy('created_at', 'desc')
      .limit(1)
      .select('request_id');
    expect(
      await h.tdb
        .db('payment_requests')
        .whereIn('id', open)
        .where({ status: 'AWAITING' })
        .update({ expires_at: new Date(Date.now() - 1000) }),
    ).toBe(1);
    await payment.getByText('Status: expired').waitFor();
    await j.checkPage('plan (expired)');
    expect(await page.getByText('You have no active plan or trial').count()).toBe(1);
    await j.finish();
  });
});

describe('a company buys credits in a browser', () => {
  it('a company administrator buys a credit pack paid in USDC on the local chain: the page follows it until paid and the credits grow by the pack', async () => {
    const admin = await createCompanyAdmin(h.tdb.db, 'Pack Buyer Co');
    const j = await Journey.open(browser, h.app.url, 'company-buys-credits');
    const { page } = j;
    await signIn(j, 'company', admin.email, admin.password, 'API keys');
    await j.checkPage('keys');

    // The credits page says what is available and links to buying more.
    await page.getByRole('link', { name: 'Credits', exact: true }).click();
    const available = page.locator('.facts div').filter({ hasText: 'Available' }).locator('dd');
    await available.waitFor();
    await j.checkPage('credits (before)');
    const before = Number((await available.textContent())!.replace(/\D/g, ''));
    await page.getByRole('main').getByRole('link', { name: 'Buy credits' }).click();
    await page.getByRole('heading', { level: 1, name: 'Buy credits' }).waitFor();
    await page.getByText('Card checkout is not available').waitFor();
    await page.getByText('No purchases yet').waitFor();
    await j.checkPage('buy credits (none yet)');

    // A pack of 30,000 credits (29 USDC): the payment request shown; the payer sends exactly that to that address.
    await page.getByLabel('Pack', { exact: true }).selectOption('credits_30000');
    await page.getByLabel('Network').selectOption('base');
    await page.getByLabel('Paying from (wallet address)').fill(payer.address);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    const payment = page.getByRole('region', { name: 'Payment for 30,000 credits' });
    await payment.getByText('Status: awaiting payment').waitFor();
    await j.checkPage('buy credits (payment awaited)');
    const amount = parseUnits((await payment.locator('.amount').textContent())!.replace(' USDC', ''), 6);
    expect(amount > 29_000_000n && amount < 29_010_000n).toBe(true);
    const payTo = (await payment.locator('dd code').first().textContent()) as Address;
    expect(payTo).toBe(platform);
    await node.transfer(EVM.base.usdc, payer, payTo, amount);
    await node.mine(CONFIRMATIONS);

    // The page follows the purchase until the watcher confirmed it; the credits shown above are loaded again.
    await payment.getByText('Status: paid').waitFor();
    await payment.getByText('Paid: 30,000 credits were added to your wallet.').waitFor();
    await available.filter({ hasText: `${(before + 30_000).toLocaleString('en-GB')} credits` }).waitFor();
    await page
      .getByRole('table', { name: /^Your credit pack purchases/ })
      .getByText('paid', { exact: true })
      .waitFor();
    await j.checkPage('buy credits (paid)');
    await j.screenshot('paid');

    // The ledger holds the grant.
    await page.getByRole('link', { name: 'Credits', exact: true }).click();
    await page
      .getByRole('table', { name: 'Ledger entries, oldest first' })
      .getByRole('row')
      .filter({ hasText: 'Credits added' })
      .filter({ hasText: '30,000' })
      .waitFor();
    await j.checkPage('credits (after)');
    await page.getByRole('main').getByRole('link', { name: 'Buy credits' }).click();
    await page
      .getByRole('table', { name: /^Your credit pack purchases/ })
      .getByText('paid', { exact: true })
      .waitFor();
    await j.checkPage('buy credits (after)');
    await j.finish();
  });
});
