/**
 * The e2e suite runs under the server's Content-Security-Policy and every page reports what the
 * policy blocked (harness.ts, collectPageLog). Here: the signed-in app, a sign-out (through the
 * provider's automatic logout page, whose one script is allowed by hash) and a new sign-in break
 * nothing; and the report works — an inline script the app did not ship is blocked, reported, and
 * fails the check, so a suite that passes really had no violation.
 * Skipped with a message when dist/ has not been built (npm run build).
 */
import { afterAll, beforeAll, expect, jest, test } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { slAuth } from '../../src/common/i18n/sl';
import {
  CSP_VIOLATION,
  DEMO_USERS,
  LOGIN_PAGE_PATTERN,
  assertNoPolicyViolations,
  launchBrowser,
  newPage,
  openAppSignedIn,
  recordArtifacts,
  startServer,
  type E2EServer,
} from './harness';
import { describeBuiltApp, goHash } from './scenarios/helpers';

jest.setTimeout(120_000);

describeBuiltApp('Content-Security-Policy in the browser (Chromium)', () => {
  let server: E2EServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the signed-in app and a sign-out break nothing; an injected inline script is blocked and fails the test', async () => {
    const { context, page, log } = await newPage(browser);
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
        const blocked = new Promise<string>((resolve) => document.addEventListener('securitypolicyviolation', (event) => resolve(event.effectiveDirective), { once: true }));
        const script = document.createElement('script');
        script.textContent = 'window.__injected = true';
        document.head.append(script);
        return { directive: await blocked, ran: (window as unknown as { __injected?: boolean }).__injected === true };
      });
      expect(ran).toEqual({ directive: 'script-src-elem', ran: false });
      await reported;
      expect(() => assertNoPolicyViolations(log)).toThrow('Content-Security-Policy violations');
    } finally {
      await context.close();
    }
  });
});
