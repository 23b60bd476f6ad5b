import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Layout } from './components/layout';
import { Progress } from './components/feedback';
import { COMPANY_PAGES, homeOf, MERCHANT_PAGES, type PageDef } from './pages';
import { SignInPage } from './pages/sign-in';
import { AcceptInvitationPage } from './pages/accept-invitation';
import { useSession, type AccountKind } from './session';

/** A section (merchant or company): its pages behind a session of that kind; anything else goes to sign-in. */
function Section({ kind, pages, label }: { kind: AccountKind; pages: readonly PageDef[]; label: string }) {
  const { account } = useSession();
  const location = useLocation();
  if (account === undefined) return <Progress label="Loading…" />;
  if (!account || account.kind !== kind) {
    const next = encodeURIComponent(location.pathname);
    return <Navigate to={`/sign-in?as=${kind}&next=${next}`} replace />;
  }
  const visible =
    account.kind === 'company' && account.role !== 'billing_admin' ? pages.filter((p) => !p.billingAdmin) : pages;
  return (
    <Routes>
      <Route element={<Layout section={label} base={`/${kind}`} pages={visible} />}>
        <Route index element={<Navigate to={`/${kind}/${visible[0]!.path}`} replace />} />
        {visible.map((p) => (
          <Route key={p.path} path={p.path} element={p.element} />
        ))}
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}

function NotFound() {
  return <p>There is no such page. Choose a section in the navigation.</p>;
}

function Home() {
  const { account } = useSession();
  if (account === undefined) return <Progress label="Loading…" />;
  return <Navigate to={account ? homeOf(account) : '/sign-in'} replace />;
}

export function App() {
  const { account } = useSession();
  return (
    <Routes>
      <Route path="/" element={<Home />} />
      <Route path="/sign-in" element={account === undefined ? <Progress label="Loading…" /> : <SignInPage />} />
      {/* Public: the link of an invitation e-mail (no session needed, whoever is signed in). */}
      <Route path="/accept-invitation" element={<AcceptInvitationPage />} />
      <Route path="/merchant/*" element={<Section kind="merchant" pages={MERCHANT_PAGES} label="Merchant" />} />
      <Route path="/company/*" element={<Section kind="company" pages={COMPANY_PAGES} label="Company" />} />
      <Route path="*" element={<Home />} />
    </Routes>
  );
}
