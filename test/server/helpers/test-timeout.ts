/**
 * Run before each server test file (jest.config.js, setupFilesAfterEnv): 30 s per case and hook.
 * Server tests build real apps (migrations, demo data, a new RSA signing key each) in their hooks
 * and cases, and on a loaded 2-core machine one build alone can pass jest's default 5 s. (A
 * project's `testTimeout` in jest.config.js is not read by jest-circus: only the global one is.)
 */
import { jest } from '@jest/globals';

jest.setTimeout(30_000);
