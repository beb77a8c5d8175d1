// Jest runs in native ESM mode (NODE_OPTIONS=--experimental-vm-modules, set by the npm scripts)
// because jose and oidc-provider ship as ES modules only. babel-jest strips the TypeScript and
// keeps `import` statements as they are.
import { availableParallelism } from 'node:os';
import { REACT_ON_PREACT } from './scripts/react-on-preact.mjs';

const shared = {
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: { '^.+\\.[tj]sx?$': 'babel-jest' },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
  // ESM-only packages required from CommonJS dependencies: see test/jest-shims/README.md.
  moduleNameMapper: {
    '^content-disposition$': '<rootDir>/test/jest-shims/content-disposition.cjs',
    '^cookie$': '<rootDir>/test/jest-shims/cookie.cjs',
  },
  // DATABASE_URL per project, not per shell (see the file).
  setupFiles: ['<rootDir>/test/database-pass.ts'],
};

// Node's environment, with jest's clean-up of a file's globals off. Jest takes that mode once per
// worker process, from the first file it runs there, and warns when a later file asks for
// another. The client files that run in Node ask for 'off'; the default, 'soft', differs only in
// warnings (it keeps each value behind a getter that warns when it is read after the file ended).
// A worker replaced mid-run (workerIdleMemoryLimit) may start with any project's file: one mode
// everywhere.
const inNode = { testEnvironment: 'node', testEnvironmentOptions: { globalsCleanup: 'off' } };

const server = {
  ...shared,
  ...inNode,
  displayName: 'server',
  testMatch: ['<rootDir>/test/server/**/*.test.ts'],
  // 30 s per case and hook: server tests build real apps (see the file).
  setupFilesAfterEnv: ['<rootDir>/test/server/helpers/test-timeout.ts'],
};

// With DATABASE_URL naming a PostgreSQL database (.ci/run sets it), the server suite runs twice in
// the same jest run: on SQLite (project server) and on PostgreSQL (project server-pg, each test app
// in a throwaway schema), sharing the workers with the other projects instead of running after them.
const postgresUrl = /^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL.trim() : undefined;

/** @type {import("jest").Config} */
const config = {
  // Two test files at a time at least. Jest's default (cores - 1) is one on CI's two cores, and one
  // worker runs every file in band, one after the other: a browser test spends much of its time
  // waiting for the page, the server or a token's lifetime, and another file can use the core
  // meanwhile. Files never share a port, a directory or a database schema, so they may overlap.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // A worker that holds more than this after a file is replaced before the next. Jest gives a
  // worker 500 ms to end once the run is over, and a process ends in time proportional to its
  // heap: the client files' workers grew to 1.1–1.2 GB and took longer (≈ 200 ms per 850 MB
  // measured here), so jest killed them ("A worker process has failed to exit gracefully").
  // Replaced at 600 MB, they ended in ≈ 190 ms; the replacements cost the client files a few seconds.
  workerIdleMemoryLimit: '600MB',
  ...(postgresUrl ? { globalSetup: '<rootDir>/test/drop-leftover-schemas.mjs' } : {}),
  projects: [
    {
      ...shared,
      ...inNode,
      displayName: 'common',
      testMatch: ['<rootDir>/test/common/**/*.test.ts'],
    },
    server,
    ...(postgresUrl ? [{ ...server, displayName: 'server-pg', globals: { TEST_DATABASE_URL: postgresUrl } }] : []),
    {
      ...shared,
      displayName: 'client',
      testEnvironment: 'jsdom',
      // React's API on Preact, as in the build (scripts/react-on-preact.mjs).
      moduleNameMapper: {
        ...shared.moduleNameMapper,
        ...Object.fromEntries(Object.entries(REACT_ON_PREACT).map(([name, target]) => [`^${name}$`, target])),
      },
      // Preact schedules its renders with queueMicrotask: a test that fakes the clock keeps it
      // real, or a state change would not render until the next timer step.
      fakeTimers: { doNotFake: ['queueMicrotask'] },
      // jsdom lacks structuredClone, which fake-indexeddb needs (see the file).
      // Timers of the files that run in Node do not hold the worker at the end (see the file).
      setupFiles: [
        ...shared.setupFiles,
        '<rootDir>/test/client/helpers/structured-clone.ts',
        '<rootDir>/test/client/helpers/unref-node-timers.ts',
        'fake-indexeddb/auto',
      ],
      // Waits are for their conditions, within the test's 30 s budget (see the file).
      setupFilesAfterEnv: ['<rootDir>/test/client/helpers/wait-for-conditions.ts'],
      testMatch: ['<rootDir>/test/client/**/*.test.ts?(x)'],
    },
    {
      ...shared,
      ...inNode,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
    },
  ],
};

export default config;
