/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The seeded fault-injection run of chaos.ts with a fixed seed (more runs: npm run chaos).
 */
import { describe, expect, it, jest } from '@jest/globals';
import { runChaos } from './chaos';

jest.setTimeout(240_000);

describe('outbox under faults (seeded)', () => {
  it('delivers 500 random offline edits exactly once through drops, 5xx, duplicates, a server restart and reloads', async () => {
    const report = await runChaos({ seed: 20260615, edits: 500, log: (m) => process.stderr.write(`[chaos] ${m}\n`) });
    expect(report.problems).toEqual([]);
    expect(report.rowsChecked).toBeGreaterThan(200);
    // The run did meet the faults it claims to survive.
    for (const fault of ['dropBefore', 'dropAfter', 'http500', 'http502', 'http503', 'duplicate', 'restart', 'reload'])
      expect(report.faults[fault]).toBeGreaterThan(0);
  });
});
