/**
 * The QA action log of a scenario's page (the logs of the e2e scenarios are kept as
 * fixtures): at the end of a scenario the log is exported the way a QA engineer does it — /about
 * → "Izvozi dnevnik", the downloaded file — and replayed headless right away (the engine of
 * `npm run replay`: the app's makeStore, network answered from the log) with every state hash
 * matching and the final hash equal to the last one the browser logged.
 *
 * With `UPDATE_ACTION_LOGS=1` the exported file also becomes the fixture
 * test/fixtures/action-logs/<name>.json and its entry in expected.json is rewritten (final hash,
 * action count); test/client/qa/replay-fixtures.test.ts replays the fixtures on every `npm test`.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@jest/globals';
import type { Page } from 'playwright-core';
import { slQa } from '../../../src/common/i18n/sl';
import { parseActionLogFile, replayActionLog, type ActionEntry, type ActionLogFile, type ReplayResult } from '../../../src/client/features/qa';
import { createReplayStore, teardownReplayStore } from '../../../scripts/replay-store';
import { ROOT, type ConsoleLog } from '../harness';
import { goHash } from './helpers';

const ACTION_LOG_FIXTURES_DIR = path.join(ROOT, 'test', 'fixtures', 'action-logs');
/** `UPDATE_ACTION_LOGS=1`: the scenarios rewrite their fixtures (and expected.json). */
const UPDATE_ACTION_LOGS = process.env.UPDATE_ACTION_LOGS === '1';

interface ExpectedReplay {
  /** The state hash the browser logged after its last action (and the replay reaches). */
  finalHash: string;
  /** Action entries in the file. */
  actions: number;
  /** Store starts (page loads) in the file. */
  sessions: number;
  /** The scenario the log comes from. */
  scenario: string;
}

/**
 * /about → "Izvozi dnevnik": the button flushes the running recorder and downloads the ring
 * buffer. The route changes by hash, as a link does: no reload, so no new session is started.
 */
export async function exportActionLogFromAbout(page: Page): Promise<{ file: ActionLogFile; fileName: string; text: string }> {
  await goHash(page, '#/about');
  const button = page.getByTestId('action-log-export').getByRole('button', { name: slQa.qa.export });
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toMatch(/^moj-travnik-dnevnik-\d{4}-\d{2}-\d{2}-\d{4}\.json$/);
  const downloaded = await download.path();
  if (!downloaded) throw new Error(`the log download failed: ${await download.failure()}`);
  const text = readFileSync(downloaded, 'utf8');
  await page.getByTestId('action-log-export').getByText(slQa.qa.exported, { exact: false }).waitFor();
  return { file: parseActionLogFile(JSON.parse(text)), fileName: download.suggestedFilename(), text };
}

/**
 * Replays an exported log headless, as `npm run replay` does, and asserts it matches the browser
 * step by step: no divergence, the final hash equal to the last hash the browser logged. With
 * UPDATE_ACTION_LOGS=1 the log becomes the fixture `<fixture>.json`.
 */
export async function replayExportedLog(
  fixture: string,
  scenario: string,
  exported: { file: ActionLogFile; text: string },
  log: ConsoleLog,
): Promise<ReplayResult> {
  const { file } = exported;
  const actions = file.entries.filter((entry): entry is ActionEntry => entry.kind === 'action');
  expect(actions.length).toBeGreaterThan(0);
  const result = await replayActionLog(file, { createStore: (deps) => createReplayStore(deps, { devChecks: false }), teardown: teardownReplayStore });
  const line = `[e2e] ${fixture}: ${file.entries.length} entries (${Math.round(exported.text.length / 1024)} KiB), ${result.actions} actions in ${result.sessions} session(s) replayed; final state hash ${result.finalHash}, logged ${actions.at(-1)!.hash}${result.divergence ? `; DIVERGED ${JSON.stringify(result.divergence)}` : ''}`;
  log.lines.push(line);
  process.stderr.write(`${line}\n`);
  if (result.divergence) saveForInspection(fixture, exported.text);
  expect(result.divergence).toBeNull();
  expect(result.skippedEntries).toBe(0);
  expect(result.finalHash).toBe(actions.at(-1)!.hash);
  expect(result.recordedFinalHash).toBe(actions.at(-1)!.hash);
  if (UPDATE_ACTION_LOGS) {
    writeFixture(fixture, file, {
      finalHash: result.finalHash!,
      actions: actions.length,
      sessions: file.entries.filter((entry) => entry.kind === 'session').length,
      scenario,
    });
  }
  return result;
}

/** A diverging log is kept under test-results/e2e/action-logs/ for `npm run replay`. */
function saveForInspection(fixture: string, text: string): void {
  const dir = path.join(ROOT, 'test-results', 'e2e', 'action-logs');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${fixture}.json`), text);
}

/**
 * Writes the fixture and its expected.json entry. expected.json is shared by scenario files that
 * jest may run in parallel workers: read-modify-write under a lock directory.
 */
function writeFixture(fixture: string, file: ActionLogFile, expected: ExpectedReplay): void {
  mkdirSync(ACTION_LOG_FIXTURES_DIR, { recursive: true });
  // One entry a line: small diffs when a fixture is re-recorded, a fraction of indented JSON's size.
  const lines = file.entries.map((entry) => JSON.stringify(entry));
  const { entries: _entries, ...header } = file;
  const text = `${JSON.stringify(header).slice(0, -1)},"entries":[\n${lines.join(',\n')}\n]}\n`;
  writeFileSync(path.join(ACTION_LOG_FIXTURES_DIR, `${fixture}.json`), text);
  withLock(path.join(ACTION_LOG_FIXTURES_DIR, '.expected.lock'), () => {
    const target = path.join(ACTION_LOG_FIXTURES_DIR, 'expected.json');
    let all: Record<string, ExpectedReplay> = {};
    try {
      all = JSON.parse(readFileSync(target, 'utf8')) as Record<string, ExpectedReplay>;
    } catch {
      all = {};
    }
    all[`${fixture}.json`] = expected;
    const sorted = Object.fromEntries(
      Object.keys(all)
        .sort()
        .map((key) => [key, all[key]!]),
    );
    writeFileSync(target, `${JSON.stringify(sorted, null, 2)}\n`);
  });
  process.stderr.write(`[e2e] fixture written: test/fixtures/action-logs/${fixture}.json (final hash ${expected.finalHash}, ${expected.actions} actions)\n`);
}

/**
 * expected.json is shared by the scenarios, which jest may run in parallel workers: one writer at a
 * time, by a lock directory. A worker waits for the lock to be free (tried again every 50 ms), not
 * for time; only with UPDATE_ACTION_LOGS=1.
 */
function withLock(lockDir: string, fn: () => void): void {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || Date.now() > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
  try {
    fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}
