#!/usr/bin/env node
// Runs npm scripts at the same time (`node scripts/run-parallel.mjs typecheck lint build`) and
// fails when any of them fails. Each one's output is kept and printed whole once it ends, with how
// long it took, so the log reads as if they had run one after another. `npm test` runs the
// typecheck, the lint and the client build this way: each is mostly one busy core, and CI has two.
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  process.stderr.write('usage: node scripts/run-parallel.mjs <npm script> [<npm script> …]\n');
  process.exit(2);
}

const started = Date.now();
const results = await Promise.all(
  scripts.map(
    (script) =>
      new Promise((resolve) => {
        const begin = Date.now();
        const chunks = [];
        const child = spawn('npm', ['run', script], {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
        });
        child.stdout.on('data', (chunk) => chunks.push(chunk));
        child.stderr.on('data', (chunk) => chunks.push(chunk));
        child.on('close', (code, signal) => {
          const seconds = ((Date.now() - begin) / 1000).toFixed(1);
          const status = code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`;
          process.stdout.write(`\n[run-parallel] npm run ${script}: ${status} in ${seconds} s\n${Buffer.concat(chunks).toString()}`);
          resolve(code === 0);
        });
      }),
  ),
);
process.stdout.write(`\n[run-parallel] ${scripts.join(', ')}: ${((Date.now() - started) / 1000).toFixed(1)} s in all\n`);
process.exit(results.every(Boolean) ? 0 : 1);
