/**
 * Slows password guessing on the login page: after MAX_FAILURES wrong passwords for one login
 * within WINDOW_MS, that login is refused for the rest of the window. In memory (per process):
 * enough to make online guessing of a known e-mail impractical without locking users out for long.
 */
const MAX_FAILURES = 10;
const WINDOW_MS = 60_000;
const MAX_ENTRIES = 10_000;

export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; since: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  blocked(login: string): boolean {
    const entry = this.failures.get(login);
    if (!entry) return false;
    if (this.now() - entry.since > WINDOW_MS) {
      this.failures.delete(login);
      return false;
    }
    return entry.count >= MAX_FAILURES;
  }

  failed(login: string): void {
    const entry = this.failures.get(login);
    if (!entry || this.now() - entry.since > WINDOW_MS) {
      if (this.failures.size >= MAX_ENTRIES) this.failures.delete(this.failures.keys().next().value!);
      this.failures.set(login, { count: 1, since: this.now() });
    } else {
      entry.count += 1;
    }
  }

  succeeded(login: string): void {
    this.failures.delete(login);
  }
}
