import { roomAt, type WindowHits } from './rate-limits.js';

/**
 * Throttling of failed sign-ins (both browser sessions: `/api/company` and `/api/integrations`; docs/proof.md "Sign-in
 * throttling"). Only failures count (a wrong password, or an address without an account); a right password never
 * does, so the owner of an account is never refused for what others sent from elsewhere. In any 15 minutes:
 * - per client address and account: `perIpAccount` failures (5), then that address is refused for that account;
 * - per client address: `perIp` failures for any accounts (30), then that address is refused for every account;
 * - per account, from every address: past `perAccount` failures (20) the account is under attack, and each address may
 *   fail for it once (the first attempt of an address with no failure for it still goes through, so the owner is
 *   slowed, never locked out, and guessing from many addresses gets one try per address per 15 minutes).
 */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

export interface SignInLimits {
  readonly perIpAccount: number;
  readonly perIp: number;
  readonly perAccount: number;
}

/** Why an attempt is refused before its password is checked. */
export type SignInRefusal = 'ip' | 'ip_account' | 'account_under_attack';

/** A sliding window of failures as a statement left it. */
export interface FailureWindow {
  total: number;
  entries: readonly WindowHits[];
}

/**
 * The refusals of an attempt that has taken one hit from its address's and its (address, account) windows (each
 * granted only while the window had room) and read its account's: none means its password may be checked.
 */
export function signInRefusals(
  taken: { ipGranted: boolean; pairGranted: boolean; pairTotal: number; accountTotal: number },
  limits: SignInLimits,
): SignInRefusal[] {
  const out: SignInRefusal[] = [];
  if (!taken.ipGranted) out.push('ip');
  if (!taken.pairGranted) out.push('ip_account');
  // Under attack, an address may fail once for the account: this attempt's hit plus any other is one too many.
  else if (taken.accountTotal >= limits.perAccount && taken.pairTotal > 1) out.push('account_under_attack');
  return out;
}

/**
 * When a refused attempt may be made again (Retry-After), from the windows without its own hits: once every reason has
 * passed. Under attack, the address's failure must have left its window, or the account must no longer be under attack.
 */
export function signInRetryAt(
  refusals: readonly SignInRefusal[],
  windows: { ip: FailureWindow; pair: FailureWindow; account: FailureWindow },
  limits: SignInLimits,
  now: number,
): number {
  const w = SIGN_IN_WINDOW_SECONDS;
  const waits = refusals.map((r) =>
    r === 'ip'
      ? roomAt(windows.ip.entries, limits.perIp, w, now)
      : r === 'ip_account'
        ? roomAt(windows.pair.entries, limits.perIpAccount, w, now)
        : Math.min(roomAt(windows.pair.entries, 1, w, now), roomAt(windows.account.entries, limits.perAccount, w, now)),
  );
  return Math.max(now, ...waits);
}
