/**
 * Run before each client test file (jest.config.js, setupFilesAfterEnv). A test waits for the
 * condition it means (`findBy…`, `waitFor`), not for a stretch of wall time: Testing Library's
 * own one-second bound on those waits made a screen that needs a lazy chunk, a device read and a
 * render fail on a busy machine while it was still on its way. The test's budget (30 s per case
 * and hook, as the server tests have) is the only bound; a wait still fails first, with the DOM
 * it saw, when its condition never comes.
 */
import { jest } from '@jest/globals';
import { configure } from '@testing-library/react';

const TEST_BUDGET_MS = 30_000;

jest.setTimeout(TEST_BUDGET_MS);
configure({ asyncUtilTimeout: TEST_BUDGET_MS - 5_000 });
