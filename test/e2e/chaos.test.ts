/**
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The browser chaos run with one short seed (chaos/browser-chaos.ts; more seeds and edits with
 * `npm run chaos -- --browser`): the built app in Chromium against the real server process, a
 * round of seeded offline edits per fault — server killed, page reloaded, a second tab, the token
 * expired, each mid-drain — and after every round each edit is on the server exactly once, the
 * device's copy equals the server's rows and the outbox is empty.
 */
import { expect, jest, test } from '@jest/globals';
import { FAULTS, runBrowserChaos } from './chaos/browser-chaos';
import { describeApp } from './fixture';

jest.setTimeout(300_000);

const SEED = 7;
const EDITS_PER_ROUND = 24;

// The fixture's browser; the server is the run's own process (it is killed and restarted).
describeApp('chaos in the browser (Chromium, server process)', { server: false }, (e2e) => {
  test(`seed ${SEED}: every edit reaches the server once through a kill, a reload, a second tab and an expired token`, async () => {
    const report = await runBrowserChaos({
      seed: SEED,
      editsPerRound: EDITS_PER_ROUND,
      browser: e2e.browser,
      log: (message) => process.stderr.write(`[chaos] ${message}\n`),
    });
    // First, so a run that stopped early shows why (its error, the page's console, the server's log).
    expect(report.problems).toEqual([]);
    expect(report.rounds.map((round) => [round.fault, round.injected])).toEqual(FAULTS.map((fault) => [fault, true]));
    for (const round of report.rounds) {
      expect(round.edits.api).toBeGreaterThan(0);
      expect(round.checked.serverRows).toBeGreaterThan(0);
      expect(round.checked.deviceRows).toBeGreaterThan(0);
    }
    expect(report.rounds[0]!.edits.ui).toBeGreaterThan(0);
    // The second tab did drain (the first one's requests failed until it had).
    expect(report.rounds.find((round) => round.fault === 'secondTab')!.secondTabRequests).toBeGreaterThan(0);
  });
});
