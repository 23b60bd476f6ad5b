import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ApiClient, ApiError, SESSION_ENDED } from './backend/client';
import type {
  CompanyApi,
  CompanyPaths,
  MerchantPaths,
  CompanySession,
  MerchantApi,
  MerchantSession,
  Role,
} from './backend/api';

/**
 * Who is signed in, and the API client of that session. The two kinds of account have separate sessions on the
 * server (`/api/integrations` for a /proof merchant's user, `/api/company` for a /v1 company's member); the app
 * works as one of them at a time.
 */
export type AccountKind = 'merchant' | 'company';

export type Account =
  | { kind: 'merchant'; email: string; name: string; api: MerchantApi }
  | { kind: 'company'; email: string; name: string; role: Role; api: CompanyApi };

interface SessionValue {
  /** null: nobody is signed in; undefined: still finding out (the first page load). */
  account: Account | null | undefined;
  /** Why the last session ended, shown on the sign-in page (e.g. it expired). */
  notice: string | null;
  signIn(kind: AccountKind, email: string, password: string): Promise<Account>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The signed-in account of a page that requires one (the page's route guard made sure there is one). */
export function useAccount<K extends AccountKind>(kind: K): Extract<Account, { kind: K }> {
  const { account } = useSession();
  if (!account || account.kind !== kind) throw new Error(`no ${kind} session`);
  return account as Extract<Account, { kind: K }>;
}

const fromMerchant = (s: MerchantSession, api: MerchantApi): Account => ({
  kind: 'merchant',
  email: s.user.email,
  name: s.merchant.name,
  api,
});
const fromCompany = (s: CompanySession, api: CompanyApi): Account => ({
  kind: 'company',
  email: s.member.email,
  name: s.company.name,
  role: s.member.role,
  api,
});

export function SessionProvider({ children, preferred }: { children: ReactNode; preferred: () => AccountKind | null }) {
  const [account, setAccount] = useState<Account | null | undefined>(undefined);
  const [notice, setNotice] = useState<string | null>(null);
  const preferredRef = useRef(preferred);

  const clients = useMemo(() => {
    const ended = (message: string) => {
      setNotice(message);
      setAccount(null);
    };
    return {
      merchant: new ApiClient<MerchantPaths>({
        prefix: '/api/integrations',
        idempotencyKeys: true,
        onSessionEnded: ended,
      }),
      company: new ApiClient<CompanyPaths>({ prefix: '/api/company', idempotencyKeys: false, onSessionEnded: ended }),
    };
  }, []);

  // On load: a session either kind still has (a reloaded page); the kind the URL names wins when both do.
  useEffect(() => {
    const quiet = async <T,>(client: ApiClient<unknown>): Promise<T | null> => {
      try {
        return await client.request<T>('GET', `${client.prefix}/session`, undefined, { quietSessionEnd: true });
      } catch {
        return null; // not signed in (session_required), or the server cannot say: the sign-in page either way
      }
    };
    void (async () => {
      const [m, c] = await Promise.all([
        quiet<MerchantSession>(clients.merchant),
        quiet<CompanySession>(clients.company),
      ]);
      if (m) clients.merchant.csrfToken = m.csrf_token;
      if (c) clients.company.csrfToken = c.csrf_token;
      const want = preferredRef.current();
      const merchant = m ? fromMerchant(m, clients.merchant) : null;
      const company = c ? fromCompany(c, clients.company) : null;
      setAccount(want === 'merchant' ? (merchant ?? company) : (company ?? merchant));
    })();
  }, [clients]);

  const signIn = useCallback(
    async (kind: AccountKind, email: string, password: string): Promise<Account> => {
      const signInTo = <T,>(api: ApiClient<unknown>) =>
        api.request<T>('POST', `${api.prefix}/session`, { email, password }, { quietSessionEnd: true });
      let signedIn: Account;
      if (kind === 'merchant') {
        const body = await signInTo<MerchantSession>(clients.merchant);
        clients.merchant.csrfToken = body.csrf_token;
        signedIn = fromMerchant(body, clients.merchant);
      } else {
        const body = await signInTo<CompanySession>(clients.company);
        clients.company.csrfToken = body.csrf_token;
        signedIn = fromCompany(body, clients.company);
      }
      setNotice(null);
      setAccount(signedIn);
      return signedIn;
    },
    [clients],
  );

  const signOut = useCallback(async () => {
    const current = account;
    if (current) {
      try {
        await current.api.request('DELETE', `${current.api.prefix}/session`, undefined, { quietSessionEnd: true });
      } catch (e) {
        // Already ended on the server: signed out all the same.
        if (!(e instanceof ApiError && e.code === SESSION_ENDED)) throw e;
      }
      current.api.csrfToken = null;
    }
    setNotice('You are signed out.');
    setAccount(null);
  }, [account]);

  const value = useMemo(() => ({ account, notice, signIn, signOut }), [account, notice, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
