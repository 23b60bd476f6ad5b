import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ExtractionJson } from '../../adapters/documents/extraction-exports.js';
import { hashPassword } from '../../adapters/crypto/password.js';
import { setAccountPassword } from '../../db/repositories/company-sessions.repo.js';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';
import { batchClient } from '../helpers/batches.js';
import { generateInvoice, renderInvoice } from '../../support/invoice-corpus.js';
import { samplePdf } from '../../support/sample-files.js';
import { DashboardClient, inviteAndAccept } from '../helpers/dashboard.js';
import { Journey, launchBrowser } from './browser.js';

/**
 * The /v1 company half of the dashboard (issue 18, section 3) in Debian's Chromium against the real app, PostgreSQL
 * and Temporal with its workers: a company administrator watches a batch of two flow-extract items submitted with an
 * API key run to the end on the batch page, corrects a field in a child's extraction review, downloads the
 * regenerated export and finds the correction in it, and sees the charge in the credits ledger. axe-core on every page.
 */
const h = new ProcessingHarness();
const b = batchClient(h);
let browser: Browser;
let acme: TestCompany;
let email: string;
const PASSWORD = 'journey owner password';
const FIELDS = ['invoice_number', 'invoice_date', 'total', 'currency'];

beforeAll(async () => {
  await h.start();
  acme = await h.company('Journey');
  const owner = await h.tdb
    .db('members as m')
    .join('accounts as a', 'a.id', 'm.account_id')
    .where('m.id', acme.ownerId)
    .first('a.id as account_id', 'a.email');
  email = owner.email as string;
  await setAccountPassword(h.tdb.db, owner.account_id, await hashPassword(PASSWORD), new Date());
  browser = await launchBrowser();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await h.stop();
});

const journey = (name: string): Promise<Journey> => Journey.open(browser, h.app.url, name);

