import { DomainError } from '../../domain/errors.js';
import { recordedTime, secondsUntil, type RateLimitRule } from '../../domain/rate-limits.js';
import { SIGN_IN_WINDOW_SECONDS, signInRefusals, signInRetryAt, type SignInLimits } from '../../domain/sign-in.js';
import { sha256Hex } from '../../adapters/crypto/tokens.js';
import type { Db } from '../../db/connection.js';
import { takeRateLimitHits, type WindowTake } from '../../db/repositories/rate-limits.repo.js';

/** One sign-in attempt admitted to its password check: tell how it ended. */
export interface SignInAttempt {
  /** The password was wrong (or the address has no account): the failure counts. */
  failed(): Promise<void>;
  /** Anything else (signed in, a suspended tenant, an error): nothing counts, the hits taken are given back. */
  settled(): Promise<void>;
}

/**
 * Failed sign-ins of one session interface (`route`: `company`, `integrations`), in sliding 15-minute windows in
 * PostgreSQL shared by every API process (rules in domain/sign-in.ts). Before the password is checked, one statement
 * takes a hit from the client address's and the (address, account) windows (granted only while they have room, so
 * concurrent attempts cannot pass a limit together) and reads the account's; a refused attempt gives its hits back and
 * gets 429 with Retry-After. After the check, one statement keeps the hits and counts the account's failure, or gives
 * the hits back. The account is the address typed, as a digest: counters never hold e-mail addresses.
 */
export function signInThrottle(db: Db, route: string, limits: SignInLimits, now: () => Date) {
  const rule = (name: string, limit: number): RateLimitRule => ({ name, limit, windowSeconds: SIGN_IN_WINDOW_SECONDS });
  // The per-address window is shared by both sign-in routes: an address spraying both gets one budget.
  const ipRule = rule('sign-in:fail:ip', limits.perIp);
  const pairRule = rule(`${route}:sign-in:fail:ip-account`, limits.perIpAccount);
  const accountRule = rule(`${route}:sign-in:fail:account`, limits.perAccount);

  return {
    async begin(ip: string, email: string): Promise<SignInAttempt> {
      const at = now();
      const recordAt = recordedTime(at, SIGN_IN_WINDOW_SECONDS, false);
      const account = sha256Hex(`sign-in:${email}`);
      const ipTake: WindowTake = { rule: ipRule, subject: ip, ask: 1, recordAt };
      const pairTake: WindowTake = { rule: pairRule, subject: `${ip}:${account}`, ask: 1, recordAt };
      const accountRead: WindowTake = { rule: accountRule, subject: account, ask: 0, recordAt };
      const [ipState, pairState, accountState] = await takeRateLimitHits(db, [ipTake, pairTake, accountRead], at);
      /** Gives back the hits this attempt was granted (with `also`, in the same statement). */
      const giveBack = (also: WindowTake[] = []) =>
        takeRateLimitHits(
          db,
          [
            { ...ipTake, ask: 0, refunds: new Map([[recordAt, ipState!.granted]]) },
            { ...pairTake, ask: 0, refunds: new Map([[recordAt, pairState!.granted]]) },
            ...also,
          ],
          at,
        );

      const refusals = signInRefusals(
        {
          ipGranted: ipState!.granted > 0,
          pairGranted: pairState!.granted > 0,
          pairTotal: pairState!.total,
          accountTotal: accountState!.total,
        },
        limits,
      );
      if (refusals.length > 0) {
        const [ipNow, pairNow, accountNow] = await giveBack([accountRead]);
        const retryAt = signInRetryAt(
          refusals,
          { ip: ipNow!, pair: pairNow!, account: accountNow! },
          limits,
          at.getTime(),
        );
        throw new DomainError('rate_limited', 'Too many failed sign-ins; retry after the time in Retry-After', {
          retryAfterSeconds: secondsUntil(at, retryAt),
        });
      }
      return {
        failed: async () => {
          await takeRateLimitHits(db, [{ ...accountRead, ask: 1, force: true }], at);
        },
        settled: async () => {
          await giveBack();
        },
      };
    },
  };
}
