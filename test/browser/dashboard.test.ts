import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryOutcome } from '../helpers/deliveries.js';
import type { Browser } from 'playwright-core';
import { createCompanyAdmin, createDashboardUser, DashboardClient } from '../helpers/dashboard.js';
import { ProofHarness } from '../helpers/proof.js';
import { startReceiver } from '../helpers/receiver.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server.js';
import { focusedName, Journey, launchBrowser, signIn, tabTo, takeSecret } from './browser.js';

/**
 * The dashboard (web/, served at /dashboard) in Debian's Chromium against the real app, PostgreSQL and Temporal: the
 * journeys of issue 18 that today's session routes allow, the session-expiry and CSRF-failure paths, axe-core on
 * every page shown, and a screenshot of each journey's last screen (var/artifacts/screenshots).
 */
const h = new ProofHarness();
let browser: Browser;
/** The app's mail: company invitations reach their invitees here, and only here. */
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  await h.start(smtp.env, { workflows: true });
  await h.startMailWorker(smtp.env); // a worker with every activity (webhook deliveries among them)
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await h.stop();
  await smtp?.close();
});

const journey = (name: string): Promise<Journey> => Journey.open(browser, h.app.url, name);

describe('dashboard in a browser', () => {
  it('a company administrator signs in, invites a member (who accepts from the e-mail), creates a key (secret shown once) and registers a webhook', async () => {
    const admin = await createCompanyAdmin(h.tdb.db, 'Browser Co');
    const j = await journey('company-admin');
    const { page } = j;
    await signIn(j, 'company', admin.email, admin.password, 'API keys');
    await j.checkPage('keys (empty)');
    await page.getByText('No keys yet').waitFor();

    // Members: invite one; the invitation is e-mailed to the address (the page never shows its token), then listed.
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await j.checkPage('members');
    await page.getByLabel('E-mail address').fill('new.colleague@example.com');
    await page.getByLabel('Role').selectOption('member');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByText('An invitation was e-mailed to new.colleague@example.com.').waitFor();
    await page
      .getByRole('table', { name: 'Open invitations' })
      .getByRole('rowheader', { name: 'new.colleague@example.com' })
      .waitFor();
    await j.checkPage('members (invited)');
    const link = /https?:\/\/\S+#token=([A-Za-z0-9_-]{43})/.exec(
      smtp.to('new.colleague@example.com')[0]?.parsed.text ?? '',
    );
    expect(link, 'the invitation e-mail holds the acceptance link').not.toBeNull();
    expect(await page.content()).not.toContain(link![1]!);

    // Keys: the secret is shown once and works against /v1; after a reload only its prefix and last four are shown.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await page.getByLabel('Name').fill('browser key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await takeSecret(j, /Key browser key is ready/);
    expect(secret).toMatch(/^sk_live_/);
    const v1 = await fetch(`${h.app.url}/v1/jobs/job_${'A'.repeat(20)}`, {
      headers: { Authorization: `Bearer ${secret}` },
    });
    expect(v1.status).toBe(404); // authenticated: the job is simply not there
    await v1.arrayBuffer();
    await page.reload();
    await page.getByRole('table', { name: 'API keys' }).getByRole('rowheader', { name: 'browser key' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await j.checkPage('keys (one key)');

    // Webhooks: registered through POST /v1/webhooks; the signing secret is shown once.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await j.checkPage('webhooks (empty)');
    await page.getByLabel('URL').fill('https://hooks.example.com/paycore');
    await page.getByRole('button', { name: 'Register webhook' }).click();
    const whsec = await takeSecret(j, /Webhook https:\/\/hooks\.example\.com\/paycore is registered/);
    expect(whsec).toMatch(/^whsec_/);
    await page
      .getByRole('table', { name: 'Webhooks' })
      .getByRole('rowheader', { name: 'https://hooks.example.com/paycore' })
      .waitFor();
    // Rotation: confirmed in a second step, the new secret shown once.
    await page.getByRole('button', { name: 'Rotate secret of https://hooks.example.com/paycore' }).click();
    await page.getByRole('button', { name: 'Yes, rotate' }).click();
    const rotated = await takeSecret(j, /New signing secret for https:\/\/hooks\.example\.com\/paycore \(version 2\)/);
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(whsec);

    // The other pages of the section, each checked.
    await page.getByRole('link', { name: 'Deliveries' }).click();
    await page.getByText('No deliveries yet').waitFor();
    await j.checkPage('deliveries (empty)');
    await page.getByRole('link', { name: 'Saved workflows' }).click();
    await page.getByRole('heading', { level: 1, name: 'Saved workflows' }).waitFor();
    await j.checkPage('saved workflows (empty)');
    await page.getByLabel('Name').fill('Invoices');
    await page.getByLabel('Fields to extract').fill('invoice_number\ntotal');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('table', { name: 'Saved workflows' }).getByRole('rowheader', { name: 'Invoices' }).waitFor();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('table', { name: 'Webhooks' }).waitFor();
    await j.checkPage('webhooks (one)');
    await j.finish();

    // What the browser did, as the API sees it.
    const api = new DashboardClient(h.app.url, '/api/company');
    expect((await api.signIn(admin.email, admin.password)).status).toBe(201);
    const keys = (await (await api.request('GET', '/keys')).json()) as { data: Array<{ name: string }> };
    expect(keys.data.map((k) => k.name)).toEqual(['browser key']);
    const invitations = (await (await api.request('GET', '/invitations')).json()) as { data: Array<{ email: string }> };
    expect(invitations.data.map((i) => i.email)).toEqual(['new.colleague@example.com']);

    // The invitee opens the link of the e-mail in their own browser, chooses a password, and signs in as a member.
    const invitee = await journey('company-invitee');
    await invitee.page.goto(link![0]!);
    await invitee.page.getByRole('heading', { level: 1, name: 'Accept an invitation' }).waitFor();
    expect(invitee.page.url()).not.toContain(link![1]!); // the token is taken out of the address bar (and the history)
    await invitee.checkPage('accept invitation');
    await invitee.page.getByLabel('Password', { exact: true }).fill('new colleague password');
    await invitee.page.getByLabel('Password again').fill('new colleague password');
    await invitee.page.getByRole('button', { name: 'Join the company' }).click();
    await invitee.page.getByText('You joined Browser Co as member.').waitFor();
    await invitee.checkPage('invitation accepted');
    await invitee.page.getByRole('link', { name: 'Sign in' }).click();
    await invitee.page.getByRole('heading', { name: 'Sign in to Paycore' }).waitFor();
    await invitee.checkPage('sign-in');
    await invitee.page.getByLabel('E-mail address').fill('new.colleague@example.com');
    await invitee.page.getByLabel('Password').fill('new colleague password');
    await invitee.page.getByRole('button', { name: 'Sign in' }).click();
    await invitee.page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor();
    await invitee.checkPage('jobs (the new member)');
    await invitee.finish();
    const members = (await (await api.request('GET', '/members')).json()) as {
      data: Array<{ email: string; role: string }>;
    };
    expect(members.data).toContainEqual(
      expect.objectContaining({ email: 'new.colleague@example.com', role: 'member' }),
    );
  });

  it('a merchant signs in, sees the plan, creates a key and a webhook destination', async () => {
    const m = await h.merchant({ trial: true });
    const user = await createDashboardUser(h.tdb.db, m.id);
    const j = await journey('merchant');
    const { page } = j;
    await signIn(j, 'merchant', user.email, user.password, 'Plan and usage');
    await page.getByText('Active keys').waitFor();
    await j.checkPage('plan and usage');

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await j.checkPage('keys');
    // The trial allows one active key, and the merchant has one: creating another shows the API's refusal.
    await page.getByLabel('Name').fill('checkout server');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The key was not created' })
      .filter({ hasText: 'limit_reached' })
      .waitFor();
    await j.checkPage('keys (limit reached)');
    // Revoke the old one in two steps, by keyboard only. The confirmation opens on its safe choice (Cancel); Escape
    // closes it and gives the focus back to the button that opened it; neither a double nor a held Enter confirms.
    const opener = page.getByRole('button', { name: 'Revoke key server' });
    const asking = page.getByRole('group', { name: 'Confirm: Revoke key server' });
    await tabTo(page, opener);
    await page.keyboard.press('Enter');
    await asking.waitFor();
    expect(await focusedName(page), 'the focus when the confirmation opens').toBe('Cancel');
    await j.checkPage('keys (revocation asked)');
    await page.keyboard.press('Escape');
    await asking.waitFor({ state: 'detached' });
    expect(await focusedName(page), 'the focus after Escape').toBe('Revoke key server');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter'); // a double Enter: asks, then lands on Cancel
    await asking.waitFor({ state: 'detached' });
    expect(await focusedName(page), 'the focus after a double Enter').toBe('Revoke key server');
    await page.keyboard.down('Enter'); // a held Enter: the key repeats
    for (let i = 0; i < 5; i++) await page.keyboard.down('Enter');
    await page.keyboard.up('Enter');
    await asking.waitFor();
    expect(await focusedName(page), 'the focus after a held Enter').toBe('Cancel');
    const stillValid = await fetch(`${h.app.url}/proof/v1/me`, { headers: { Authorization: `Bearer ${m.key}` } });
    expect(stillValid.status, 'the key after Escape, a double and a held Enter').toBe(200);
    await stillValid.arrayBuffer();
    expect(
      await h.tdb
        .db('api_keys')
        .where({ tenant_id: m.id })
        .whereNotNull('revoked_at')
        .count<{ count: string }[]>()
        .then((r) => Number(r[0]!.count)),
    ).toBe(0);
    // Confirmed on purpose: Tab to the confirming button, Enter.
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Yes, revoke');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Key server is revoked' }).waitFor();
    const old = await fetch(`${h.app.url}/proof/v1/me`, { headers: { Authorization: `Bearer ${m.key}` } });
    expect(old.status).toBe(401);
    await old.arrayBuffer();
    await page.getByRole('checkbox', { name: 'write' }).uncheck();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await takeSecret(j, /Key checkout server is ready/);
    expect(secret).toMatch(/^skp_/);
    const me = await fetch(`${h.app.url}/proof/v1/me`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(me.status, await me.clone().text()).toBe(200);
    await me.arrayBuffer();
    await page.getByRole('table', { name: 'API keys' }).getByRole('rowheader', { name: 'checkout server' }).waitFor();

    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByRole('group', { name: 'Events' }).waitFor();
    await j.checkPage('webhooks');
    await page.getByLabel('URL').fill('https://hooks.example.com/shop');
    await page.getByRole('button', { name: 'Register webhook' }).click();
    const whsec = await takeSecret(j, /Webhook https:\/\/hooks\.example\.com\/shop is registered/);
    expect(whsec).toMatch(/^whsec_/);
    await page
      .getByRole('table', { name: 'Webhooks' })
      .getByRole('rowheader', { name: 'https://hooks.example.com/shop' })
      .waitFor();
    await j.checkPage('webhooks (one)');

    await page.getByRole('link', { name: 'Deliveries' }).click();
    await page.getByText('No deliveries yet').waitFor();
    await j.checkPage('deliveries (empty)');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('table', { name: 'Webhooks' }).waitFor();
    await j.checkPage('webhooks (final)');
    await j.finish();
  });

  it('a merchant retries a failed delivery and watches it delivered', async () => {
    const m = await h.merchant({ plan: 'business' });
    const user = await createDashboardUser(h.tdb.db, m.id);
    let answer = 302; // a redirect is a terminal failure: the delivery ends failed after one attempt
    const receiver = await startReceiver(() => answer);
    try {
      const api = new DashboardClient(h.app.url);
      expect((await api.signIn(user.email, user.password)).status).toBe(201);
      const hook = await api.request('POST', '/webhooks', { url: receiver.url, events: ['payment_request.created'] });
      expect(hook.status, await hook.clone().text()).toBe(201);
      const request = await h.call(m.key, 'POST', '/v1/requests', {
        wallet_id: m.wallets['base'],
        amount_usdc: '12.50',
        description: 'Order from the browser test',
      });
      expect(request.status, await request.clone().text()).toBe(201);
      const { id: hookId } = (await hook.json()) as { id: string };
      const [row] = await h.tdb.db('webhook_deliveries').where({ endpoint_id: hookId }).select('id');
      expect(row).toBeDefined();
      await deliveryOutcome(h.tdb.db, row.id);

      const j = await journey('merchant-retry');
      const { page } = j;
      await signIn(j, 'merchant', user.email, user.password, 'Plan and usage');
      await j.checkPage('plan and usage');
      await page.getByRole('link', { name: 'Deliveries' }).click();
      const table = page.getByRole('table', { name: /^Webhook deliveries/ });
      await table.getByText('failed').waitFor();
      await j.checkPage('deliveries (one failed)');
      answer = 200;
      await table.getByRole('button', { name: 'Retry' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `Delivery ${row.id}: a retry from attempt 2 has started` })
        .waitFor();
      // The page follows the delivery until it is delivered.
      await table.getByText('delivered').waitFor();
      await page.locator('.progress.ongoing').waitFor({ state: 'detached' });
      expect(await table.getByRole('button', { name: 'Retry' }).count()).toBe(0);
      await j.checkPage('deliveries (delivered)');
      await j.finish();
      expect(receiver.requests).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });

  it('an ended session takes the app back to sign-in with a message', async () => {
    const admin = await createCompanyAdmin(h.tdb.db, 'Expiry Co');
    const j = await journey('session-expired');
    const { page } = j;
    await signIn(j, 'company', admin.email, admin.password, 'API keys');
    await j.checkPage('keys');
    // The session reaches its absolute end (as after SESSION_TTL_HOURS): the next request finds it gone.
    const ended = await h.tdb
      .db('company_sessions')
      .where({ member_id: admin.memberId })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect(ended).toBe(1);
    await page.getByRole('link', { name: 'Members' }).click();
    j.passThrough('/dashboard/company/members'); // its first request finds the session gone: straight on to sign-in
    await page.getByRole('heading', { level: 1, name: 'Sign in to Paycore' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Your session has ended. Sign in again to continue.' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    expect(await page.getByRole('radio', { name: /Company/ }).isChecked()).toBe(true);
    await j.checkPage('sign-in after expiry');
    await j.finish();
  });

  it("a refused CSRF token is shown as the API's error and changes nothing; sign-out still works", async () => {
    const admin = await createCompanyAdmin(h.tdb.db, 'Csrf Co');
    const j = await journey('csrf-failure');
    const { page } = j;
    await signIn(j, 'company', admin.email, admin.password, 'API keys');
    await j.checkPage('keys');
    // The page's mutations leave with a token that is not the session's (as after a forged or stale page).
    await page.route('**/api/company/keys', async (route) => {
      const req = route.request();
      if (req.method() !== 'POST') return route.continue();
      return route.continue({ headers: { ...req.headers(), 'x-csrf-token': '0'.repeat(64) } });
    });
    await page.getByLabel('Name').fill('forged');
    await page.getByRole('button', { name: 'Create key' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The key was not created' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Missing or invalid X-CSRF-Token header');
    expect(await alert.textContent()).toContain('csrf_failed');
    await j.checkPage('keys with the CSRF error');
    // Nothing changed: no key, no secret shown, still signed in.
    expect(await page.getByRole('region', { name: /is ready/ }).count()).toBe(0);
    expect(
      await h.tdb
        .db('api_keys')
        .where({ tenant_id: admin.companyId })
        .count<{ count: string }[]>()
        .then((r) => Number(r[0]!.count)),
    ).toBe(0);
    await page.getByText('No keys yet').waitFor();
    await j.screenshot('refused');
    // Still signed in: signing out (a DELETE with the session's own token, which the route above leaves alone) works.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('status').filter({ hasText: 'You are signed out.' }).waitFor();
    await j.checkPage('signed out');
    const [session] = await h.tdb.db('company_sessions').where({ member_id: admin.memberId }).select('ended_at');
    expect(session?.ended_at).not.toBeNull();
    await j.finish();
  });
});