describe('company jobs, batches, review and credits in a browser', () => {
  it('an administrator watches a flow-extract batch finish, corrects a total, downloads the regenerated export and sees the charge', async () => {
    const j = await journey('company-batch-review');
    const { page } = j;
    await page.goto('/dashboard/');
    await page.getByRole('heading', { name: 'Sign in to Paycore' }).waitFor();
    await j.checkPage('sign-in');
    await page.getByRole('radio', { name: /Company/ }).check();
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await j.checkPage('keys');

    // Empty states say how to submit work with an API key.
    await page.getByRole('link', { name: 'Batches', exact: true }).click();
    await page.getByText('No batches yet').waitFor();
    await page.getByText('POST /v1/batches').waitFor();
    await j.checkPage('batches (empty)');

    // A client submits a batch of two invoices with the company's API key; no worker runs yet, so it stays queued.
    await h.stopWorkers();
    const invoices = [
      generateInvoice(41, { layout: 'label-left', itemCount: 2, dateFormat: 'iso' }),
      generateInvoice(42, { layout: 'label-left', itemCount: 2, dateFormat: 'iso' }),
    ];
    const uploads: string[] = [];
    for (const [i, inv] of invoices.entries())
      uploads.push(
        await h.upload(acme.key, `invoice-${41 + i}.pdf`, Buffer.from((await renderInvoice(inv, 'text_pdf')).bytes)),
      );
    const batch = await b.submitOk(acme.key, { operation: 'flow-extract', upload_ids: uploads, fields: FIELDS });

    // The list follows it, and so does its page: progress is shown while it runs.
    await page.getByRole('link', { name: batch.id }).click();
    await page.getByRole('heading', { level: 1, name: 'Batch' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'The batch is queued: 0 of 2 items have ended' }).waitFor();
    await j.checkPage('batch (queued)');
    await j.screenshot('running');
    await h.startWorker();
    await page.getByRole('link', { name: 'Download results (ZIP)' }).waitFor({ timeout: 300_000 });
    const facts = page.locator('.facts');
    await facts.getByText('completed', { exact: true }).waitFor();
    await facts.getByText('2 of 2').waitFor();
    await j.checkPage('batch (completed)');

    // The first child's review: the total beside its evidence; correct it (first in a wrong form: the API's 422 message).
    await page.getByRole('link', { name: 'Review the extraction of item 0' }).click();
    await page.getByRole('heading', { level: 1, name: 'Extraction review' }).waitFor();
    const fieldsTable = page.getByRole('table', { name: /^Fields of / });
    await fieldsTable.getByRole('rowheader', { name: 'total' }).waitFor();
    const truthTotal = invoices[0]!.truth.fields.total!;
    await expect(fieldsTable.getByRole('row').filter({ hasText: 'total' }).first().innerText()).resolves.toContain(
      truthTotal,
    );
    // Where it was read: the page and the box in points (a text PDF has word boxes), and each line item's too.
    await expect(fieldsTable.getByRole('row').filter({ hasText: 'total' }).first().innerText()).resolves.toMatch(
      /page 1, x \d+–\d+, y \d+–\d+/u,
    );
    const itemsTable = page.getByRole('table', { name: /^Line items of / });
    await expect(itemsTable.getByRole('row').nth(1).innerText()).resolves.toMatch(/page 1, x \d+–\d+, y \d+–\d+/u);
    await j.checkPage('review');
    await fieldsTable.getByRole('button', { name: /^Correct total of / }).click();
    const input = page.getByLabel('New value of total');
    await page.getByText('a plain decimal with "." and no grouping').waitFor(); // the expected form is shown
    await input.fill('1,234.50');
    await page.getByRole('button', { name: 'Save correction' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'The correction was not saved' });
    await refusal
      .getByText(/total takes a plain decimal/)
      .first()
      .waitFor();
    await j.checkPage('review (422)');
    await input.fill('1234.50');
    await page.getByRole('button', { name: 'Save correction' }).click();
    await page.getByRole('status').filter({ hasText: 'total is corrected (revision 1)' }).waitFor();
    await page.getByRole('list', { name: 'Reviewed files' }).waitFor();
    await j.checkPage('review (corrected)');
    await j.screenshot('review');

    // The regenerated JSON export holds the correction.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page
        .getByRole('list', { name: 'Reviewed files' })
        .getByRole('link', { name: /-reviewed\.json$/ })
        .click(),
    ]);
    const json = ExtractionJson.parse(JSON.parse(await readFile((await download.path())!, 'utf8')));
    expect(json.documents[0]!.fields).toMatchObject({
      total: '1234.5',
      invoice_number: invoices[0]!.truth.fields.invoice_number,
    });
    expect(json.documents[0]!.corrections.map((c) => [c.field, c.previous_value, c.value])).toEqual([
      ['total', truthTotal, '1234.5'],
    ]);

    // The job page and the credits: the batch's children were charged, and the chart is drawn from the ledger.
    await page.getByRole('link', { name: 'Back to the job' }).click();
    await page.getByRole('heading', { level: 1, name: 'Job' }).waitFor();
    await page.getByRole('link', { name: 'Review the extraction' }).waitFor();
    await j.checkPage('job');
    const charged = batch.jobs.map((c) => c.id);
    await page.getByRole('link', { name: 'Credits', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Credits' }).waitFor();
    const ledger = page.getByRole('table', { name: 'Ledger entries, oldest first' });
    for (const id of charged)
      await ledger.getByRole('row').filter({ hasText: 'Charged (job completed)' }).filter({ hasText: id }).waitFor();
    await page.getByRole('img', { name: /Credits used per day/ }).waitFor();
    await page.getByRole('link', { name: 'Jobs', exact: true }).click();
    await page.getByRole('table', { name: 'Jobs, newest first' }).getByRole('link', { name: charged[0]! }).waitFor();
    await j.checkPage('jobs');
    await page.getByRole('link', { name: 'Credits', exact: true }).click();
    await page.getByRole('img', { name: /Credits used per day/ }).waitFor();
    await j.checkPage('credits');
    await j.finish();
  }, 600_000);

  it("an administrator retries a batch's failed item from its page; a double click makes one retry batch", async () => {
    const good = await h.upload(acme.key, 'good.pdf', await samplePdf(1));
    const bad = await h.upload(acme.key, 'bad.pdf', await samplePdf(1));
    const original = readFileSync(h.store.pathOf(bad));
    writeFileSync(h.store.pathOf(bad), original.subarray(0, 40)); // measured, then damaged: its item fails
    const batch = await b.submitOk(acme.key, {
      operation: 'pdf-rotate',
      upload_ids: [good, bad],
      options: { angle: 90 },
    });
    await b.waitForBatch(acme.key, batch.id);
    writeFileSync(h.store.pathOf(bad), original); // repaired: the retry can succeed

    const j = await journey('company-batch-retry');
    const { page } = j;
    await page.goto(`/dashboard/company/batches/${batch.id}`);
    await page.getByRole('heading', { name: 'Sign in to Paycore' }).waitFor();
    await j.checkPage('sign-in');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Batch' }).waitFor(); // back where the link pointed
    await page.locator('.facts').getByText('partial', { exact: true }).waitFor();
    await j.checkPage('batch (partial)');
    await page.getByRole('button', { name: 'Retry the failed item' }).dblclick();
    const notice = page.getByRole('status').filter({ hasText: 'The failed items are queued again as batch' });
    await notice.waitFor();
    const retryId = (await notice.getByRole('link').innerText()).trim();
    expect(retryId).toMatch(/^bat_/);
    expect(await h.tdb.db('batches').where({ retry_of: batch.id }).select('id', 'member_id')).toEqual([
      { id: retryId, member_id: acme.ownerId },
    ]);
    await j.checkPage('batch (retried)');
    await notice.getByRole('button', { name: 'Follow it' }).click();
    await page.getByText(`Retries the failed items of ${batch.id}`).waitFor();
    await page.locator('.facts').getByText('completed', { exact: true }).waitFor({ timeout: 300_000 });
    await page.getByRole('link', { name: 'Download results (ZIP)' }).waitFor();
    await j.checkPage('retry batch (completed)');
    await j.finish();
  }, 600_000);

  it('a member who is not a billing administrator lands on the jobs and sees batches (without Retry) and credits', async () => {
    const owner = new DashboardClient(h.app.url, '/api/company');
    expect((await owner.signIn(email, PASSWORD, { idem: null })).status).toBe(201);
    const accepted = await inviteAndAccept(owner, h.smtp, 'viewer@journey.example', 'viewer password 1');
    expect(accepted.status, await accepted.clone().text()).toBe(201);
    const partial = await h.tdb.db('batches').where({ company_id: acme.id, status: 'partial' }).first('id');

    const j = await journey('company-member');
    const { page } = j;
    await page.goto('/dashboard/');
    await page.getByRole('heading', { name: 'Sign in to Paycore' }).waitFor();
    await j.checkPage('sign-in');
    await page.getByRole('radio', { name: /Company/ }).check();
    await page.getByLabel('E-mail address').fill('viewer@journey.example');
    await page.getByLabel('Password').fill('viewer password 1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor(); // a member's home
    await page.getByRole('table', { name: 'Jobs, newest first' }).waitFor();
    await j.checkPage('jobs');
    const nav = page.getByRole('navigation', { name: 'Company sections' });
    expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Jobs', 'Batches', 'Credits', 'Saved workflows']);
    await nav.getByRole('link', { name: 'Batches' }).click();
    const batchLink = page
      .getByRole('table', { name: 'Batches, newest first' })
      .getByRole('link', { name: partial.id as string, exact: true });
    await batchLink.waitFor();
    await j.checkPage('batches (member)');
    await batchLink.click();
    await page.locator('.facts').getByText('partial', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Download results (ZIP)' }).waitFor();
    expect(await page.getByRole('button', { name: /Retry/ }).count()).toBe(0);
    await j.checkPage('batch (member)');
    await nav.getByRole('link', { name: 'Credits' }).click();
    await page.getByRole('img', { name: /Credits used per day/ }).waitFor();
    await j.checkPage('credits (member)');
    await j.finish();
  }, 300_000);
});
