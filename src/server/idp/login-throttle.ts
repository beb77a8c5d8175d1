/**
 * Slows password guessing, the one throttle of every sign-in (login page, Basic credentials,
 * activation links): after `perAccount` wrong passwords for one login, or `perAddress` failures
 * from one client address, within the window, that login or address is refused until the window
 * ends (the caller answers 429 with Retry-After). Only failures count: a room of farmers signing
 * in behind one address is never refused for succeeding. A success forgives its account's
 * failures, not the address's (one right password must not reset guessing at other accounts).
 *
 * The failures are counted in the app's limit counters (plugins/limit-counters.ts): in Redis with
 * REDIS_URL, so a guesser spreading tries over N nodes is refused after the same number as on one;
 * else, or while Redis is away, in this process's memory. `name` keeps the login page's counts
 * apart from the activation links'.
 */
import { DEFAULT_LOGIN_LIMITS, type LoginLimits } from '../env';
import type { Counters, LimitCounters } from '../plugins/limit-counters';

/** Who is trying: the normalised login (when one was given) and the client address. */
interface SignInAttempt {
  account?: string;
  address?: string;
}

export class LoginThrottle {
  private readonly accounts: Counters;
  private readonly addresses: Counters;
  private readonly limits: LoginLimits;

  constructor(counters: LimitCounters, name: string, limits: Partial<LoginLimits> = {}) {
    this.limits = { ...DEFAULT_LOGIN_LIMITS, ...limits };
    this.accounts = counters.kind(`${name}-failures-account`);
    this.addresses = counters.kind(`${name}-failures-address`);
  }

  /** Whole seconds until this attempt may be made (the Retry-After); 0 = go ahead. */
  async retryAfter(attempt: SignInAttempt): Promise<number> {
    const wait = async (counters: Counters, key: string | undefined, max: number) => {
      if (key === undefined) return 0;
      const { count, ttlMs } = await counters.peek(key);
      return count >= max ? ttlMs : 0;
    };
    const waits = await Promise.all([
      wait(this.accounts, attempt.account, this.limits.perAccount),
      wait(this.addresses, attempt.address, this.limits.perAddress),
    ]);
    return Math.ceil(Math.max(...waits) / 1000);
  }

  async failed(attempt: SignInAttempt): Promise<void> {
    await Promise.all([
      attempt.account === undefined ? undefined : this.accounts.hit(attempt.account, this.limits.windowMs),
      attempt.address === undefined ? undefined : this.addresses.hit(attempt.address, this.limits.windowMs),
    ]);
  }

  async succeeded(attempt: SignInAttempt): Promise<void> {
    if (attempt.account !== undefined) await this.accounts.forget(attempt.account);
  }
}
