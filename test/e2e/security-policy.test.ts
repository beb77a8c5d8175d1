/**
 * The e2e suite runs under the server's Content-Security-Policy and every page reports what the
 * policy blocked (harness.ts, collectPageLog). Here: the signed-in app, a sign-out (through the
 * provider's automatic logout page, whose one script is allowed by hash) and a new sign-in break
 * nothing; and the report works — an inline script the app did not ship is blocked, reported, and
 * fails the check, so a suite that passes really had no violation.
 * Skipped with a message when dist/ has not been built (npm run build); under CI that fails instead.
 */
import { expect, jest, test } from '@jest/globals';
import { slAuth } from '../../src/common/i18n/sl';
import { describeApp } from './fixture';
import { CSP_VIOLATION, DEMO_USERS, LOGIN_PAGE_PATTERN, assertNoPolicyViolations, openAppSignedIn, recordArtifacts } from './harness';
import { goHash } from './scenarios/helpers';

jest.setTimeout(120_000);

describeApp('Content-Security-Policy in the browser (Chromium)', {}, (e2e) => {
  test('the signed-in app and a sign-out break nothing; an injected inline script is blocked and fails the test', async () => {
    const { server } = e2e;
    const { page, log, close } = await e2e.device();
    try {
      await recordArtifacts('csp-sign-in-out', page, log, async () => {
        await openAppSignedIn(page, `${server.origin}/`, DEMO_USERS.editor);
        await goHash(page, '#/about');
        // Signing out goes through the provider's automatic logout page (its own script, by hash).
        await page.getByRole('button', { name: slAuth.session.signOut }).click();
        await page.waitForURL(LOGIN_PAGE_PATTERN, { timeout: 60_000 });
        await openAppSignedIn(page, `${server.origin}/`, DEMO_USERS.editor);
      });
      assertNoPolicyViolations(log);

      const reported = page.waitForEvent('console', { predicate: (message) => message.text().includes(CSP_VIOLATION) });
      const ran = await page.evaluate(async () => {
        const blocked = new Promise<string>((resolve) =>
          document.addEventListener('securitypolicyviolation', (event) => resolve(event.effectiveDirective), { once: true }),
        );
        const script = document.createElement('script');
        script.textContent = 'window.__injected = true';
        document.head.append(script);
        return { directive: await blocked, ran: (window as unknown as { __injected?: boolean }).__injected === true };
      });
      expect(ran).toEqual({ directive: 'script-src-elem', ran: false });
      await reported;
      expect(() => assertNoPolicyViolations(log)).toThrow('Content-Security-Policy violations');
    } finally {
      await close();
    }
  });
});
