/**
 * Run first in every test file (jest.config.js, setupFiles): which database the file's servers use.
 * Project `server-pg` (the server suite again, on PostgreSQL) names its database in the global
 * TEST_DATABASE_URL; every other project runs without DATABASE_URL, whatever the shell has, so its
 * servers use SQLite. Jest gives each test file its own copy of process.env: the choice holds for
 * this file only, while files of both passes share the workers.
 */
const url = (globalThis as { TEST_DATABASE_URL?: string }).TEST_DATABASE_URL;
if (url) process.env.DATABASE_URL = url;
else delete process.env.DATABASE_URL;
