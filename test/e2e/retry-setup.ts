/**
 * Browser tests get two retries: on the shared 2-core CI machine a page can still be navigating
 * (sign-in redirect, service-worker takeover) when a step evaluates, and a lost run would hold back
 * a whole submission. The first failure is printed, so a test that needs its retry is still seen.
 */
import { jest } from '@jest/globals';

jest.retryTimes(Number(process.env.E2E_RETRIES ?? 2), { logErrorsBeforeRetry: true });
