/**
 * Slows password guessing, the one throttle of every sign-in (login page, Basic credentials,
 * activation links): after `perAccount` wrong passwords for one login, or `perAddress` failures
 * from one client address, within the window, that login or address is refused until the window
 * ends (the caller answers 429 with Retry-After). Only failures count: a room of farmers signing
 * in behind one address is never refused for succeeding. A success forgives its account's
 * failures, not the address's (one right password must not reset guessing at other accounts).
 * In memory (per process): enough to make online guessing impractical without locking users out
 * for long.
 */
import { DEFAULT_LOGIN_LIMITS, type LoginLimits } from '../env';

const MAX_ENTRIES = 10_000;

/** Who is trying: the normalised login (when one was given) and the client address. */
interface SignInAttempt {
  account?: string;
  address?: string;
}

class FailureCounter {
  private readonly failures = new Map<string, { count: number; since: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Milliseconds until `key` may try again; 0 when it may now. */
  waitMs(key: string): number {
    const entry = this.failures.get(key);
    if (!entry) return 0;
    const left = entry.since + this.windowMs - this.now();
    if (left <= 0) {
      this.failures.delete(key);
      return 0;
    }
    return entry.count >= this.max ? left : 0;
  }

  failed(key: string): void {
    const entry = this.failures.get(key);
    if (!entry || this.now() - entry.since >= this.windowMs) {
      // A flood of distinct keys must not grow the map without bound: drop the oldest.
      if (this.failures.size >= MAX_ENTRIES) this.failures.delete(this.failures.keys().next().value!);
      this.failures.set(key, { count: 1, since: this.now() });
    } else {
      entry.count += 1;
    }
  }

  forget(key: string): void {
    this.failures.delete(key);
  }
}

export class LoginThrottle {
  private readonly accounts: FailureCounter;
  private readonly addresses: FailureCounter;

  constructor(limits: Partial<LoginLimits> = {}, now: () => number = Date.now) {
    const { perAccount, perAddress, windowMs } = { ...DEFAULT_LOGIN_LIMITS, ...limits };
    this.accounts = new FailureCounter(perAccount, windowMs, now);
    this.addresses = new FailureCounter(perAddress, windowMs, now);
  }

  /** Whole seconds until this attempt may be made (the Retry-After); 0 = go ahead. */
  retryAfter(attempt: SignInAttempt): number {
    const waits = [attempt.account === undefined ? 0 : this.accounts.waitMs(attempt.account), attempt.address === undefined ? 0 : this.addresses.waitMs(attempt.address)];
    return Math.ceil(Math.max(...waits) / 1000);
  }

  failed(attempt: SignInAttempt): void {
    if (attempt.account !== undefined) this.accounts.failed(attempt.account);
    if (attempt.address !== undefined) this.addresses.failed(attempt.address);
  }

  succeeded(attempt: SignInAttempt): void {
    if (attempt.account !== undefined) this.accounts.forget(attempt.account);
  }
}
