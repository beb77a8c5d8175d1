/**
 * `npm run import -- --farmers farmers.csv --areas meadows.gpkg [--dry-run] [--project ID]`:
 * the editor's import from the command line, into the database the server uses (DATA_DIR or
 * DATABASE_URL, env.ts), with the same code as POST /api/Import/* (run.ts) and the default
 * mapping (column names or their Slovenian labels). Farmers go first, so the meadows of the same
 * call may name them by KMG-MID. All or nothing: one transaction; any refused row writes nothing.
 *
 * stdout: the report as one JSON object `{farmers?, areas?, committed}`; stderr: a progress bar
 * and a summary. Exit code 0 when committed (or a clean dry run), 1 when rows were refused, 2 on
 * bad arguments.
 */
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import type { Access } from '../access/access';
import { openDatabase } from '../db/database';
import { loadDemoData } from '../seed/seed-demo';
import { readEnv } from '../env';
import { ensureFarmerAccount } from '../idp/activations';
import type { RepoContext } from '../repositories/context';
import { ProjectRepository } from '../repositories/project-repository';
import { ImportRefused, runImport, UnreadableFile, type ImportFile, type ImportKind, type ImportReport } from '../import';

const USAGE = 'usage: npm run import -- [--farmers <file.csv>] [--areas <file.gpkg|.geojson|.zip>] [--dry-run] [--project <id>]';

export interface ImportArgs {
  farmers?: string;
  areas?: string;
  dryRun: boolean;
  project?: number;
}

export function parseImportArgs(argv: readonly string[]): ImportArgs {
  const args: ImportArgs = { dryRun: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--farmers') args.farmers = value();
    else if (flag === '--areas') args.areas = value();
    else if (flag === '--dry-run') args.dryRun = true;
    else if (flag === '--project') {
      const id = Number(value());
      if (!Number.isSafeInteger(id) || id < 1) throw new Error('--project must be a positive integer');
      args.project = id;
    } else throw new Error(`unknown argument ${flag}`);
  }
  if (!args.farmers && !args.areas) throw new Error('name a --farmers or an --areas file (or both)');
  return args;
}

/** `[import] [██████░░░░] 60% 6000/10000`, redrawn in place on a terminal, a line per 10 % otherwise. */
function progressBar(stream: NodeJS.WriteStream): (done: number, total: number) => void {
  let lastTenth = -1;
  return (done, total) => {
    const share = total === 0 ? 1 : done / total;
    const width = 30;
    const filled = Math.round(share * width);
    const line = `[import] [${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${Math.floor(share * 100)}% ${done}/${total}`;
    if (stream.isTTY) stream.write(`\r${line}${done >= total ? '\n' : ''}`);
    else if (Math.floor(share * 10) !== lastTenth) {
      lastTenth = Math.floor(share * 10);
      stream.write(`${line}\n`);
    }
  };
}

function summary(kind: ImportKind, report: ImportReport): string {
  const lines = [`[import] ${kind}: ${report.created} new, ${report.updated} updated, ${report.refused} refused`];
  for (const row of report.rows)
    if (row.action === 'refuse') lines.push(`[import]   ${kind} row ${row.row}${row.key ? ` (${row.key})` : ''}: ${row.reason ?? ''}`);
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<number> {
  let args: ImportArgs;
  try {
    args = parseImportArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const files: ImportFile[] = [];
  if (args.farmers) files.push({ kind: 'farmers', bytes: new Uint8Array(await readFile(args.farmers)) });
  if (args.areas) files.push({ kind: 'areas', bytes: new Uint8Array(await readFile(args.areas)) });

  const env = readEnv();
  mkdirSync(env.dataDir, { recursive: true });
  const { db, dialect, close } = await openDatabase({ dataDir: env.dataDir, database: env.database, databaseUrl: env.databaseUrl, postgres: env.postgres });
  try {
    // As on the server's first run, so project 1 is the demo project when DEMO is on.
    if (env.demo) await loadDemoData(db, dialect);
    const projectId = args.project ?? env.projectId;
    const schema = await new ProjectRepository(db).get(projectId);
    if (!schema) throw new Error(`project ${projectId} not found in the database`);
    const who = `import-cli:${os.userInfo().username}`;
    const access: Access = {
      principal: { subject: who, email: '', via: 'none' },
      caller: who,
      projectId,
      role: 'editor',
      editor: true,
      reader: false,
      farmerId: null,
      email: '',
    };
    const progress = progressBar(process.stderr);
    const base: Omit<RepoContext, 'db'> = {
      dialect,
      schema,
      access,
      now: new Date().toISOString(),
      ...(env.auth !== 'keycloak' ? { farmerAccounts: ensureFarmerAccount } : {}),
    };
    let reports: Partial<Record<ImportKind, ImportReport>>;
    let committed = false;
    try {
      reports = args.dryRun
        ? await runImport({ ...base, db }, files, { commit: false, progress })
        : await db.transaction().execute((trx) => runImport({ ...base, db: trx }, files, { commit: true, progress }));
      committed = !args.dryRun;
    } catch (error) {
      if (!(error instanceof ImportRefused)) throw error;
      reports = error.reports;
    }
    for (const [kind, report] of Object.entries(reports)) process.stderr.write(summary(kind as ImportKind, report));
    process.stdout.write(`${JSON.stringify({ ...reports, committed })}\n`);
    const refused = Object.values(reports).some((r) => r.refused > 0);
    process.stderr.write(
      committed ? '[import] committed\n' : refused ? '[import] nothing written: fix the refused rows and run again\n' : '[import] dry run: nothing written\n',
    );
    return refused ? 1 : 0;
  } finally {
    await close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof UnreadableFile ? `[import] ${error.message}` : error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
