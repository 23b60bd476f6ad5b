import type { ReactElement } from 'react';
import type { Account } from './session';
import { MerchantOverviewPage } from './pages/merchant/overview';
import { MerchantKeysPage } from './pages/merchant/keys';
import { MerchantWebhooksPage } from './pages/merchant/webhooks';
import { MerchantDeliveriesPage } from './pages/merchant/deliveries';
import { MerchantWalletsPage } from './pages/merchant/wallets';
import { MerchantRequestsPage } from './pages/merchant/requests';
import { MerchantInvoicesPage } from './pages/merchant/invoices';
import { MerchantEventsPage } from './pages/merchant/event-feed';
import { MerchantReviewsPage } from './pages/merchant/reviews';
import { CompanyKeysPage } from './pages/company/keys';
import { CompanyMembersPage } from './pages/company/members';
import { CompanyWebhooksPage } from './pages/company/webhooks';
import { CompanyDeliveriesPage } from './pages/company/deliveries';
import { CompanyWorkflowsPage } from './pages/company/workflows';
import { CompanyJobPage, CompanyJobsPage } from './pages/company/jobs';
import { CompanyBatchesPage, CompanyBatchPage } from './pages/company/batches';
import { CompanyCreditsPage } from './pages/company/credits';
import { CompanyBuyCreditsPage } from './pages/company/buy-credits';
import { CompanyReviewPage } from './pages/company/review';

/**
 * Every page of the app, one table per kind of account: the route (under /dashboard/<kind>/), the title (navigation,
 * heading and document title) and the component. Adding a page is a file under pages/<kind>/ and a line here
 * (docs/dashboard.md "Adding a page"). The first page of a table is the section's home.
 */
export interface PageDef {
  path: string;
  title: string;
  element: ReactElement;
  /** Company pages only a billing administrator can use: left out of a member's navigation. */
  billingAdmin?: boolean;
  /** A page reached from another (a detail page, `path` with a `:param`): not in the navigation. */
  detail?: boolean;
}

export const MERCHANT_PAGES: readonly PageDef[] = [
  { path: 'overview', title: 'Plan and usage', element: <MerchantOverviewPage /> },
  { path: 'wallets', title: 'Wallets', element: <MerchantWalletsPage /> },
  { path: 'requests', title: 'Payment requests', element: <MerchantRequestsPage /> },
  { path: 'invoices', title: 'Invoices', element: <MerchantInvoicesPage /> },
  { path: 'review', title: 'Review queue', element: <MerchantReviewsPage /> },
  { path: 'events', title: 'Events', element: <MerchantEventsPage /> },
  { path: 'keys', title: 'API keys', element: <MerchantKeysPage /> },
  { path: 'webhooks', title: 'Webhooks', element: <MerchantWebhooksPage /> },
  { path: 'deliveries', title: 'Deliveries', element: <MerchantDeliveriesPage /> },
];

export const COMPANY_PAGES: readonly PageDef[] = [
  { path: 'keys', title: 'API keys', element: <CompanyKeysPage />, billingAdmin: true },
  { path: 'members', title: 'Members', element: <CompanyMembersPage />, billingAdmin: true },
  { path: 'webhooks', title: 'Webhooks', element: <CompanyWebhooksPage />, billingAdmin: true },
  { path: 'deliveries', title: 'Deliveries', element: <CompanyDeliveriesPage />, billingAdmin: true },
  { path: 'jobs', title: 'Jobs', element: <CompanyJobsPage /> },
  { path: 'batches', title: 'Batches', element: <CompanyBatchesPage /> },
  { path: 'credits', title: 'Credits', element: <CompanyCreditsPage /> },
  { path: 'buy-credits', title: 'Buy credits', element: <CompanyBuyCreditsPage />, billingAdmin: true },
  { path: 'workflows', title: 'Saved workflows', element: <CompanyWorkflowsPage /> },
  { path: 'jobs/:id', title: 'Job', element: <CompanyJobPage />, detail: true },
  { path: 'jobs/:id/review', title: 'Extraction review', element: <CompanyReviewPage />, detail: true },
  { path: 'batches/:id', title: 'Batch', element: <CompanyBatchPage />, detail: true },
];

/** The pages an account may use: a company member who is not a billing administrator does without the admin's. */
export const pagesFor = (account: Pick<Account, 'kind'> & { role?: string }): readonly PageDef[] =>
  account.kind === 'merchant'
    ? MERCHANT_PAGES
    : account.role === 'billing_admin'
      ? COMPANY_PAGES
      : COMPANY_PAGES.filter((p) => !p.billingAdmin);

/**
 * The first page an account sees after signing in (router paths, without the /dashboard basename): the first page of
 * its table it may use (a member who is not a billing administrator starts on the jobs, not on the keys they may not see).
 */
export const homeOf = (account: Pick<Account, 'kind'> & { role?: string }): string =>
  `/${account.kind}/${pagesFor(account)[0]!.path}`;
