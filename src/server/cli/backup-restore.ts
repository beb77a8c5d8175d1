/**
 * `npm run backup -- <dir>` and `npm run restore -- <dir>` (docs/deploy.md, "Backups"). Both read
 * the server's own environment (DATA_DIR, DATABASE_URL, S3_*), print progress on stderr and one
 * JSON summary line on stdout; a refusal prints its reason and exits 1, bad usage exits 2. A restore
 * whose attachment objects are gone from the bucket is refused unless `--accept-missing-attachments`
 * is given; the summary then lists them (`missingAttachments`).
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { EnvError, readEnv, readS3Env } from '../env';
import { backup } from '../ops/backup';
import { ACCEPT_MISSING_FLAG, restore } from '../ops/restore';
import { OpsError } from '../ops/snapshot';

const USAGE = `usage: npm run backup -- <snapshot folder>  |  npm run restore -- <snapshot folder> [${ACCEPT_MISSING_FLAG}]`;

async function main(): Promise<void> {
  const [command, dir, ...rest] = process.argv.slice(2);
  // The one flag: a restore that accepts attachment objects gone from the bucket (it lists them).
  const acceptMissingAttachments = command === 'restore' && rest.length === 1 && rest[0] === ACCEPT_MISSING_FLAG;
  if ((command !== 'backup' && command !== 'restore') || !dir || (rest.length > 0 && !acceptMissingAttachments)) {
    console.error(USAGE);
    process.exit(2);
  }
  const env = readEnv();
  const started = performance.now();
  const target = {
    dataDir: env.dataDir,
    database: env.database,
    databaseUrl: env.databaseUrl,
    s3: readS3Env(),
    log: (line: string) => process.stderr.write(`[${command}] ${line}\n`),
  };
  const snapshot = path.resolve(dir);
  const { manifest, missingAttachments } =
    command === 'backup'
      ? { manifest: await backup(snapshot, target), missingAttachments: undefined }
      : await restore(snapshot, target, { acceptMissingAttachments });
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  process.stdout.write(
    `${JSON.stringify({ [command]: snapshot, seconds, database: manifest.database.kind, schema: manifest.database.lastMigration, attachments: manifest.attachments.count, attachmentBytes: manifest.attachments.bytes, files: manifest.files.length, bytes: manifest.files.reduce((sum, file) => sum + file.size, 0), ...(missingAttachments?.length ? { missingAttachments } : {}) })}\n`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof OpsError || error instanceof EnvError) {
    console.error(`${process.argv[2] ?? 'ops'} refused: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
